"""Sandboxed jinja2 for text in databases (slots, rule expressions) and booklet templates.

The sandbox refuses attribute names that start with `_` (so `__class__`/`__mro__`
escapes fail when the text is compiled), ranges over `MAX_TEMPLATE_RANGE` items,
repetition (`*`, `**`) and padding filters that would build huge values, output
over `MAX_TEMPLATE_OUTPUT` characters, and work over `TEMPLATE_SECONDS`.
"""
from __future__ import annotations

import operator
import re
import signal
import threading
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterator

import jinja2
from jinja2 import nodes
from jinja2.sandbox import ImmutableSandboxedEnvironment, SecurityError

from pnp.data.colours import FILTERS
from pnp.data.limits import MAX_TEMPLATE_OUTPUT, MAX_TEMPLATE_RANGE, TEMPLATE_SECONDS

_WIDE_FILTERS = ("center", "indent", "wordwrap", "truncate")
_WIDE_FORMAT = re.compile(r"\d{7,}")  # a field width of a million or more in a format string


class TemplateLimit(SecurityError):
    """A template or expression asked for more work than the limits allow."""


def _size(value: Any) -> int:
    return len(value) if isinstance(value, (str, bytes, list, tuple)) else 1


class _Limited(ImmutableSandboxedEnvironment):
    """The sandbox with limits on repetition, powers and ranges."""

    intercepted_binops = frozenset({"*", "**", "%"})

    def wrap_str_format(self, value: Any) -> Any:  # "...".format / format_map, as the sandbox wraps them
        wrapped = super().wrap_str_format(value)
        if wrapped is not None and _WIDE_FORMAT.search(str(getattr(value, "__self__", ""))):
            raise TemplateLimit("a format width that large is refused in templates")
        return wrapped

    def call_binop(self, context: Any, op: str, left: Any, right: Any) -> Any:
        if op == "%":
            if isinstance(left, str) and _WIDE_FORMAT.search(left):
                raise TemplateLimit("a format width that large is refused in templates")
            return operator.mod(left, right)
        if op == "**" and isinstance(right, (int, float)) and abs(right) > 64 and abs(left) > 1:
            raise TemplateLimit(f"power {left!r} ** {right!r} is too large for a template")
        if op == "*":
            for seq, n in ((left, right), (right, left)):
                if isinstance(seq, (str, list, tuple)) and isinstance(n, int) and _size(seq) * n > MAX_TEMPLATE_OUTPUT:
                    raise TemplateLimit(f"repeating a value {n} times goes over {MAX_TEMPLATE_OUTPUT} items")
            return operator.mul(left, right)
        return operator.pow(left, right)


