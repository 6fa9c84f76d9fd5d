"""Cards from a spreadsheet: `cards: {from: cards.csv}` (or .xlsx) in a component.

One row per card type under a header row; columns are `key`, `name`, `copies`,
`text`, `face`, `back` and the component's declared fields. Cells are converted
to each field's type and checked here, so every problem names the spreadsheet,
the line (a CSV's line as a text editor counts it; an XLSX's row) and the column
letter. A CSV's separator (comma, semicolon or tab) is read from its header line;
a header close to a column's name is a misspelling (an error), any other unknown
one is ignored with a warning; without a `key` column keys are made from names.
The rows then stand in for the YAML card list, and loading goes on as usual.

Reading the file itself (separators, bounds, the formula-quoting convention) is
`pnp.data.reading.tables`.
"""

from __future__ import annotations

import difflib
import math
import re
import unicodedata
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pnp.data.format.errors import Problem
from pnp.data.format.limits import MAX_COPIES
from pnp.data.format.located import Located, LocatedList, line_of
from pnp.data.reading.remote import FOLDER, is_url, local_name
from pnp.data.reading.tables import Table, read_table

RESERVED = ("key", "name", "copies", "text", "face", "back")
_TRUE, _FALSE = {"true", "yes", "y", "1", "x"}, {"false", "no", "n", "0", ""}


def expand(
    data: Any,
    file: str,
    folder: Path,
    root: Path,
    used: list[Path] | None = None,
    overlay: Mapping[Path, bytes] | None = None,
    notes: list[str] | None = None,
) -> list[Problem]:
    """Replace every `cards: {from: FILE}` in raw database `data` by the rows of FILE; return problems.

    The files read are appended to `used` (a game's outputs and cache entry depend on them);
    `overlay` gives some files' bytes (by resolved path) as an edit would leave them; warnings
    (columns ignored, a separator guessed) are appended to `notes`.
    """
    problems: list[Problem] = []
    comps = data.get("components") if isinstance(data, dict) else None
    for ci, comp in enumerate(comps if isinstance(comps, list) else []):
        if not (isinstance(comp, dict) and isinstance(comp.get("cards"), dict) and "from" in comp["cards"]):
            continue
        spec = comp["cards"]
        line = line_of(comp, "cards")
        where = f"components[{ci}].cards.from"
        path, label, problem = _locate(spec, folder, root, file, line, where)
        if problem:
            problems.append(problem)
            comp["cards"] = LocatedList()
            continue
        fields = comp.get("fields")
        fields = fields if isinstance(fields, dict) else {}
        if used is not None:
            used.append(path)
        try:
            table = read_table(path, spec.get("sheet"), (overlay or {}).get(path))
        except (OSError, ValueError, KeyError) as exc:  # unreadable file or sheet; openpyxl raises these
            problems.append(Problem(file, line, where, f"cannot read {label}: {exc}"))
            comp["cards"] = LocatedList()
            continue
        cards, found, warned = _cards(table, fields, label, line or 0)
        problems += found
        if notes is not None:
            notes += [f"{label}:1: {note}" for note in table.notes] + warned
        comp["cards"] = cards
    return problems


def _locate(
    spec: dict, folder: Path, root: Path, file: str, line: int | None, where: str
) -> tuple[Path, str, Problem | None]:
    """The spreadsheet's path (beside the database, inside the project) and how messages name it."""
    name = spec.get("from")
    unknown = set(spec) - {"from", "sheet"}
    if unknown:
        return (
            Path(),
            "",
            Problem(
                file,
                line,
                where,
                f"unknown key(s) {', '.join(map(str, unknown))}; "
                "a spreadsheet source takes `from` and, for .xlsx, `sheet`",
            ),
        )
    if is_url(name):  # a shared sheet: its copy that `pnp fetch` made (a build never downloads)
        try:
            path = (folder / FOLDER / local_name(name)).resolve()
        except (OSError, RuntimeError) as exc:  # a link loop
            return Path(), "", Problem(file, line, where, f"cannot use the copy of {name}: {exc}")
        if not path.is_relative_to(root.resolve()):  # a link planted at the copy, or at fetched/
            return (
                path,
                "",
                Problem(file, line, where, f"the copy of {name} is a link to a file outside the project"),
            )
        label = str(path.relative_to(root.resolve()))
        if not path.is_file():
            return (
                path,
                label,
                Problem(
                    file,
                    line,
                    where,
                    f"the cards come from {name}; run `pnp fetch` to download "
                    f"them into {label} (a build never uses the network)",
                ),
            )
        return path, label, None
    if not isinstance(name, str) or not name.lower().endswith((".csv", ".xlsx")):
        return (
            Path(),
            "",
            Problem(
                file,
                line,
                where,
                f"expected a .csv or .xlsx file name, or the https:// address "
                f"of a shared sheet, found {name!r}",
            ),
        )
    try:
        path = (folder / name).resolve()
        if not path.is_relative_to(root.resolve()):
            return path, "", Problem(file, line, where, f"{name!r} is outside the project folder")
        label = str(path.relative_to(root.resolve()))
        if not path.is_file():
            return path, label, Problem(file, line, where, f"no file {label}")
    except (OSError, ValueError, RuntimeError) as exc:  # a name the file system cannot take, a symlink loop
        return Path(), "", Problem(file, line, where, f"cannot use {name!r}: {exc}")
    return path, label, None


