"""`pnp fetch`: download the shared sheets a project's cards come from, so builds stay offline."""

from __future__ import annotations

import hashlib
import sys
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import click
import yaml

from pnp.cli.common import FiniteRange, display, fail_input, open_project, project_option
from pnp.data.format.errors import InputError
from pnp.data.format.located import line_of
from pnp.data.reading.download import download, printable
from pnp.data.reading.remote import FOLDER, SOURCES, download_url, is_url, local_name
from pnp.data.reading.tables import MAX_SHEET_BYTES, read_rows
from pnp.data.reading.yamlsrc import load_yaml
from pnp.data.store.cache import file_digest
from pnp.data.store.files import OutsideRoot, confined, read_bytes_confined, write_bytes_atomic


@dataclass(frozen=True)
class Source:
    """One `cards: {from: URL}` of a database: where it is written, and the URL."""

    where: str  # database file:line: field, as messages name it
    url: str
    dest: Path


@click.command()
@click.argument("games", nargs=-1)
@project_option
@click.option(
    "--timeout",
    type=FiniteRange(1, 120),
    default=30.0,
    show_default=True,
    help="Seconds one sheet's download may take in all (redirects and slow servers included).",
)
def fetch(games: tuple[str, ...], project_dir: str, timeout: float) -> None:
    """Download the shared sheets GAMES' cards come from (all games when none).

    A database may take its cards from a published CSV or a Google Sheets share link:
    cards: {from: "https://docs.google.com/spreadsheets/d/.../edit#gid=0"}. fetch saves
    each as card_data/fetched/NAME.csv and records its URL and date in
    card_data/fetched/sources.yaml; builds read that copy and never use the network.
    Nothing is written unless every sheet downloads and reads as a table.
    """

    project = open_project(project_dir)
    try:
        sources = _sources(project, games)
    except InputError as exc:
        fail_input(exc)
    if not sources:
        click.echo(
            'No database here takes its cards from a URL (cards: {from: "https://..."}); nothing to fetch.'
        )
        return
    got: dict[Path, tuple[Source, bytes]] = {}
    failed = []
    for source in sources:
        if source.dest in got:
            continue
        try:
            got[source.dest] = (source, _download(source.url, timeout))
        except ValueError as exc:
            failed.append(f"{source.where}: {exc}")
    if failed:
        click.echo(f"error: {len(failed)} sheet(s) could not be fetched (nothing was written):", err=True)
        for line in failed:
            click.echo(f"  {line}", err=True)
        sys.exit(2)
    try:
        lines = _publish(project.root, project.card_data, got)
    except OutsideRoot as exc:
        link = exc.path.relative_to(project.root) if exc.path.is_relative_to(project.root) else exc.path
        click.echo(
            f"error: {link.as_posix()} is a link that leads outside the project ({exc.resolved or 'a link loop'}); "
            "replace it with a plain folder or file inside the project and fetch again (nothing was written)",
            err=True,
        )
        sys.exit(2)
    except OSError as exc:
        click.echo(
            f"error: cannot write in {display(project, project.card_data / FOLDER)}: {exc.strerror or exc}; "
            "check that the folder is writable and fetch again",
            err=True,
        )
        sys.exit(2)
    for line in lines:
        click.echo(line)


def _sources(project: Any, games: tuple[str, ...]) -> list[Source]:
    """Every URL source of the named databases (all when none), in order."""
    files = [project.resolve_game(n) for n in games] if games else list(project.game_files().values())
    out, problems = [], []
    for path in files:
        shown = display(project, path)
        try:
            data = load_yaml(path, shown)
        except InputError as exc:
            problems += exc.problems
            continue
        comps = data.get("components") if isinstance(data, dict) else None
        for ci, comp in enumerate(comps if isinstance(comps, list) else []):
            spec = comp.get("cards") if isinstance(comp, dict) else None
            url = spec.get("from") if isinstance(spec, dict) else None
            if is_url(url):
                where = f"{shown}:{line_of(comp, 'cards')}: components[{ci}].cards.from"
                out.append(Source(where, url, path.parent / FOLDER / local_name(url)))
    if problems:
        raise InputError(problems)
    return out


def _download(url: str, timeout: float) -> bytes:
    """The sheet at `url` as CSV bytes, checked to read as a table (ValueError saying what went wrong)."""
    address = download_url(url)
    got = download(address, timeout=timeout, max_bytes=MAX_SHEET_BYTES)
    data, kind = got.data, got.content_type
    address = printable(address)
    head = data[:512].lstrip().lower()
    if "html" in kind.lower() or head.startswith((b"<!doctype html", b"<html")):
        raise ValueError(
            f"{address} gave a web page, not a CSV table: share the sheet with anyone who has the "
            "link (or publish it to the web as CSV) and fetch again"
        )
    try:
        rows = read_rows(Path("sheet.csv"), None, data)
    except ValueError as exc:
        raise ValueError(f"{address} does not read as a CSV table: {exc}") from None
    if not rows:
        raise ValueError(f"{address} is empty")
    return data


def _publish(root: Path, card_data: Path, got: dict[Path, tuple[Source, bytes]]) -> list[str]:
    """Write every copy and the sources record, each through a temporary file; what was done, line by line.

    Each copy goes beside its database, in fetched/ (where builds read it); the record is
    card_data/fetched/sources.yaml. These folders and the record must lead inside the project `root`
    (links followed): all are checked before anything is written (`OutsideRoot`). A link at a copy's
    name is replaced, never written through."""
    folder = card_data / FOLDER
    record_path = folder / SOURCES
    folders = sorted({folder, *(dest.parent for dest in got)})
    for place in [*folders, record_path]:
        confined(place, root)
    for place in folders:
        place.mkdir(parents=True, exist_ok=True)
    try:
        text = read_bytes_confined(record_path, root).decode("utf-8") if record_path.is_file() else ""
        record = yaml.safe_load(text) if text else {}
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        record = {}
    record = record if isinstance(record, dict) else {}
    now = datetime.now(UTC).replace(microsecond=0).isoformat()
    lines = []
    for dest, (source, data) in sorted(got.items()):
        digest = hashlib.sha256(data).hexdigest()
        same = not dest.is_symlink() and dest.is_file() and file_digest(dest) == digest
        if not same:
            write_bytes_atomic(dest, data, root=root)
        record[dest.name] = {
            "url": source.url,
            "downloaded_from": download_url(source.url),
            "fetched": now,
            "sha256": digest,
            "bytes": len(data),
        }
        rel = dest.relative_to(root).as_posix() if dest.is_relative_to(root) else str(dest)
        lines.append(
            f"{rel}: {'unchanged' if same else 'written'} ({len(data)} bytes) from {printable(source.url)}"
        )
    header = "# Written by `pnp fetch`: where each copy in this folder came from, and when.\n"
    text = header + yaml.safe_dump(record, sort_keys=True, allow_unicode=True)
    write_bytes_atomic(record_path, text.encode("utf-8"), root=root)
    return lines
