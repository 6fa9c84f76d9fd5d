"""Change one card's row of a CSV or XLSX card list, leaving every other row as it was.

CSV: the file's text is split into rows with the csv module (a quoted cell may span lines),
and only the changed row's lines are written anew, with the file's own line ending; a new
column is added at the end of the header. XLSX: openpyxl sets the cells of the one row (the
workbook's styles stay; charts and pictures inside a workbook are not kept by openpyxl).

No cell pnp writes is a formula: a CSV cell a spreadsheet could take for one gets a leading `'`
that pnp's reader takes off again (see pnp.data.reading.spreadsheet), and an XLSX text cell is
written as text (openpyxl would make `=...` a formula), marked "quote prefix" so a spreadsheet
keeps it text when the cell is edited there.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from pnp.data.editing.yamltext import REMOVE, EditError
from pnp.data.reading.tables import FORMULA_START, cell_from_text, separator, text_cell


def cell_text(value: Any) -> str:
    """A value as the loader reads it back from a cell (lists: `a; b`)."""
    if value is REMOVE or value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return "; ".join(str(v) for v in value)
    return str(value)


def _rows(text: str) -> list[tuple[list[str], int, int]]:
    """Each row's cells and the character span of its lines."""
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_separator(text))
    out, done = [], 0
    try:
        for cells in reader:
            out.append((cells, starts[done], starts[min(reader.line_num, len(lines))]))
            done = reader.line_num
    except csv.Error as exc:
        raise EditError(f"the CSV file cannot be read right now ({exc}); fix it first") from None
    return out


def _separator(text: str) -> str:
    """The file's own separator (a semicolon CSV stays one when a card is saved into it)."""
    return separator(text.split("\n", 1)[0])[0]


def _line(cells: list[str], ending: str, sep: str = ",") -> str:
    """One row's text ending in `ending`; a cell holding CR or LF is quoted whatever the ending (the
    csv module quotes only the characters of its line terminator, so it is given both)."""
    buf = io.StringIO(newline="")
    csv.writer(buf, lineterminator="\r\n", delimiter=sep).writerow(cells)
    return buf.getvalue().removesuffix("\r\n") + ending


def _ending(text: str) -> str:
    return "\r\n" if "\r\n" in text else "\n"


def _find(rows: list[tuple[list[str], int, int]], key: str) -> tuple[list[str], int]:
    header = [cell_from_text(h).strip() for h in rows[0][0]] if rows else []
    if "key" not in header:
        raise EditError("the spreadsheet has no `key` column")
    k = header.index("key")
    for i, (cells, _, _) in enumerate(rows[1:], start=1):
        if k < len(cells) and cell_from_text(cells[k]).strip() == key:
            return header, i
    raise EditError(f"no row with key {key!r} in the spreadsheet (changed since the page loaded?)")


def _changed(header: list[str], cells: list[str], changes: dict[str, Any]) -> tuple[list[str], list[str]]:
    header, cells = list(header), list(cells) + [""] * max(0, len(header) - len(cells))
    for name, value in changes.items():
        if name not in header:
            if value is REMOVE:
                continue
            header.append(name)
            cells += [""] * (len(header) - len(cells))
        cells[header.index(name)] = text_cell(cell_text(value))
    return header, cells


def csv_set(text: str, key: str, changes: dict[str, Any], copy_after: bool = False) -> str:
    """The CSV text with the row of `key` changed (or, with `copy_after`, a changed copy after it)."""
    rows = _rows(text)
    header, i = _find(rows, key)
    cells, start, end = rows[i]
    new_header, new_cells = _changed(header, cells, changes)
    ending = _ending(text)
    sep = _separator(text)
    line = _line(new_cells, ending, sep)
    if copy_after:
        at = end
        if not text[:at].endswith(("\n", "\r")):
            line = ending + line
        text = text[:at] + line + text[at:]
    else:
        text = text[:start] + line + text[end:]
    if new_header != header:
        _, h_start, h_end = rows[0]
        text = (
            text[:h_start]
            + _line(rows[0][0] + [text_cell(h) for h in new_header[len(header) :]], ending, sep)
            + text[h_end:]
        )
    return text


def csv_add(text: str, values: dict[str, Any]) -> str:
    """The CSV text with a new row at the end."""
    rows = _rows(text)
    if not rows:
        raise EditError("the spreadsheet has no header row")
    header = [cell_from_text(h).strip() for h in rows[0][0]]
    new_header, cells = _changed(header, [], values)
    ending, sep = _ending(text), _separator(text)
    if text and not text.endswith(("\n", "\r")):
        text += ending
    text += _line(cells, ending, sep)
    if new_header != header:
        _, h_start, h_end = rows[0]
        text = (
            text[:h_start]
            + _line(rows[0][0] + [text_cell(h) for h in new_header[len(header) :]], ending, sep)
            + text[h_end:]
        )
    return text


def _put(cell: Any, value: Any) -> None:
    """Set an XLSX cell; text stays text (openpyxl takes a string starting with `=` for a formula)."""
    cell.value = value
    if isinstance(value, str):
        cell.data_type = "s"
        if value.startswith(FORMULA_START):
            cell.quotePrefix = True  # a spreadsheet program keeps it text when the cell is edited


def xlsx_set(
    data: bytes, sheet: str | None, key: str | None, changes: dict[str, Any], copy_after: bool = False
) -> bytes:
    """The workbook with the row of `key` changed, or a row added at the end (key None, or a copy)."""
    import openpyxl  # lazy: only XLSX card lists need it
    from openpyxl.utils.exceptions import IllegalCharacterError

    try:
        book = openpyxl.load_workbook(io.BytesIO(data))
        ws = book[sheet] if sheet else book.worksheets[0]
    except Exception as exc:  # noqa: BLE001 - a damaged workbook: say so
        raise EditError(f"the workbook cannot be read right now ({type(exc).__name__})") from None
    formula = next((c.coordinate for r in ws.iter_rows() for c in r if c.data_type == "f"), None)
    if formula is not None:  # openpyxl keeps a formula but not its value: pnp would then read it empty
        raise EditError(
            f"the sheet holds a formula (cell {formula}); pnp cannot keep its value when it saves "
            "the workbook: edit this card in your spreadsheet program, or paste the values over the formulas"
        )
    header = [str(c.value).strip() if c.value is not None else "" for c in ws[1]]
    row = None
    if key is not None:
        if "key" not in header:
            raise EditError("the spreadsheet has no `key` column")
        k = header.index("key") + 1
        row = next(
            (r for r in range(2, ws.max_row + 1) if str(ws.cell(r, k).value or "").strip() == key), None
        )
        if row is None:
            raise EditError(f"no row with key {key!r} in the spreadsheet (changed since the page loaded?)")
    target = ws.max_row + 1 if row is None or copy_after else row
    try:
        if copy_after and row is not None:
            for col in range(1, len(header) + 1):
                _put(ws.cell(target, col), ws.cell(row, col).value)
        for name, value in changes.items():
            if name not in header:
                if value is REMOVE:
                    continue
                header.append(name)
                _put(ws.cell(1, len(header)), name)
            _put(
                ws.cell(target, header.index(name) + 1),
                None if value is REMOVE else (cell_text(value) if isinstance(value, (list, bool)) else value),
            )
    except IllegalCharacterError:  # a control character (the page's form refuses them before this)
        raise EditError("a value holds a control character, which a workbook cell cannot hold") from None
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()
