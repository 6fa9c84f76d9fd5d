"""Checking a layout's elements at load, and rendering them for one card.

Rendering evaluates a layout's `let` names in order, then each element's
templates; a value that is one `{{ expression }}` keeps the expression's own
type (a colour object, a number, a list), so drawing sees exactly what the
expression computed. Lengths come out as millimetres.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from typing import Any

from pnp.data.format.catalog import has_symbol, unknown_symbol
from pnp.data.format.elements import (
    APPLIES,
    CHOICES,
    NEEDS,
    TEMPLATED,
    UNITS,
    YAML_NAME,
    Element,
)
from pnp.data.format.limits import MAX_ELEMENTS_DRAWN
from pnp.data.templating.engine import (
    compile_expr,
    compile_text,
    is_template,
    render_template,
)

_ONE_EXPR = re.compile(r"^\s*\{\{(?P<expr>(?:(?!\}\}|\{\{).)+)\}\}\s*$", re.S)
_LENGTH = re.compile(r"^\s*(-?(?:\d+\.?\d*|\.\d+)(?:e-?\d+)?)\s*(mm|cm|in|pt|%)?\s*$")
_MM = {"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": 25.4 / 72, None: 1.0}


def _a(kind: str) -> str:
    return f"{'an' if kind[0] in 'aeiou' else 'a'} {kind} element"


def _compile(value: str) -> None:
    """Compile a templated value the way `render` will (raises jinja2.TemplateSyntaxError)."""
    match = _ONE_EXPR.match(value)
    if match:
        compile_expr(match["expr"])
    else:
        compile_text(value)


def check(
    elements: tuple[Element, ...], raw: list[Any], where: str, own: tuple[str, ...], overrides: bool = False
) -> list[tuple[int, str, str]]:
    """Problems (line, field, message) with a layout's elements that the type-level parse cannot see
    (`overrides`: the layout extends another, so a named element may leave out its type)."""
    import jinja2  # lazy: a cached game needs no jinja2

    out: list[tuple[int, str, str]] = []
    for i, (el, item) in enumerate(zip(elements, raw)):
        at = f"{where}.elements[{i}]"
        if not el.type:  # an override: its lengths here, the rest once merged with what it changes
            out += _override_problems(el, at, overrides)
            continue
        given = {k for k in item} if isinstance(item, dict) else set()
        names = {YAML_NAME[n]: n for n in APPLIES[el.type]}
        for name in sorted(given - set(names) - {"type", "line"}):
            out.append(
                (
                    el.line,
                    f"{at}.{name}",
                    f"{_a(el.type)} has no {name!r}; it takes {', '.join(sorted(names))}",
                )
            )
        for name in NEEDS[el.type]:
            if getattr(el, name) in (None, "", ()):
                out.append((el.line, f"{at}.{YAML_NAME[name]}", f"{_a(el.type)} needs {YAML_NAME[name]!r}"))
        if el.type == "image" and not el.file and el.picture is None:
            out.append(
                (el.line, f"{at}.file", f"{_a(el.type)} needs 'file' (or 'picture': an art slot's value)")
            )
        if el.type == "path" and not el.commands and not el.d:
            out.append((el.line, f"{at}.d", f"{_a(el.type)} needs 'd' (SVG path data) or 'commands'"))
        if el.d and not is_template(el.d):
            from pnp.data.format.pathdata import PathDataError, path_data  # lazy: svglib only for d

            try:
                path_data(el.d)
            except PathDataError as exc:
                out.append((el.line, f"{at}.d", str(exc)))
        for name, options in CHOICES.items():
            value = getattr(el, name)
            if name != "frame" and not is_template(value) and value not in options:
                out.append(
                    (el.line, f"{at}.{name}", f"expected one of {', '.join(options)}, found {value!r}")
                )
        for name in TEMPLATED:
            for value in _strings(getattr(el, name)):
                if is_template(value):
                    try:
                        _compile(value)
                    except jinja2.TemplateSyntaxError as exc:
                        out.append((el.line, f"{at}.{name}", f"template syntax: {exc.message}"))
                elif name in UNITS and UNITS[name] != "number" and not _LENGTH.match(value):
                    out.append(
                        (
                            el.line,
                            f"{at}.{name}",
                            f"{_BAD_LENGTH}, found {value!r}",
                        )
                    )
                elif UNITS.get(name) == "number":
                    out.append(
                        (el.line, f"{at}.{name}", f"expected a number (or a template), found {value!r}")
                    )
        for name in ("when", "repeat"):
            if getattr(el, name):
                try:
                    compile_expr(getattr(el, name))
                except jinja2.TemplateSyntaxError as exc:
                    out.append((el.line, f"{at}.{name}", f"expression syntax: {exc.message}"))
        if el.symbol and not is_template(el.symbol) and not has_symbol(el.symbol, own):
            out.append((el.line, f"{at}.symbol", unknown_symbol(el.symbol, own)))
        if el.type == "paragraph" and el.valign not in ("top", "middle") and not is_template(el.valign):
            out.append(
                (
                    el.line,
                    f"{at}.valign",
                    f"a paragraph sits at the top or the middle of its box, found {el.valign!r}",
                )
            )
        if not isinstance(el.dash, str) and len(el.dash) not in (0, 2):
            out.append((el.line, f"{at}.dash", "give two lengths: on, off"))
        if el.type == "group":
            sub = item.get("elements") if isinstance(item, dict) else None
            out += check(el.elements, sub if isinstance(sub, list) else [], at, own)
    return out


def _override_problems(el: Element, at: str, overrides: bool) -> list[tuple[int, str, str]]:
    """An element without a type: only an override of a named element, its lengths well formed."""
    out = [] if overrides and el.name else [(el.line, f"{at}.type", _NO_TYPE)]
    for name in el.given:
        value = getattr(el, name)
        if (
            UNITS.get(name) in ("x", "y", "length")
            and isinstance(value, str)
            and not is_template(value)
            and not _LENGTH.match(value)
        ):
            out.append((el.line, f"{at}.{name}", f"{_BAD_LENGTH}, found {value!r}"))
    return out


_BAD_LENGTH = "expected a length (a number of mm, or with a unit: mm, cm, in, pt, %) or a template"
_NO_TYPE = (
    "an element needs 'type' (rect, text, image, ...); only an element that overrides a named element "
    "of the layout it `extends` leaves it out"
)


def _strings(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v)


def evaluate(value: Any, context: dict[str, Any]) -> Any:
    """A templated value for one card: one `{{ expression }}` keeps its type, other templates give text."""
    if isinstance(value, str) and is_template(value):
        match = _ONE_EXPR.match(value)
        if match:
            return compile_expr(match["expr"])(**context)
        return render_template(compile_text(value), context)
    if isinstance(value, (list, tuple)):
        return [evaluate(v, context) for v in value]
    return value


def length(value: Any, side: float) -> float:
    """A length in mm from a number (mm) or text with a unit; `side` is what 100 % is."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        number = float(value)
    else:
        match = _LENGTH.match(str(value))
        if not match:
            raise ValueError(f"expected a length (mm, cm, in, pt or %), found {value!r}")
        number = float(match[1]) * (side / 100 if match[2] == "%" else _MM[match[2]])
    if not math.isfinite(number):
        raise ValueError(f"expected a finite number, found {value!r}")
    return number


