"""Sandboxed jinja2 for text in databases (slots, rule expressions) and booklet templates.

jinja2 is imported on first use, not with this module: `is_template` is
needed everywhere, jinja2 only when something is compiled (start-up speed;
a game loaded from the disk cache draws without it).
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    import jinja2
    from jinja2.sandbox import ImmutableSandboxedEnvironment

from pnp.data.colours import FILTERS


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


def _env(loader: "jinja2.BaseLoader | None" = None) -> "ImmutableSandboxedEnvironment":
    import jinja2  # lazy: see the module docstring
    from jinja2.sandbox import ImmutableSandboxedEnvironment
    env = ImmutableSandboxedEnvironment(undefined=jinja2.StrictUndefined, loader=loader,
                                        keep_trailing_newline=True, autoescape=False)
    env.filters.update(FILTERS)
    env.filters["pairs"] = pairs
    env.filters["spell"] = spell
    return env


@lru_cache(maxsize=1)
def _inline() -> "ImmutableSandboxedEnvironment":
    """The one environment for inline templates (created on first use)."""
    return _env()


def is_template(text: Any) -> bool:
    """Whether a database string needs rendering at all."""
    return isinstance(text, str) and ("{{" in text or "{%" in text)


@lru_cache(maxsize=4096)
def compile_text(text: str) -> jinja2.Template:
    """Compile an inline template once (raises jinja2.TemplateSyntaxError)."""
    return _inline().from_string(text)


@lru_cache(maxsize=1024)
def compile_expr(expr: str) -> Callable[..., Any]:
    """Compile a rule expression once (raises jinja2.TemplateSyntaxError)."""
    return _inline().compile_expression(expr, undefined_to_none=False)


def render_value(value: Any, context: dict[str, Any]) -> Any:
    """Render strings (and strings inside lists/mappings) as templates; pass others through.

    A mapping with the single key `expr` is a jinja2 expression whose value (a
    list, a number...) is used as it is, for slots that need structured data.
    """
    if isinstance(value, dict) and set(value) == {"expr"}:
        return compile_expr(str(value["expr"]))(**context)
    if isinstance(value, str):
        return compile_text(value).render(context) if is_template(value) else value
    if isinstance(value, (list, tuple)):
        return [render_value(v, context) for v in value]
    if isinstance(value, dict):
        return {k: render_value(v, context) for k, v in value.items()}
    return value


def file_environment(folder: Path) -> ImmutableSandboxedEnvironment:
    """Sandboxed environment that loads templates only from `folder`."""
    import jinja2  # lazy: see the module docstring
    return _env(jinja2.FileSystemLoader(str(folder)))
