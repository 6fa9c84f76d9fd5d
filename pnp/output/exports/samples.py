"""One sample picture per layout, drawn from the first card of a project that uses it (`pnp layouts`)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from pnp.data.format.model import Game
from pnp.draw.faces import card_size_of
from pnp.geometry.sizes import card_size
from pnp.output.exports.profiles import PROFILES, profile_frame
from pnp.output.exports.raster import Request, Scene, render
from pnp.resolve.cards import printed_cards
from pnp.resolve.fonts import Fonts


def samples(games: list[Game]) -> dict[str, tuple[Game, str, int, str]]:
    """layout -> (game, component, printed index, side): the first card each layout draws."""
    found: dict[str, tuple[Game, str, int, str]] = {}
    for game in games:
        for comp in (c for c in game.components if c.is_cards):
            for i, p in enumerate(printed_cards(game, comp)):
                face = game.faces[p.card.design("face", comp)].layout
                back = game.backs[p.card.design("back", comp)].layout
                found.setdefault(face, (game, comp.key, i, "face"))
                found.setdefault(back, (game, comp.key, i, "back"))
    return found


def write_samples(games: list[Game], folder: Path, fonts: Fonts, dpi: float = 110) -> dict[str, Path]:
    """`folder/<layout>.png` for every layout the games use; returns the paths written."""
    out: dict[str, Path] = {}
    for layout, (game, comp, index, side) in sorted(samples(games).items()):
        size = card_size_of(game.component(comp))
        frame = profile_frame(card_size(f"{size.w}x{size.h}"), PROFILES["plain"], dpi)
        (image,) = render(Scene(game, fonts), [Request(comp, index, side, frame)])
        path = folder / f"{layout}.png"
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=folder)
        with os.fdopen(fd, "wb") as fh:
            image.save(fh, format="PNG", optimize=True)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)  # atomic: a failed run leaves the previous picture
        out[layout] = path
    return out