def _guard_width(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    def guarded(*args: Any, **kwargs: Any) -> Any:
        for v in list(args[1:]) + list(kwargs.values()):
            if isinstance(v, int) and not isinstance(v, bool) and v > MAX_TEMPLATE_OUTPUT:
                raise TemplateLimit(f"{name}({v}) is wider than the {MAX_TEMPLATE_OUTPUT}-character limit")
        return fn(*args, **kwargs)
    guarded.__dict__.update(getattr(fn, "__dict__", {}))  # keep jinja2's pass_context/pass_eval_context marks
    return guarded


def _range(*args: int) -> range:
    rng = range(*args)
    if len(rng) > MAX_TEMPLATE_RANGE:
        raise TemplateLimit(f"range of {len(rng)} items; templates may use at most {MAX_TEMPLATE_RANGE}")
    return rng


def pairs(rows: Any, label: str, *parts: str, sep: str = ". ") -> list[list[str]]:
    """Table rows from a list of mappings: [row[label], the `parts` present joined by `sep`].

    Lets a reference card print a table that lives in the game's facts:
    `facts.nasty_hits.rows[0:5] | pairs('label', 'name', 'text')`.
    """
    return [[str(r[label]), sep.join(str(r[p]) for p in parts if r.get(p) not in (None, ""))] for r in rows]


_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")


def spell(n: Any) -> str:
    """A small whole number in words (`{{ facts.market | spell }}` -> five); others as digits."""
    return _WORDS[n] if isinstance(n, int) and not isinstance(n, bool) and 0 <= n < len(_WORDS) else str(n)


def _env(loader: jinja2.BaseLoader | None = None) -> _Limited:
    env = _Limited(undefined=jinja2.StrictUndefined, loader=loader, keep_trailing_newline=True, autoescape=False)
    for name in _WIDE_FILTERS:
        env.filters[name] = _guard_width(name, env.filters[name])
    env.globals["range"] = _range
    env.filters.update(FILTERS)
    env.filters["pairs"] = pairs
    env.filters["spell"] = spell
    return env


_INLINE = _env()


def is_template(text: Any) -> bool:
    """Whether a database string needs rendering at all."""
    return isinstance(text, str) and ("{{" in text or "{%" in text)


def _refuse_private(tree: nodes.Node) -> None:
    """Names and attributes starting with `_` are how sandbox escapes begin; refuse them up front."""
    for node in tree.find_all((nodes.Getattr, nodes.Name)):
        name = node.attr if isinstance(node, nodes.Getattr) else node.name
        if name.startswith("_"):
            raise jinja2.TemplateSyntaxError(
                f"{name!r} is not allowed: templates are sandboxed and may not use names starting with '_'",
                node.lineno)
    for node in tree.find_all(nodes.Getitem):
        if isinstance(node.arg, nodes.Const) and isinstance(node.arg.value, str) and node.arg.value.startswith("_"):
            raise jinja2.TemplateSyntaxError(
                f"{node.arg.value!r} is not allowed: templates are sandboxed and may not use names starting with '_'",
                node.lineno)


@lru_cache(maxsize=4096)
def compile_text(text: str) -> jinja2.Template:
    """Compile an inline template once (raises jinja2.TemplateSyntaxError)."""
    _refuse_private(_INLINE.parse(text))
    return _INLINE.from_string(text)


@lru_cache(maxsize=1024)
def compile_expr(expr: str) -> Callable[..., Any]:
    """Compile a rule expression once (raises jinja2.TemplateSyntaxError)."""
    fn = _INLINE.compile_expression(expr, undefined_to_none=False)
    _refuse_private(_INLINE.parse(f"{{{{ ({expr}) }}}}"))

    def limited(**context: Any) -> Any:
        with time_limit():
            return fn(**context)
    return limited


@contextmanager
def time_limit(seconds: float = TEMPLATE_SECONDS) -> Iterator[None]:
    """Stop the enclosed template work after `seconds` with TemplateLimit.

    Uses a real-time timer, so only on the main thread; an enclosing limit
    already running is left in charge.
    """
    if threading.current_thread() is not threading.main_thread() or signal.getitimer(signal.ITIMER_REAL)[0] > 0:
        yield
        return

    def expire(signum: int, frame: Any) -> None:
        raise TemplateLimit(f"template work took longer than {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def render_template(template: jinja2.Template, context: dict[str, Any]) -> str:
    """Render within the time and output limits."""
    parts: list[str] = []
    size = 0
    with time_limit():
        for chunk in template.generate(context):
            size += len(chunk)
            if size > MAX_TEMPLATE_OUTPUT:
                raise TemplateLimit(f"template output goes over {MAX_TEMPLATE_OUTPUT} characters")
            parts.append(chunk)
    return "".join(parts)


def render_value(value: Any, context: dict[str, Any]) -> Any:
    """Render strings (and strings inside lists/mappings) as templates; pass others through.

    A mapping with the single key `expr` is a jinja2 expression whose value (a
    list, a number...) is used as it is, for slots that need structured data.
    Any failure comes out as a jinja2.TemplateError with a readable message.
    """
    try:
        return _render(value, context)
    except jinja2.TemplateError:
        raise
    except Exception as exc:  # noqa: BLE001 - whatever the template did wrong is an input problem
        raise jinja2.TemplateRuntimeError(f"{type(exc).__name__}: {exc}") from None


def _render(value: Any, context: dict[str, Any]) -> Any:
    if isinstance(value, dict) and set(value) == {"expr"}:
        return compile_expr(str(value["expr"]))(**context)
    if isinstance(value, str):
        return render_template(compile_text(value), context) if is_template(value) else value
    if isinstance(value, (list, tuple)):
        return [_render(v, context) for v in value]
    if isinstance(value, dict):
        return {k: _render(v, context) for k, v in value.items()}
    return value


def file_environment(folder: Path) -> ImmutableSandboxedEnvironment:
    """Sandboxed environment that loads templates only from `folder`."""
    return _env(jinja2.FileSystemLoader(str(folder)))
