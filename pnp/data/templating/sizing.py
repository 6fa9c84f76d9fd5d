"""Sizing what templates make, before it is made.

Every operation that makes text or a list (`*`, `+`, `%`, `~`, `join`, `format`, `replace`, the
filters that turn a value into text, and each `{{ value }}` written out) estimates its result
first: one over `MAX_TEMPLATE_OUTPUT` characters is refused before it is allocated, and after
every few million characters made the memory budget of the running limit is looked at there and
then, so the memory limit holds near its value instead of waiting for the next tick of the clock
while one C call allocates a gigabyte. The sandbox (`pnp.data.templating.sandbox`) calls these.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from jinja2.runtime import markup_join
from jinja2.sandbox import SecurityError
from markupsafe import Markup

from pnp.data.format.limits import MAX_TEMPLATE_OUTPUT


class TemplateLimit(SecurityError):
    """A template or expression asked for more work than the limits allow."""


class TemplateOverrun(TemplateLimit):
    """Template work stopped because it ran past its time or memory budget."""


_DEEP = 50  # nesting past which a value's text is not estimated (refused as too large)


def text_size(value: Any, room: int = MAX_TEMPLATE_OUTPUT, depth: int = 0) -> int:
    """About how many characters `str(value)` has, counted without making it; the count stops once it
    passes `room` (so sizing a list of a million long strings costs little)."""
    if isinstance(value, str):
        return len(value)
    if value is None or isinstance(value, (bool, float)):
        return 24
    if isinstance(value, int):
        return value.bit_length() // 3 + 2
    if isinstance(value, dict):
        value = [*value.keys(), *value.values()]
    if isinstance(value, (list, tuple, set, frozenset)):
        if depth > _DEEP:
            return room + 1
        total = 2
        for item in value:
            total += text_size(item, room - total, depth + 1) + 4  # quotes and a separator
            if total > room:
                break
        return total
    return 64  # anything else (a card, a namespace, a colour) writes a short text of its own


class Guarded(threading.local):
    """This thread's template work: whether it is already inside a limit (nested limits cost nothing), its
    budget, and how many characters checked operations made since its memory was last looked at."""

    on: bool = False
    budget: Any = None  # the running limit's budget (sandbox._Budget), whose overrun() says why to stop
    made: int = 0


GUARDED = Guarded()
_LOOK_EVERY = 4_000_000  # characters made between looks at the process's memory (at most ~16 MB)


def made(size: int, what: str = "a value") -> None:
    """Account for `size` characters a template is about to make: refused over `MAX_TEMPLATE_OUTPUT`;
    after every `_LOOK_EVERY` made, the memory budget is looked at now rather than at the next tick."""
    if size > MAX_TEMPLATE_OUTPUT:
        raise TemplateLimit(
            f"{what} of about {size} characters goes over the {MAX_TEMPLATE_OUTPUT}-character limit"
        )
    guarded = GUARDED
    guarded.made += size
    if guarded.made >= _LOOK_EVERY:
        guarded.made = 0
        budget = guarded.budget
        if budget is not None and (why := budget.overrun()):
            raise TemplateOverrun(why)


def check_call(text: str, args: tuple, kwargs: dict) -> None:
    """A `str.format` call: each replacement field at most as long as the longest argument."""
    longest = max((text_size(v) for v in (*args, *kwargs.values())), default=0)
    made(len(text) + text.count("{") * longest, "formatted text")


def concat(self: Any, values: tuple) -> str:
    """`a ~ b ~ ...`: sized before it is joined."""
    total = 0
    for v in values:
        total += text_size(v, MAX_TEMPLATE_OUTPUT - total)
        if total > MAX_TEMPLATE_OUTPUT:
            break
    made(total, "joined text (~)")
    if any(isinstance(v, Markup) for v in values):
        return str(markup_join(values))
    return "".join(map(str, values))


def finalize(value: Any) -> Any:
    """Each `{{ value }}` written out: sized before it becomes text."""
    if not isinstance(value, str):
        made(text_size(value), "a value written out")
    return value


def _sized_join(fn: Callable[..., Any]) -> Callable[..., Any]:
    """The `join` filter, its result sized before it is made."""

    def join(eval_ctx: Any, value: Any, d: str = "", attribute: Any = None) -> Any:
        items = list(value)
        if attribute is None:
            made(sum(text_size(v) for v in items) + len(d) * len(items), "joined text")
        return fn(eval_ctx, items, d, attribute)

    join.__dict__.update(getattr(fn, "__dict__", {}))
    return join


def _sized_text(name: str, fn: Callable[..., Any], factor: int) -> Callable[..., Any]:
    """A filter that writes its value out as text (`string`, `tojson`...): sized first (up to `factor`
    characters per character, for escapes)."""

    def sized(*args: Any, **kwargs: Any) -> Any:
        value = args[1] if getattr(fn, "jinja_pass_arg", None) is not None else args[0]
        made(text_size(value) * factor, f"the {name} filter's text")
        return fn(*args, **kwargs)

    sized.__dict__.update(getattr(fn, "__dict__", {}))
    return sized


_TEXT_FILTERS = {"string": 1, "pprint": 1, "tojson": 6, "e": 6, "escape": 6, "forceescape": 6, "urlencode": 3}


def _sized_replace(fn: Callable[..., Any]) -> Callable[..., Any]:
    """The `replace` filter, its result sized before it is made."""

    def replace(eval_ctx: Any, s: Any, old: Any, new: Any, count: int | None = None) -> Any:
        text, old, new = str(s), str(old), str(new)
        times = text.count(old) if old else len(text) + 1
        if count is not None:
            times = min(times, max(count, 0))
        made(len(text) + times * max(0, len(new) - len(old)), "replaced text")
        return fn(eval_ctx, s, old, new, count)

    replace.__dict__.update(getattr(fn, "__dict__", {}))
    return replace


def size_filters(env: Any) -> None:
    """Install the sized `join`, `replace` and text filters, and the sizing of written values, in `env`."""
    env.filters["join"] = _sized_join(env.filters["join"])
    env.filters["replace"] = _sized_replace(env.filters["replace"])
    for name, factor in _TEXT_FILTERS.items():
        if name in env.filters:
            env.filters[name] = _sized_text(name, env.filters[name], factor)
    env.finalize = finalize
