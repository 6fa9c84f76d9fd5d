"""A spreadsheet file as rows of cells: a CSV's separator, the formula-quoting convention, and the
bounds a file is read within (as a stream, so memory stays flat whatever the file claims).

A CSV cell pnp writes never starts a formula: text that begins with `=`, `+`, `-`, `@`, a tab
or a carriage return (after any leading `'`) is written with one `'` in front, as OWASP advises
against CSV injection, and reading takes exactly that one `'` off again (`text_cell`,
`cell_from_text`), so what the editor saves reads back the same.
"""

from __future__ import annotations

import csv
import io
import itertools
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnp.data.format.limits import MAX_DECK_CARDS, MAX_TEXT

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")  # what a spreadsheet may take as the start of a formula
MAX_ROWS = MAX_DECK_CARDS + 1  # a header and one row per card type
MAX_COLUMNS = 200
MAX_SHEET_BYTES = 50_000_000  # the file itself (an XLSX is compressed: its cells are bounded as read)
MAX_HEADER_CHARS = MAX_COLUMNS * 1_000  # the header line read to find the separator


SEPARATORS = {",": "comma", ";": "semicolon", "\t": "tab"}  # what a CSV's cells may be split by


@dataclass
class Table:
    """A spreadsheet's rows (header first), the line each starts on as a text editor counts them
    (a CSV cell may hold line breaks; an XLSX row is its row number), and notes for the reader."""

    rows: list[list[Any]]
    lines: list[int]
    notes: list[str] = field(default_factory=list)


def separator(header: str) -> tuple[str, str]:
    """The separator of a CSV file read from its header line (the one a spreadsheet saved it with:
    a French or German Excel writes semicolons), and a note saying which was taken when the line
    holds more than one of them; a comma for a one-column file."""
    counts = dict.fromkeys(SEPARATORS, 0)
    quoted = False
    for ch in header:
        if ch == '"':
            quoted = not quoted
        elif not quoted and ch in counts:
            counts[ch] += 1
    best = max(SEPARATORS, key=lambda sep: counts[sep])  # a tie goes to the first: comma, semicolon, tab
    if not counts[best]:
        return ",", ""
    also = [SEPARATORS[sep] for sep in SEPARATORS if sep != best and counts[sep]]
    note = (
        f"the header line holds {SEPARATORS[best]}s and {' and '.join(also)}s; "
        f"its cells were split at each {SEPARATORS[best]}"
        if also
        else ""
    )
    return best, note


def read_rows(path: Path, sheet: Any, content: bytes | None = None) -> list[list[Any]]:
    """Every row of the file (or of `content`), header first; see `read_table`."""
    return read_table(path, sheet, content).rows


def read_table(path: Path, sheet: Any, content: bytes | None = None) -> Table:
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
                first = fh.readline(MAX_HEADER_CHARS)
                sep, note = separator(first)
                lines: list[int] = []
                reader = csv.reader(itertools.chain([first] if first else [], fh), delimiter=sep)
                rows = _bounded(_csv_rows(reader, lines))
                return Table(rows, lines, [note] if note else [])
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
        rows = _bounded(ws.iter_rows(max_col=MAX_COLUMNS + 1, values_only=True))
        return Table(rows, list(range(1, len(rows) + 1)))
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


def _csv_rows(reader: Any, lines: list[int]) -> Iterable[list[str]]:
    """The reader's rows, each row's first line appended to `lines` as it is read."""
    done = 0
    for row in reader:
        lines.append(done + 1)
        done = reader.line_num
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