def frame_size(frame: str, card: dict[str, float]) -> tuple[float, float]:
    """The width and height in mm of an element's frame on this card."""
    inset = {"trim": 0.0, "safe": card["safe"], "bleed": -card["bleed"]}.get(frame, 0.0)
    return card["w"] - 2 * inset, card["h"] - 2 * inset


def let(names: Iterable[tuple[str, str]], context: dict[str, Any]) -> dict[str, Any]:
    """The layout's `let` names for one card, each seeing the ones before it (raises ValueError naming one)."""
    out = dict(context)
    for name, expr in names:
        try:
            out[name] = evaluate(expr if is_template(expr) else "{{ " + expr + " }}", out)
        except Exception as exc:  # noqa: BLE001 - a broken expression is this name's problem
            raise ValueError(f"let.{name}: {_why(exc, expr, out)}") from None
    return out


def _why(exc: Exception, source: Any = None, context: dict[str, Any] | None = None) -> str:
    """What went wrong, in words; a missing name or field with a did-you-mean from the context."""
    import jinja2  # lazy, as in check

    if isinstance(exc, jinja2.TemplateError):
        # lazy: hints only for a template that failed
        from pnp.data.templating.hints import explain

        return explain(str(exc.message or exc), source, context or {})
    return f"{type(exc).__name__}: {exc}"