def _column(i: int) -> str:
    """Spreadsheet column letter: 0 -> A, 26 -> AA."""
    out = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        out = chr(65 + r) + out
    return out


CLOSE = 0.7  # how alike (difflib's ratio) a header and a column name must be to count as a misspelling


def _cards(
    table: Table, fields: dict, label: str, yaml_line: int
) -> tuple[LocatedList, list[Problem], list[str]]:
    """The rows as located cards; the problems (at the file's line and column) and the warnings.

    A header that is none of the columns is a misspelling when it is close to one (an error that
    names it), else a column of the designer's own (notes, ...): ignored, with one warning.
    Without a `key` column each card's key is made from its name (`key_from`).
    """
    rows, lines = table.rows, table.lines
    problems: list[Problem] = []
    warned: list[str] = []
    out = LocatedList()
    out.line, out.item_lines = yaml_line, []
    if not rows:
        return out, [Problem(label, 1, "", "the spreadsheet is empty; row 1 names the columns")], warned
    columns = _columns(rows[0], fields, label, lines[0], problems, warned)
    if "name" not in columns.values():
        problems.append(Problem(label, lines[0], "", "no 'name' column; every card needs its name"))
    derive = "key" not in columns.values()
    absent = [name for name, spec in fields.items() if _required(spec) and name not in columns.values()]
    for name in absent:  # one error for the column, not one per card
        problems.append(
            Problem(
                label,
                lines[0],
                "",
                f"no {name!r} column; every card needs its {name}: add a column "
                f"headed {name} (or give the field a default)",
            )
        )
    stop = bool(absent) or "name" not in columns.values()  # the column's one error, not one per card
    seen: dict[str, int] = {}
    for r, row in enumerate(rows[1:], start=2):
        if all(c is None or str(c).strip() == "" for c in row):
            continue
        start = lines[r - 1]
        card = Located()
        card.line, card.key_lines = yaml_line, {}
        card.source = (label, start, {name: f"column {_column(i)} ({name})" for i, name in columns.items()})
        before = len(problems)
        for i, name in columns.items():
            cell = row[i] if i < len(row) else None
            where = f"column {_column(i)} ({name})"
            try:
                value = _convert(cell, name, fields)
            except ValueError as exc:
                problems.append(Problem(label, start, where, str(exc)))
                continue
            if value is not None or "@" in name:  # an empty translation is kept: pnp check names it
                card[name] = value
                card.key_lines[name] = yaml_line
            elif name in ("key", "name") or _required(fields.get(name)):
                problems.append(Problem(label, start, where, f"empty cell; every card needs its {name}"))
        if derive:
            card["key"] = key_from(card.get("name"), r, seen)
            card.key_lines["key"] = yaml_line
        key = card.get("key")
        if key is not None:
            if key in seen:
                problems.append(
                    Problem(
                        label, start, "column key", f"duplicate key {key!r} (first at {label}:{seen[key]})"
                    )
                )
            seen.setdefault(key, start)
        if len(problems) == before and not stop:  # a row with a problem is reported here only
            out.append(card)
            out.item_lines.append(yaml_line)
    return out, problems, warned


MAX_DERIVED_KEY = 40  # characters of a key made from a name


