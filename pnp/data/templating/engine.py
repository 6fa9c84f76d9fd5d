"""Sandboxed jinja2 for text in databases (slots, rule expressions) and booklet templates.

jinja2 and the limited sandbox (`sandbox`) are imported on first use, not with
this module: `is_template` is needed everywhere, jinja2 only when something is
compiled (start-up speed; a game loaded from the disk cache draws without it).
Output over `MAX_TEMPLATE_OUTPUT` characters is refused while rendering.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pnp.data.format.colours import FILTERS
from pnp.data.format.limits import CONTROL_CHARS, MAX_TEMPLATE_OUTPUT

if TYPE_CHECKING:
    import jinja2
    from jinja2.sandbox import ImmutableSandboxedEnvironment


def pairs(rows: Any, label: str, *parts: str, sep: str = ". ") -> list[list[str]]:
    """Table rows from a list of mappings: [row[label], the `parts` present joined by `sep`].

    Lets a reference card print a table that lives in the game's facts:
    `facts.nasty_hits.rows[0:5] | pairs('label', 'name', 'text')`.
    """
    return [[str(r[label]), sep.join(str(r[p]) for p in parts if r.get(p) not in (None, ""))] for r in rows]


_WORDS = (
    "no",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
)


_NUMBER_WORDS = {
    "de": (
        "null",
        "eins",
        "zwei",
        "drei",
        "vier",
        "fünf",
        "sechs",
        "sieben",
        "acht",
        "neun",
        "zehn",
        "elf",
        "zwölf",
    )
}


def spell(n: Any, lang: str = "en") -> str:
    """A small whole number in words (`{{ facts.market | spell }}` -> five; `spell('de')` -> fünf); others
    as digits."""
    words = _NUMBER_WORDS.get(lang, _WORDS)
    return words[n] if isinstance(n, int) and not isinstance(n, bool) and 0 <= n < len(words) else str(n)


_ROMAN = (
    (1000, "M"),
    (900, "CM"),
    (500, "D"),
    (400, "CD"),
    (100, "C"),
    (90, "XC"),
    (50, "L"),
    (40, "XL"),
    (10, "X"),
    (9, "IX"),
    (5, "V"),
    (4, "IV"),
    (1, "I"),
)


def roman(number: int) -> str:
    """Roman numeral for 1..3999; 0 is written as 0 (The Fool's number)."""
    if number <= 0:
        return "0"
    out = []
    for value, letters in _ROMAN:
        while number >= value:
            out.append(letters)
            number -= value
    return "".join(out)


def numeral(value: Any) -> str:
    """The printed number: roman when the value is an integer, the text as given otherwise."""
    text = str(value if value is not None else "").strip()
    if text in ("", "None"):
        return ""
    return roman(int(text)) if text.lstrip("-").isdigit() else text


_FILTERS: dict[str, Callable[..., Any]] = {
    **FILTERS,
    "pairs": pairs,
    "spell": spell,
    "roman": roman,
    "numeral": numeral,
}


@lru_cache(maxsize=1)
def _inline() -> ImmutableSandboxedEnvironment:
    """The one environment for inline templates (created on first use)."""
    from pnp.data.templating import sandbox  # lazy: see the module docstring

    return sandbox.environment(_FILTERS)


def is_template(text: Any) -> bool:
    """Whether a database string needs rendering at all."""
    return isinstance(text, str) and ("{{" in text or "{%" in text)


@lru_cache(maxsize=4096)
def compile_text(text: str) -> jinja2.Template:
    """Compile an inline template once (raises jinja2.TemplateSyntaxError)."""
    from pnp.data.templating import sandbox  # lazy: see the module docstring

    env = _inline()
    sandbox.refuse_private(env.parse(text))
    return env.from_string(text)


@lru_cache(maxsize=1024)
def compile_expr(expr: str) -> Callable[..., Any]:
    """Compile a rule expression once (raises jinja2.TemplateSyntaxError); it runs within the time limit.

    A value that is (or holds) an undefined name raises its UndefinedError here,
    where the expression is evaluated, not later where the value is used.
    """
    from pnp.data.templating import sandbox  # lazy: see the module docstring

    env = _inline()
    fn = env.compile_expression(expr, undefined_to_none=False)
    sandbox.refuse_private(env.parse(f"{{{{ ({expr}) }}}}"))

    def limited(**context: Any) -> Any:
        return _defined(sandbox.limited(fn, **context))

    path = expr.strip().split(".")
    if not all(_NAME.fullmatch(step) for step in path) or path[0] in _LITERALS:
        return limited

    def looked_up(**context: Any) -> Any:
        """A plain name or dotted path (`deep`, `style.paper`, `card.value`): read directly, as the
        sandbox would, without a jinja2 context; anything else (a method, a missing name) goes the
        jinja2 way, which also words its errors."""
        value = context.get(path[0], _MISSING)
        for step in path[1:]:
            if value is _MISSING:
                break
            value = _step(value, step)
        return limited(**context) if value is _MISSING else value

    return looked_up


_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")  # no leading underscore: the sandbox refuses those anyway
_LITERALS = frozenset({"true", "false", "none", "True", "False", "None", "not", "loop", "self", "caller"})
_MISSING = object()


def _step(value: Any, name: str) -> Any:
    """`value.name` as jinja2's sandbox reads it (an attribute first, then an item), or _MISSING where
    only jinja2 can say: a method or other callable (the sandbox decides if it is safe), or nothing."""
    try:
        found = getattr(value, name)
    except AttributeError:
        try:
            return value[name]
        except (TypeError, LookupError):
            return _MISSING
    except Exception:  # noqa: BLE001 - a property that fails: jinja2 says how
        return _MISSING
    return _MISSING if callable(found) else found


def _defined(value: Any, depth: int = 0) -> Any:
    """`value`, after making sure no jinja2 Undefined hides in it (its error is raised instead)."""
    import jinja2  # lazy: see the module docstring

    if isinstance(value, jinja2.Undefined):
        str(value)  # StrictUndefined: raises UndefinedError naming what was missing
        raise jinja2.UndefinedError("an undefined value")
    if depth < 4 and isinstance(value, (list, tuple)):
        for item in value:
            _defined(item, depth + 1)
    elif depth < 4 and isinstance(value, dict):
        for item in value.values():
            _defined(item, depth + 1)
    return value


def render_template(template: jinja2.Template, context: dict[str, Any]) -> str:
    """Render within the time and output limits.

    A template that ran past its time or memory budget is not run again for a minute (for any
    card): a runaway loop costs its limit once, not once per card, and the page or `pnp check`
    says so at once. A changed template is a new one and runs.
    """
    from pnp.data.templating import sandbox  # lazy: see the module docstring

    overran = sandbox.overran(template)
    if overran:
        raise sandbox.TemplateLimit(f"{overran} (stopped once; not run again until the template changes)")
    parts: list[str] = []
    size = 0
    try:
        with sandbox.time_limit():
            for chunk in template.generate(context):
                size += len(chunk)
                if size > MAX_TEMPLATE_OUTPUT:
                    raise sandbox.TemplateLimit(f"template output goes over {MAX_TEMPLATE_OUTPUT} characters")
                parts.append(chunk)
    except sandbox.TemplateOverrun as exc:
        sandbox.remember_overrun(template, str(exc))
        raise
    return "".join(parts)


def render_value(value: Any, context: dict[str, Any]) -> Any:
    """Render strings (and strings inside lists/mappings) as templates; pass others through.

    A mapping with the single key `expr` is a jinja2 expression whose value (a
    list, a number...) is used as it is, for slots that need structured data.
    Any failure comes out as a jinja2.TemplateError with a readable message.
    """
    import jinja2  # lazy: see the module docstring

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
    """Sandboxed environment that loads templates only from `folder`: a template (or what it
    includes, imports or extends) that resolves outside it, through `..` or a symlink, is not found."""
    # lazy: the sandbox (its limits and watchdog) only when a template file is rendered
    from pnp.data.templating import sandbox

    return sandbox.environment(_FILTERS, confined_loader(folder))


def confined_loader(folder: Path) -> jinja2.BaseLoader:
    """A jinja2 loader for the files inside `folder` after resolving symlinks (text files only)."""
    import jinja2  # lazy: see the module docstring

    from pnp.data.store.files import OUTSIDE, project_folder

    home = project_folder(folder)

    class Confined(jinja2.BaseLoader):
        def get_source(self, environment: Any, template: str) -> tuple[str, str, Callable[[], bool]]:
            if home is None:
                raise jinja2.TemplateNotFound(f"{template} ({folder.name}/ {OUTSIDE})")
            try:
                path = (home / template).resolve()
            except (OSError, RuntimeError):  # a symlink loop
                raise jinja2.TemplateNotFound(template) from None
            if not path.is_relative_to(home) or not path.is_file():
                raise jinja2.TemplateNotFound(
                    f"{template} (templates are read only from inside {home.name}/)"
                )
            data = path.read_bytes()
            if len(data) > MAX_TEMPLATE_OUTPUT:
                raise jinja2.TemplateNotFound(f"{template} (larger than {MAX_TEMPLATE_OUTPUT} bytes)")
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                raise jinja2.TemplateNotFound(f"{template} (not UTF-8 text)") from None
            bad = CONTROL_CHARS.search(text)
            if bad:
                raise jinja2.TemplateSyntaxError(
                    f"control character U+{ord(bad.group()):04X} (delete it; tabs and line breaks are fine)",
                    text[: bad.start()].count("\n") + 1,
                    template,
                    str(path),
                )
            mtime = path.stat().st_mtime_ns
            return text, str(path), lambda: path.is_file() and path.stat().st_mtime_ns == mtime

    return Confined()
