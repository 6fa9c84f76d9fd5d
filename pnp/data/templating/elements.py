"""Checking a custom design's elements at load, and rendering their templates for one card."""
from __future__ import annotations

import dataclasses
import math
from typing import Any

from pnp.data.format.catalog import has_symbol, unknown_symbol
from pnp.data.format.elements import APPLIES, CHOICES, NEEDS, Element, _NUMBERS, _TEXTS
from pnp.data.templating.engine import compile_expr, compile_text, is_template, render_template


def _a(kind: str) -> str:
    return f"{'an' if kind[0] in 'aeiou' else 'a'} {kind} element"


def check(elements: tuple[Element, ...], raw: list[Any], where: str,
          own: tuple[str, ...]) -> list[tuple[int, str, str]]:
    """Problems (line, field, message) with a design's elements that the type-level parse cannot see."""
    import jinja2  # lazy: the model imports this module, and a cached game needs no jinja2
    out: list[tuple[int, str, str]] = []
    for i, (el, item) in enumerate(zip(elements, raw)):
        at = f"{where}.elements[{i}]"
        given = set(item) if isinstance(item, dict) else set()
        for name in sorted(given - APPLIES[el.type]):
            out.append((el.line, f"{at}.{name}", f"{_a(el.type)} has no {name!r}; it takes "
                        f"{', '.join(sorted(APPLIES[el.type] - {'line'}))}"))
        for name in NEEDS.get(el.type, ()):
            if getattr(el, name) in (None, ""):
                out.append((el.line, f"{at}.{name}", f"{_a(el.type)} needs {name!r}"))
        for name, options in CHOICES.items():
            value = getattr(el, name)
            if not is_template(value) and value not in options:
                out.append((el.line, f"{at}.{name}", f"expected one of {', '.join(options)}, found {value!r}"))
        for name in _NUMBERS + _TEXTS + tuple(CHOICES):
            value = getattr(el, name)
            if isinstance(value, str) and is_template(value):
                try:
                    compile_text(value)
                except jinja2.TemplateSyntaxError as exc:
                    out.append((el.line, f"{at}.{name}", f"template syntax: {exc.message}"))
            elif isinstance(value, str) and name in _NUMBERS:
                out.append((el.line, f"{at}.{name}", f"expected a number (or a template), found {value!r}"))
        if el.when:
            try:
                compile_expr(el.when)
            except jinja2.TemplateSyntaxError as exc:
                out.append((el.line, f"{at}.when", f"expression syntax: {exc.message}"))
        if el.symbol and not is_template(el.symbol) and not has_symbol(el.symbol, own):
            out.append((el.line, f"{at}.symbol", unknown_symbol(el.symbol, own)))
        if el.type == "paragraph" and el.valign not in ("top", "middle") and not is_template(el.valign):
            out.append((el.line, f"{at}.valign", f"a paragraph sits at the top or the middle of its box, "
                        f"found {el.valign!r}"))
        if len(el.dash) not in (0, 2):
            out.append((el.line, f"{at}.dash", "give two lengths in mm: on, off"))
    return out


def render(el: Element, context: dict[str, Any]) -> Element | None:
    """The element with every template rendered and every number a float; None when `when` is false.

    Raises ValueError (naming the field) for a value that does not render to what it must be.
    """
    import jinja2  # lazy, as in check
    try:
        if el.when and not compile_expr(el.when)(**context):
            return None
    except Exception as exc:  # noqa: BLE001 - a broken condition is this element's problem
        raise ValueError(f"when: {type(exc).__name__}: {exc}") from None
    changes: dict[str, Any] = {}
    for name in _TEXTS + _NUMBERS + tuple(CHOICES):
        value = getattr(el, name)
        if isinstance(value, str) and is_template(value):
            try:
                value = render_template(compile_text(value), context)
            except jinja2.TemplateError as exc:
                raise ValueError(f"{name}: {exc.message or exc}") from None
            except Exception as exc:  # noqa: BLE001 - whatever the template did wrong is this field's problem
                raise ValueError(f"{name}: {type(exc).__name__}: {exc}") from None
        if name in _NUMBERS and value is not None:
            try:
                value = float(value)
            except (TypeError, ValueError):
                raise ValueError(f"{name}: expected a number, found {value!r}") from None
            if not math.isfinite(value):
                raise ValueError(f"{name}: expected a finite number, found {value!r}")
        if name in CHOICES and value not in CHOICES[name]:
            raise ValueError(f"{name}: expected one of {', '.join(CHOICES[name])}, found {value!r}")
        changes[name] = value
    return dataclasses.replace(el, **changes)
