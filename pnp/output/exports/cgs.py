"""`pnp export cgs`: a Card Game Simulator custom-game folder per game.

The folder follows CGS's custom game layout: `<Game>/<Game>.json` (the game
specification), `AllCards.json` (one entry per distinct face: id, name, set,
code), `AllSets.json` (one set per deck), `sets/<deck>/<card id>.png`,
`CardBack.png` (the first deck's back), `backs/` (every distinct back) and
`decks/<deck>.txt` (each deck with its copies, in CGS's txt deck format). CGS
has one card size per game: the first deck's size is the game's, and decks of
another size (tokens too) are shown at it. Boards and play mats go to
`boards/<board>-board.png` (drawn whole, at most 4096 px a side) and into the
specification's `gameBoardCards`: loading a deck that holds the game's first
card puts every board on the play area, side by side, at its size in inches
(the play area grown to hold them). `autoUpdate` is -1, so CGS never tries to
download anything for it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pnp.data.store import files
from pnp.draw.faces import card_size_of
from pnp.output.exports.board_picture import WrittenBoard, write_boards
from pnp.output.exports.mpc import link
from pnp.output.exports.naming import Target, back_name, by_game, distinct_backs, face_name, safe
from pnp.output.exports.output import folder
from pnp.output.exports.png import drawn_pictures
from pnp.output.exports.profiles import MM_PER_INCH, PROFILES
from pnp.output.exports.setup import Scenes, Setup
from pnp.resolve.cards import Printed


def folder_name(name: str) -> str:
    """The game's name as CGS's folder and file name: only what no file system allows is replaced."""
    return re.sub(r'[<>:"/\\|?*\x00-\x1f]', "_", name).strip(" .") or "game"


def card_id(t: Target, p: Printed) -> str:
    """A card's id, unique in the game: its deck and its face's file name."""
    return safe(f"{t.comp.key}-{face_name(p)}")


def board_cards(first_card: str, boards: list[WrittenBoard]) -> dict[str, Any]:
    """The specification's boards: each placed when a deck holding `first_card` is loaded, side by side
    (an inch apart), and a play area at least CGS's default 36 x 36 in that holds them."""
    placed: list[dict[str, Any]] = []
    x = 0.0
    for b in boards:
        w, h = (round(v / MM_PER_INCH, 3) for v in b.picture.mm)
        placed.append({"id": b.path.stem, "offsetMin": {"x": x, "y": 0.0}, "size": {"x": w, "y": h}})
        x = round(x + w + 1.0, 3)
    if not placed:
        return {}
    high = max(p["size"]["y"] for p in placed)
    return {
        "gameBoardImageFileType": "png",
        "gameBoardCards": [{"card": first_card, "boards": placed}],
        "playMatSize": {"x": max(36.0, x), "y": max(36.0, high)},
    }


def game_spec(targets: list[Target]) -> dict[str, Any]:
    """The game specification (`<Game>.json`) for one game's decks."""
    first = targets[0]
    size = card_size_of(first.comp)
    return {
        "name": folder_name(first.game.game.name),
        "autoUpdate": -1,
        "cardSize": {"x": round(size.w / MM_PER_INCH, 3), "y": round(size.h / MM_PER_INCH, 3)},
        "cardImageFileType": "png",
        "cardBackImageFileType": "png",
        "cardIdIdentifier": "id",
        "cardNameIdentifier": "name",
        "cardSetIdentifier": "set",
        "cardNameIsUnique": False,
        "cardPrimaryProperty": "code",
        "cardProperties": [{"name": "code", "type": "string", "display": "Code"}],
        "deckFileType": "txt",
        "deckFileTxtId": "id",
        "setCodeDefault": safe(first.comp.key),
        "setNameDefault": first.comp.name,
    }


def all_cards(targets: list[Target], scenes: Scenes) -> list[dict[str, str]]:
    """AllCards.json: every distinct face of every deck, in database order."""
    out: dict[str, dict[str, str]] = {}
    for t in targets:
        for p in scenes[t.game.slug].printed(t.comp.key):
            out.setdefault(
                card_id(t, p),
                {"id": card_id(t, p), "name": p.card.name, "set": safe(t.comp.key), "code": p.code},
            )
    return list(out.values())


def deck_txt(t: Target, cards: list[Printed]) -> str:
    """One deck in CGS's txt format: `<copies> [<id>] <name> (<set>)` a line."""
    return "".join(
        f"{p.copies} [{card_id(t, p)}] {p.card.name} ({safe(t.comp.key)})\n" for p in cards if p.copies
    )


def _pictures(t: Target, cards: list[Printed], drawn: Path, home: Path) -> None:
    """The deck's faces into sets/<deck>/, its backs into backs/."""
    (home / "sets" / safe(t.comp.key)).mkdir(parents=True, exist_ok=True)
    (home / "backs").mkdir(parents=True, exist_ok=True)
    for p in cards:
        dest = home / "sets" / safe(t.comp.key) / f"{card_id(t, p)}.png"
        if not dest.exists():
            link(drawn / f"{face_name(p)}.png", dest)
    for i in distinct_backs(t.comp, cards):
        name = f"{back_name(t.comp, cards[i])}.png"
        link(drawn / name, home / "backs" / f"{safe(t.comp.key)}-{name}")


def _game(
    mine: list[Target], scenes: Scenes, drawn: Callable[[Target], Path], home: Path, stage: Path
) -> dict[str, Any]:
    """One game's decks, cards and sets into its folder `home`; returns its specification."""
    game = mine[0].game
    for n, t in enumerate(mine):
        cards = scenes[game.slug].printed(t.comp.key)
        _pictures(t, cards, drawn(t), home)
        if n == 0:
            link(drawn(t) / f"{back_name(t.comp, cards[0])}.png", home / "CardBack.png")
        files.write_text(home / "decks" / f"{safe(t.comp.name)}.txt", deck_txt(t, cards), stage)
    files.write_json(home / "AllCards.json", all_cards(mine, scenes), stage)
    files.write_json(
        home / "AllSets.json", [{"code": safe(t.comp.key), "name": t.comp.name} for t in mine], stage
    )
    return game_spec(mine)


def export_cgs(
    targets: list[Target],
    setup: Setup,
    stage: Path,
    dpi: float,
    jobs: int,
    progress: Callable[[int], None] = lambda n: None,
    sub: str = "",
) -> list[Path]:
    """One custom-game folder per game under stage/<game>/cgs/<sub>/<Game>/; returns the specifications."""
    scenes = setup.scenes()
    groups = by_game(targets)
    homes = {
        mine[0].game.slug: folder(stage, mine[0].game, "cgs", sub) / folder_name(mine[0].game.game.name)
        for mine in groups
    }
    boards = write_boards(setup.only(set(homes)), dpi, lambda game: homes[game.slug] / "boards", stage)
    written = []
    with drawn_pictures(targets, setup, stage, PROFILES["plain"], dpi, jobs, progress, sub) as drawn:
        for mine in groups:
            game = mine[0].game
            spec = _game(mine, scenes, drawn, homes[game.slug], stage)
            first = card_id(mine[0], scenes[game.slug].printed(mine[0].comp.key)[0])
            spec |= board_cards(first, [b for b in boards if b.game.slug == game.slug])
            written.append(homes[game.slug] / f"{folder_name(game.game.name)}.json")
            files.write_json(written[-1], spec, stage)
    return written
