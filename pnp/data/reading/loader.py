"""Load a game database: from the on-disk cache when its files are unchanged, else read and check it.

Reading afresh (`pnp.data.reading.validate`) needs PyYAML, jinja2 and the checks;
a cache hit needs none of them, so they are imported only on a miss (lazy
imports, for start-up speed).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from pnp.data.format.errors import InputError, Problem
from pnp.data.format.model import Component, Game
from pnp.data.reading.project import catalogues, find_root, own_catalogues, own_symbols
from pnp.data.store.cache import cached


def load_game(
    path: Path,
    display: str | None = None,
    root: Path | None = None,
    overlay: Mapping[Path, bytes] | None = None,
    lang: str = "",
) -> Game:
    """Parse and validate one database file, in `lang` (one of its game.languages; "" for the
    first); raise InputError listing every problem.

    `root` is the project folder whose templates/ the game uses; by default the
    folder above the file that holds card_data/ (or the file's own folder). `overlay`
    reads some files (resolved path -> bytes) as an edit would leave them, bypassing the cache.
    """
    path = Path(path)
    name = display or str(path)
    root = root or find_root(path) or path.resolve().parent
    _refuse_links_out(path, name, Path(root))
    if overlay:
        # lazy: validating (jinja2, the model's checks) only for a database not in the cache
        from pnp.data.reading.validate import read_game

        return read_game(path, name, root, load_game, overlay, lang)

    def fresh() -> tuple[Game, list[Path]]:
        # lazy: as above
        from pnp.data.reading.validate import (
            read_game,  # lazy: YAML, jinja2 and the checks only on a miss
        )

        game = read_game(path, name, root, load_game, None, lang)
        return game, [
            path,
            *inputs_of(game)[1:],
            *(p for p, n in catalogues(Path(root), game.lang) if n.startswith("messages/")),
        ]

    # the project's own symbols (art/symbols/*.svg) are part of a game; their names key the entry
    ident = (
        str(path.resolve()),
        name,
        str(Path(root).resolve()),
        own_symbols(root),
        lang,
        own_catalogues(root),
    )
    return cached("game", ident, fresh, within=Path(root))


def _refuse_links_out(path: Path, name: str, root: Path) -> None:
    """A database in the project folder (card_data/, variants) that is a link to a file outside it is
    refused: pnp reads only the project's own files. A path given outside the project is the user's
    own choice and is read."""
    try:
        inside = Path(os.path.abspath(path)).is_relative_to(os.path.abspath(root))
        leaves = inside and not path.resolve().is_relative_to(root.resolve())
    except (OSError, RuntimeError):  # a link loop: the reader names it
        return
    if leaves:
        raise InputError(
            [
                Problem(
                    name,
                    None,
                    "",
                    "this database is a link to a file outside the project folder; "
                    "pnp reads only files inside the project (copy the file here)",
                )
            ]
        )


def inputs_of(game: Game) -> list[Path]:
    """The files a loaded game was made from: its database, spreadsheets and base game's database."""
    deps = [game.source, *game.sheets]  # cards: {from: x.csv} make the spreadsheet part of the game
    if isinstance(game.variant, dict) and "base_file" in game.variant:
        deps.append(Path(game.variant["base_file"]))
    return deps


def derived(
    kind: str, game: Game, ident: tuple, compute: Callable[[], Any], extra: Sequence[Path] = ()
) -> Any:
    """compute()'s value (made from the loaded game and the `extra` files only), cached like the game.

    For work every build repeats on an unchanged game (rule checks, booklet text).
    """
    if game.unsaved:  # its files on disk say something else: the cache cannot know this game
        return compute()
    key = (
        str(game.source.resolve()),
        game.where,
        str(game.root.resolve()),
        own_symbols(game.root),
        game.lang,
        *ident,
    )
    return cached(kind, key, lambda: (compute(), [*inputs_of(game), *extra]), within=game.root)


def base_of(game: Game) -> Game:
    """The base game a loaded variant was made from."""
    if not isinstance(game.variant, dict) or "base_file" not in game.variant:
        raise ValueError(f"{game.slug} is not a variant")
    return load_game(Path(game.variant["base_file"]))


def base_component(game: Game) -> Component:
    """The unchanged base component of a loaded variant."""
    return base_of(game).component(game.variant["component"])