def render(el: Element, context: dict[str, Any], budget: list[int] | None = None) -> Element | None:
    """The element with every template rendered, lengths in mm and numbers as floats; None when `when`
    is false. A group comes back with its children rendered for every item of `repeat`.

    Raises ValueError (naming the field) for a value that does not render to what it must be.
    """
    budget = [MAX_ELEMENTS_DRAWN] if budget is None else budget
    try:
        if el.when and not compile_expr(el.when)(**context):
            return None
    except Exception as exc:  # noqa: BLE001 - a broken condition is this element's problem
        raise ValueError(f"when: {_why(exc, el.when, context)}") from None
    budget[0] -= 1
    if budget[0] < 0:
        raise ValueError(f"more than {MAX_ELEMENTS_DRAWN} elements on one card (a repeat too long?)")
    changes: dict[str, Any] = {}
    _, templated, units = _plan(el)  # worked out once per element
    for name in templated:
        try:
            changes[name] = evaluate(getattr(el, name), context)
        except Exception as exc:  # noqa: BLE001 - whatever the template did wrong is this field's problem
            raise ValueError(f"{YAML_NAME[name]}: {_why(exc, getattr(el, name), context)}") from None
        if _holds_mapping(changes[name]):
            raise ValueError(
                f"{YAML_NAME[name]}: {getattr(el, name)!r} gives a mapping; it takes text, a number or a list"
            )
    frame = changes.get("frame", el.frame)
    named = None if frame in _FRAMES else (context.get(FRAMES_SEEN) or {}).get(frame)
    if frame not in _FRAMES and named is None:
        known = ", ".join([*_FRAMES, *(context.get(FRAMES_SEEN) or {})])
        raise ValueError(f"frame: no frame {frame!r}; frames: {known}")
    card = context.get("trim") or _NO_TRIM
    _units(el, changes, frame_size(frame, card) if named is None else (named[3], named[4]), units)
    if named is not None:
        _into(el, changes, named)
    if el.type == "group":
        changes["elements"] = tuple(_children(el, context, budget))
    done = fresh(el)  # a frozen dataclass: the rendered values go straight into the copy
    done.__dict__.update(changes)
    return done


def _into(el: Element, values: dict[str, Any], named: tuple[str, float, float, float, float]) -> None:
    """An element measured from a named frame, measured instead from the frame that one is in."""
    base, fx, fy, fw, fh = named
    if el.type == "path" or values.get("commands", el.commands) or values.get("d", el.d):
        raise ValueError("frame: a path is measured from trim, safe or bleed, not a named frame")
    x, y = values.get("x", el.x), values.get("y", el.y)
    if el.type != "line":
        if values.get("w", el.w) is None:
            values["w"] = fw - x
        if values.get("h", el.h) is None:
            values["h"] = fh - y
    else:
        values["x2"] = (values.get("x2", el.x2) or 0.0) + fx
        values["y2"] = (values.get("y2", el.y2) or 0.0) + fy
    values["x"], values["y"], values["frame"] = x + fx, y + fy, base


def frames(
    declared: Iterable[tuple[str, Any]], card: dict[str, float], context: dict[str, Any]
) -> dict[str, Any]:
    """A layout's named frames for one card: name -> (trim, safe or bleed, x, y, w, h) in mm of that
    frame (raises ValueError naming the frame and field)."""
    out: dict[str, Any] = {}
    for name, spec in declared:
        if spec.frame in out:  # placed in a frame declared before it
            base, bx, by, bw, bh = out[spec.frame]
        elif spec.frame in _FRAMES:
            (base, bx, by), (bw, bh) = (spec.frame, 0.0, 0.0), frame_size(spec.frame, card)
        else:
            known = ", ".join([*_FRAMES, *out])
            raise ValueError(f"frames.{name}.frame: no frame {spec.frame!r} before it; frames: {known}")
        try:
            inset = 0.0 if spec.inset is None else length(evaluate(spec.inset, context), bw)
            x = inset if spec.x is None else length(evaluate(spec.x, context), bw)
            y = inset if spec.y is None else length(evaluate(spec.y, context), bh)
            right = inset if spec.right is None else length(evaluate(spec.right, context), bw)
            bottom = inset if spec.bottom is None else length(evaluate(spec.bottom, context), bh)
            w = bw - x - right if spec.w is None else length(evaluate(spec.w, context), bw)
            h = bh - y - bottom if spec.h is None else length(evaluate(spec.h, context), bh)
        except Exception as exc:  # noqa: BLE001 - a bad length or template is this frame's problem
            raise ValueError(f"frames.{name}: {_why(exc)}") from None
        out[name] = (base, bx + x, by + y, w, h)
    return out


def _holds_mapping(value: Any) -> bool:
    """Whether a rendered field is (or holds) a mapping, which no element field takes."""
    if isinstance(value, (list, tuple)):
        return any(_holds_mapping(v) for v in value)
    return isinstance(value, dict)


def fresh(el: Element) -> Element:
    """A copy of `el` (what copy.copy does for a dataclass, without its generic machinery)."""
    done = object.__new__(Element)
    done.__dict__.update(el.__dict__)
    return done


_FRAMES = ("trim", "safe", "bleed")
FRAMES_SEEN = "_frames"  # the context key of a layout's named frames for one card
_NO_TRIM = {"w": 0.0, "h": 0.0, "safe": 0.0, "bleed": 0.0}
_PLANS: dict[int, tuple[Element, tuple[str, ...], tuple[tuple[str, str], ...]]] = {}


