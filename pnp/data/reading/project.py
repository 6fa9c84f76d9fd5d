"""A project folder: card_data/, templates/ and fonts/, and the games it holds."""

from __future__ import annotations

import difflib
import os
import re
from dataclasses import dataclass
from pathlib import Path

from pnp.data.format.errors import problem


def find_root(path: Path) -> Path | None:
    """The nearest folder above `path` that holds card_data/ (the project a file belongs to)."""
    for folder in Path(path).resolve().parents:
        if (folder / "card_data").is_dir():
            return folder
    return None


SHIPPED_MESSAGES = Path(__file__).resolve().parents[2] / "messages"


def catalogues(root: Path, lang: str) -> list[tuple[Path, str]]:
    """The catalogue files for `lang` that exist, shipped first, with the names messages give them."""
    found = [
        (SHIPPED_MESSAGES / f"{lang}.yaml", f"pnp/messages/{lang}.yaml"),
        (root / "messages" / f"{lang}.yaml", f"messages/{lang}.yaml"),
    ]
    return [(path, name) for path, name in found if path.is_file()]


def own_catalogues(root: Path) -> tuple[str, ...]:
    """The project's catalogue names (messages/*.yaml): part of what a cached game depends on."""
    folder = Path(root) / "messages"
    return tuple(sorted(p.name for p in folder.glob("*.yaml"))) if folder.is_dir() else ()


_SYMBOL_NAME = re.compile(r"[a-z0-9][a-z0-9_-]*")


def own_symbols(root: Path) -> tuple[str, ...]:
    """The project's own symbol names: one per art/symbols/NAME.svg (lower-case names), in name order."""
    folder = Path(root) / "art" / "symbols"
    if not folder.is_dir():
        return ()
    home = Path(root).resolve()
    return tuple(
        sorted(
            p.stem
            for p in folder.glob("*.svg")
            if _SYMBOL_NAME.fullmatch(p.stem) and _inside(p, home) and p.is_file()
        )
    )


def _inside(path: Path, home: Path) -> bool:
    """Whether `path` resolves (symlinks followed) to somewhere inside `home`."""
    try:
        return path.resolve().is_relative_to(home)
    except (OSError, RuntimeError):  # a symlink loop
        return False


@dataclass(frozen=True)
class Project:
    """Where a project's databases, templates and fonts live."""

    root: Path

    @classmethod
    def at(cls, root: str | Path) -> Project:
        path = Path(root).resolve()
        if not (path / "card_data").is_dir():
            raise problem(path, None, "--project", "not a project folder: it has no card_data/ folder")
        return cls(path)

    @property
    def card_data(self) -> Path:
        return self.root / "card_data"

    @property
    def templates(self) -> Path:
        return self.root / "templates"

    @property
    def fonts(self) -> Path:
        return self.root / "fonts"

    def game_files(self) -> dict[str, Path]:
        """Game name on the command line -> database file, in name order."""
        return {p.stem: p for p in sorted(self.card_data.glob("*.yaml"))}

    def variant_files(self) -> dict[str, Path]:
        """Stacked variant name (`pnp stack`) -> its database in card_data/variants/, in name order."""
        return {p.stem: p for p in sorted((self.card_data / "variants").glob("*.yaml"))}

    def resolve_game(self, name: str) -> Path:
        """A game name, a stacked variant's name or a path to a database file."""
        files = self.game_files()
        if name in files:
            return files[name]
        variants = self.variant_files()
        if name in variants:
            return variants[name]
        files = {**files, **variants}
        path = Path(name)
        if path.suffix in (".yaml", ".yml") and path.is_file():
            return Path(os.path.abspath(path))  # links kept: the loader refuses one that leaves the project

        close = difflib.get_close_matches(name, list(files), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise problem(name, None, "GAME", f"no such game{hint}; games here: {', '.join(files) or 'none'}")

    def output(self, out_dir: str | Path) -> Path:
        """The output folder named on the command line: absolute, or relative to the project."""
        path = Path(out_dir)
        if path.is_absolute():
            return path
        path = self.root / path
        if Path(os.path.abspath(path)).is_relative_to(self.root) and not _inside(path, self.root):
            raise problem(
                path,
                None,
                "--out",
                "this folder in the project is a link to a place outside it; pnp writes only inside the "
                "project (remove the link, or name an outside folder with an absolute --out)",
            )
        return path

    def confined(self, relative: str, base: Path | None = None) -> Path:
        """A file named by a database, refused when it would leave the project folder."""
        path = ((base or self.root) / relative).resolve()
        if not path.is_relative_to(self.root):
            raise problem(relative, None, "path", "file references must stay inside the project folder")
        return path
