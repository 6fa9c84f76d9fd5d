"""Sheets by name: the ones shipped in `pnp/sheets/`, then a project's own in `sheets/` (which may replace one)."""

from __future__ import annotations

import dataclasses
import difflib
from pathlib import Path

from pnp.data.format.errors import InputError, problem
from pnp.data.format.located import line_of
from pnp.data.format.schema import Parser
from pnp.data.format.sheetspec import SheetSpec

FOLDER = Path(__file__).resolve().parent.parent.parent / "sheets"
DEFAULT = "duplex"
MAX_SHEETS = 200


def sheet_files(project_root: Path | None) -> dict[str, tuple[Path, str]]:
    """Sheet name -> (its file, how messages name it): built-in first, the project's after (and over them).

    A project file that leaves the project (a link out of it) is not read.
    """
    found = {p.stem: (p, f"pnp/sheets/{p.name}") for p in sorted(FOLDER.glob("*.yaml"))}
    if project_root is not None:
        root = Path(project_root).resolve()
        for p in sorted((root / "sheets").glob("*.yaml"))[:MAX_SHEETS]:
            if p.resolve().is_relative_to(root) and p.resolve().is_file():
                found[p.stem] = (p, f"sheets/{p.name}")
    return found


def read_sheet(path: Path, display: str) -> SheetSpec:
    """One sheet file, checked against the format (InputError naming file:line and the key)."""
    from pnp.data.reading.yamlsrc import load_yaml  # lazy: only a build or `pnp sheets` reads a sheet

    data = load_yaml(path, display)
    parser = Parser(display)
    spec = parser.record(SheetSpec, data, "", line_of(data))
    if parser.problems or spec is None:
        raise InputError(parser.problems)
    return dataclasses.replace(spec, name=path.stem, source=display)


def sheet_file(name: str, project_root: Path | None = None) -> tuple[Path, str]:
    """The file of the sheet called `name` and how messages name it (a usage problem naming the sheets
    there are when there is none); nothing is parsed."""
    files = sheet_files(project_root)
    if name not in files:
        close = difflib.get_close_matches(name, list(files), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise problem("--sheet", None, "", f"no sheet called {name!r}{hint}; sheets: {', '.join(files)}")
    return files[name]


def sheet_named(name: str, project_root: Path | None = None) -> SheetSpec:
    """The sheet called `name`, read and checked."""
    return read_sheet(*sheet_file(name, project_root))


def all_sheets(project_root: Path | None = None) -> list[SheetSpec]:
    """Every sheet there is, by name (a broken file raises, naming its line)."""
    return [read_sheet(path, display) for path, display in sheet_files(project_root).values()]