def _plan(el: Element) -> tuple[Element, tuple[str, ...], tuple[tuple[str, str], ...]]:
    """The fields of `el` that hold a template, and the length and number fields that may need
    converting: templated, or given as something other than a float (worked out once per element)."""
    plan = _PLANS.get(id(el))
    if plan is None or plan[0] is not el:
        names = tuple(n for n in TEMPLATED if any(is_template(v) for v in _strings(getattr(el, n))))
        units = tuple(
            (n, unit)
            for n, unit in UNITS.items()
            if n in names or not (getattr(el, n) in (None, (), []) or type(getattr(el, n)) is float)
        )
        plan = _PLANS[id(el)] = (el, names, units)
    return plan


def _units(
    el: Element, values: dict[str, Any], frame: tuple[float, float], units: tuple[tuple[str, str], ...]
) -> None:
    """Lengths to mm and numbers to floats (into `values`, over the element's own), for the fields
    `units` names (`_plan`); choices checked."""
    fw, fh = frame
    for name, unit in units:
        value = values[name] if name in values else getattr(el, name)
        if value is None or value == () or value == []:
            continue
        side = fh if unit == "y" else fw
        try:
            if name == "dash":
                values[name] = tuple(length(v, fw) for v in value)
                if len(values[name]) not in (0, 2):
                    raise ValueError("give two lengths: on, off")
            elif unit == "number":
                values[name] = finite(value)
            else:
                values[name] = length(value, side)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{YAML_NAME[name]}: {exc}") from None
    commands = values.get("commands", el.commands)
    if commands and not isinstance(commands, str):
        values["commands"] = _commands(commands, fw, fh)
    elif isinstance(commands, str) and commands:
        raise ValueError(f"commands: expected a list of path commands, found {commands!r}")
    if values.get("size") is not None:
        values["size"] = finite(values["size"], "size")
    for name in CHOICES.keys() & values.keys() - {"frame"}:
        if values[name] not in CHOICES[name]:
            raise ValueError(
                f"{YAML_NAME[name]}: expected one of {', '.join(CHOICES[name])}, found {values[name]!r}"
            )


def finite(value: Any, name: str = "") -> float:
    """`value` as a finite float; ValueError (naming the field `name`) for anything else."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name + ': ' if name else ''}expected a number, found {value!r}") from None
    if not math.isfinite(number):
        raise ValueError(f"{name + ': ' if name else ''}expected a finite number, found {value!r}")
    return number


_ARITY = {"move": 2, "line": 2, "curve": 6, "arc": 6, "close": 0}


def _commands(commands: Any, fw: float, fh: float) -> tuple[tuple[Any, ...], ...]:
    """Path commands with their lengths in mm: x-like and y-like in turn, an arc's last two in degrees."""
    out = []
    for i, command in enumerate(commands):
        if not isinstance(command, (list, tuple)) or not command or command[0] not in _ARITY:
            raise ValueError(
                f"commands[{i}]: expected [move|line|curve|arc|close, numbers...], found {command!r}"
            )
        op, args = command[0], list(command[1:])
        if len(args) != _ARITY[op]:
            raise ValueError(f"commands[{i}]: {op} takes {_ARITY[op]} numbers, found {len(args)}")
        lengths = args[:4] if op == "arc" else args
        done = [length(v, fh if k % 2 else fw) for k, v in enumerate(lengths)]
        done += [finite(v) for v in args[len(lengths) :]]
        out.append((op, *done))
    return tuple(out)


def _children(el: Element, context: dict[str, Any], budget: list[int]) -> Iterable[Element]:
    items: Iterable[Any] = [None]
    if el.repeat:
        try:
            items = compile_expr(el.repeat)(**context)
            items = list(items)
        except Exception as exc:  # noqa: BLE001 - a broken repeat is this group's problem
            raise ValueError(f"repeat: {_why(exc, el.repeat, context)}") from None
    for index, item in enumerate(items):
        inner = context if not el.repeat else {**context, el.as_: item, "index": index}
        for i, child in enumerate(el.elements):
            try:
                done = render(child, inner, budget)
            except ValueError as exc:
                raise ValueError(f"elements[{i}].{exc}") from None
            if done is not None:
                yield done


def files_named(elements: Iterable[Element], context: dict[str, Any]) -> list[str]:
    """The files a layout's image elements name for one card (what a picture of it reads); a value
    that does not render here is left out (drawing reports it)."""
    out: list[str] = []
    for el in elements:
        if el.type == "group":
            out += files_named(el.elements, context)
        elif el.type == "image" and el.file:
            try:
                out.append(str(evaluate(el.file, context)))
            except Exception:  # noqa: BLE001, S112 - reported when the card is drawn
                continue
    return out
