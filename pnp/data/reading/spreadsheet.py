"""Cards from a spreadsheet: `cards: {from: cards.csv}` (or .xlsx) in a component.

One row per card type under a header row; columns are `key`, `name`, `copies`,
`text`, `face`, `back` and the component's declared fields. Cells are converted
to each field's type and checked here, so every problem names the spreadsheet,
the row and the column (as a spreadsheet shows them: row 1 is the header).
The rows then stand in for the YAML card list, and loading goes on as usual.

A CSV cell pnp writes never starts a formula: text that begins with `=`, `+`, `-`, `@`, a tab
or a carriage return (after any leading `'`) is written with one `'` in front, as OWASP advises
against CSV injection, and reading takes exactly that one `'` off again (`text_cell`,
`cell_from_text`), so what the editor saves reads back the same.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from pnp.data.format.errors import Problem
from pnp.data.format.limits import MAX_COPIES, MAX_DECK_CARDS, MAX_TEXT
from pnp.data.format.located import Located, LocatedList, line_of
from pnp.data.reading.remote import FOLDER, is_url, local_name

RESERVED = ("key", "name", "copies", "text", "face", "back")
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")  # what a spreadsheet may take as the start of a formula
_TRUE, _FALSE = {"true", "yes", "y", "1", "x"}, {"false", "no", "n", "0", ""}


def expand(
    data: Any,
    file: str,
    folder: Path,
    root: Path,
    used: list[Path] | None = None,
    overlay: Mapping[Path, bytes] | None = None,
) -> list[Problem]:
    """Replace every `cards: {from: FILE}` in raw database `data` by the rows of FILE; return problems.

    The files read are appended to `used` (a game's outputs and cache entry depend on them);
    `overlay` gives some files' bytes (by resolved path) as an edit would leave them.
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
            rows = read_rows(path, spec.get("sheet"), (overlay or {}).get(path))
        except (OSError, ValueError, KeyError) as exc:  # unreadable file or sheet; openpyxl raises these
            problems.append(Problem(file, line, where, f"cannot read {label}: {exc}"))
            comp["cards"] = LocatedList()
            continue
        cards, found = _cards(rows, fields, label, line or 0)
        problems += found
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


MAX_ROWS = MAX_DECK_CARDS + 1  # a header and one row per card type
MAX_COLUMNS = 200
MAX_SHEET_BYTES = 50_000_000  # the file itself (an XLSX is compressed: its cells are bounded as read)


def read_rows(path: Path, sheet: Any, content: bytes | None = None) -> list[list[Any]]:
    """Every row of the file (or of `content`, its bytes as an edit would leave them) as cell values,
    header first, read as a stream and refused (ValueError) at the first row, column or cell over the
    limits, so memory stays flat whatever the file claims."""
    if (path.stat().st_size if content is None else len(content)) > MAX_SHEET_BYTES:
        raise ValueError(f"the file is larger than {MAX_SHEET_BYTES // 1_000_000} MB")
    if path.suffix.lower() == ".csv":
        fh: Any = (
            path.open(newline="", encoding="utf-8-sig")
            if content is None
            else io.TextIOWrapper(io.BytesIO(content), encoding="utf-8-sig", newline="")
        )
        with fh:
            try:
                return _bounded(_csv_rows(csv.reader(fh)))
            except (csv.Error, UnicodeDecodeError) as exc:
                raise ValueError(f"not a readable UTF-8 CSV file ({exc})") from None
    import openpyxl  # lazy: only XLSX sources need it, and it is slow to import

    try:
        book = openpyxl.load_workbook(
            path if content is None else io.BytesIO(content), read_only=True, data_only=True
        )
    except Exception as exc:  # noqa: BLE001 - openpyxl raises zip, XML and its own errors for a bad file
        raise ValueError(f"not a readable XLSX workbook ({type(exc).__name__})") from None
    try:
        ws = book[str(sheet)] if sheet is not None else book.worksheets[0]
        ws.reset_dimensions()  # the size the file claims is not trusted: rows are read as they come
        return _bounded(ws.iter_rows(max_col=MAX_COLUMNS + 1, values_only=True))
    except (OSError, ValueError, KeyError):
        raise
    except Exception as exc:  # noqa: BLE001 - damaged XML inside the workbook
        raise ValueError(f"not a readable XLSX workbook ({type(exc).__name__})") from None
    finally:
        book.close()


def _starts_formula(text: str) -> bool:
    return text.lstrip("'").startswith(FORMULA_START)


def text_cell(text: str) -> str:
    """A CSV cell's text as pnp writes it: one `'` in front when a spreadsheet could take it for a
    formula (also when it already starts with `'`s before such a character, so it reads back)."""
    return "'" + text if _starts_formula(text) else text


def cell_from_text(cell: str) -> str:
    """A CSV cell as pnp reads it: the one `'` that `text_cell` put in front taken off."""
    return cell[1:] if cell.startswith("'") and _starts_formula(cell) else cell


def _csv_rows(reader: Iterable[list[str]]) -> Iterable[list[str]]:
    for row in reader:
        yield [cell_from_text(c) for c in row]


def _bounded(rows: Iterable[Any]) -> list[list[Any]]:
    out: list[list[Any]] = []
    for i, row in enumerate(rows, start=1):
        if i > MAX_ROWS:
            raise ValueError(f"more than {MAX_ROWS - 1} card rows; the limit is {MAX_DECK_CARDS} cards")
        cells = list(row)
        while cells and cells[-1] in (None, ""):
            cells.pop()  # trailing empty cells of a padded row
        if len(cells) > MAX_COLUMNS:
            raise ValueError(f"row {i} has more than {MAX_COLUMNS} columns")
        for cell in cells:
            if isinstance(cell, str) and len(cell) > MAX_TEXT:
                raise ValueError(f"row {i} holds a cell of more than {MAX_TEXT} characters")
        out.append(cells)
    return out


def _column(i: int) -> str:
    """Spreadsheet column letter: 0 -> A, 26 -> AA."""
    out = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        out = chr(65 + r) + out
    return out


def _cards(
    rows: list[list[Any]], fields: dict, label: str, yaml_line: int
) -> tuple[LocatedList, list[Problem]]:
    problems: list[Problem] = []
    out = LocatedList()
    out.line, out.item_lines = yaml_line, []
    if not rows:
        return out, [Problem(label, 1, "", "the spreadsheet is empty; row 1 names the columns")]
    header = [str(h).strip() if h is not None else "" for h in rows[0]]
    columns: dict[int, str] = {}
    for i, name in enumerate(header):
        where = f"column {_column(i)}"
        if not name:
            continue
        base, at, _ = name.partition("@")  # name@de: the name in German (a game in several languages)
        translated = bool(at) and (base in ("name", "text") or base in fields)
        if name not in RESERVED and name not in fields and not translated:
            problems.append(
                Problem(
                    label,
                    1,
                    where,
                    f"unknown column {name!r}; columns are {', '.join(RESERVED)} "
                    f"and the fields {', '.join(map(str, fields)) or '(none declared)'}",
                )
            )
        elif name in columns.values():
            problems.append(Problem(label, 1, where, f"column {name!r} appears twice"))
        else:
            columns[i] = name
    for need in ("key", "name"):
        if need not in columns.values():
            problems.append(Problem(label, 1, "", f"no {need!r} column"))
    absent = [name for name, spec in fields.items() if _required(spec) and name not in columns.values()]
    for name in absent:  # one error for the column, not one per card
        problems.append(
            Problem(
                label,
                1,
                "",
                f"no {name!r} column; every card needs its {name}: add a column "
                f"headed {name} (or give the field a default)",
            )
        )
    seen: dict[str, int] = {}
    for r, row in enumerate(rows[1:], start=2):
        if all(c is None or str(c).strip() == "" for c in row):
            continue
        card = Located()
        card.line, card.key_lines = yaml_line, {}
        card.source = (label, r, {name: f"column {_column(i)} ({name})" for i, name in columns.items()})
        before = len(problems)
        for i, name in columns.items():
            cell = row[i] if i < len(row) else None
            where = f"column {_column(i)} ({name})"
            try:
                value = _convert(cell, name, fields)
            except ValueError as exc:
                problems.append(Problem(label, r, where, str(exc)))
                continue
            if value is not None or "@" in name:  # an empty translation is kept: pnp check names it
                card[name] = value
                card.key_lines[name] = yaml_line
            elif name in ("key", "name") or _required(fields.get(name)):
                problems.append(Problem(label, r, where, f"empty cell; every card needs its {name}"))
        key = card.get("key")
        if key is not None:
            if key in seen:
                problems.append(
                    Problem(label, r, "column key", f"duplicate key {key!r} (first on row {seen[key]})")
                )
            seen.setdefault(key, r)
        if len(problems) == before and not absent:  # a row with a problem is reported here only
            out.append(card)
            out.item_lines.append(yaml_line)
    return out, problems


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