def key_from(name: Any, row: int, taken: Mapping[str, int]) -> str:
    """A card's key when the sheet has no `key` column: its name as a slug (lower-case ASCII letters,
    digits and `-`: "Young Ember Sprite" -> young-ember-sprite), else its row number, made unique
    in the sheet with -2, -3, ..."""
    text = unicodedata.normalize("NFKD", str(name or "")).encode("ascii", "ignore").decode().lower()
    slug = re.sub(r"[^a-z0-9]+", "-", text).strip("-")[:MAX_DERIVED_KEY].strip("-") or str(row)
    key, n = slug, 1
    while key in taken:
        n += 1
        key = f"{slug}-{n}"
    return key


def _columns(
    first: list[Any], fields: dict, label: str, line: int, problems: list[Problem], warned: list[str]
) -> dict[int, str]:
    """The header's columns that are read (by index); a misspelt header, a repeated one are problems,
    one of the designer's own is a warning."""
    header = [str(h).strip() if h is not None else "" for h in first]
    columns: dict[int, str] = {}
    known = [*RESERVED, *map(str, fields)]
    for i, name in enumerate(header):
        where = f"column {_column(i)}"
        if not name:
            continue
        base, at, _ = name.partition("@")  # name@de: the name in German (a game in several languages)
        translated = bool(at) and (base in ("name", "text") or base in fields)
        if name not in RESERVED and name not in fields and not translated:
            close = difflib.get_close_matches(name, known, n=1, cutoff=CLOSE)
            if close:
                problems.append(
                    Problem(label, line, where, f"unknown column {name!r} (did you mean {close[0]!r}?)")
                )
            else:
                warned.append(
                    f"{label}:{line}: {where}: column {name!r} is not a field of the component; "
                    f"ignored (columns read are {', '.join(RESERVED)} and the declared fields "
                    f"{', '.join(map(str, fields)) or '(none)'})"
                )
        elif name in columns.values():
            problems.append(Problem(label, line, where, f"column {name!r} appears twice"))
        else:
            columns[i] = name
    return columns


def _required(spec: Any) -> bool:
    return isinstance(spec, dict) and spec.get("required", True) is not False and spec.get("default") is None


def _convert(cell: Any, name: str, fields: dict) -> Any:
    """A cell as the value its column holds; None for an empty cell."""
    if cell is None or (isinstance(cell, str) and not cell.strip()):
        return None
    spec = fields.get(name) if name not in RESERVED else None
    kind = "int" if name == "copies" else (spec.get("type", "str") if isinstance(spec, dict) else "str")
    text = cell.strip() if isinstance(cell, str) else cell
    value: Any
    if kind == "int":
        value = _number(text, int)
        if name == "copies" and not 0 <= value <= MAX_COPIES:
            raise ValueError(f"copies must be 0 or more and at most {MAX_COPIES}, found {value}")
    elif kind == "float":
        value = _number(text, float)
    elif kind == "bool":
        if isinstance(text, bool):
            value = text
        elif str(text).lower() in _TRUE | _FALSE:
            value = str(text).lower() in _TRUE
        else:
            raise ValueError(f"expected true or false, found {text!r}")
    elif kind == "list":
        value = [_plain(v.strip()) for v in str(text).split(";") if v.strip()]
    else:
        value = _plain(text) if not isinstance(text, str) else text
        value = str(value)
    choices = spec.get("choices") if isinstance(spec, dict) else None
    if isinstance(choices, list):
        for item in value if kind == "list" else [value]:
            if item not in choices:
                raise ValueError(f"{item!r} is not allowed; choices: {', '.join(map(str, choices))}")
    return value


def _number(text: Any, kind: type) -> Any:
    if isinstance(text, bool):
        raise ValueError(f"expected a number, found {text!r}")
    try:
        value = float(text) if not isinstance(text, (int, float)) else text
    except ValueError:
        raise ValueError(
            f"expected {'a whole number' if kind is int else 'a number'}, found {text!r}"
        ) from None
    if not math.isfinite(float(value)):
        raise ValueError(f"expected a finite number, found {text!r}")
    if kind is int:
        if float(value) != int(float(value)):
            raise ValueError(f"expected a whole number, found {text!r}")
        return int(float(value))
    return float(value)


def _plain(value: Any) -> Any:
    """A spreadsheet number as YAML would read it (3.0 from a sheet is the whole number 3)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str):
        try:
            return int(value)
        except ValueError:
            return value
    return value
