"""What each export worker draws with: the games' scenes, built once per worker."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pnp.data.format.model import Game
from pnp.output.exports.raster import Scene
from pnp.resolve.fonts import Fonts

Scenes = dict[str, Scene]


@dataclass(frozen=True)
class Setup:
    """What every worker needs to draw: the games, the fonts folder and the set counts."""

    games: tuple[Game, ...]
    fonts_dir: str
    counts: tuple[tuple[str, int], ...] = ()

    def only(self, slugs: set[str]) -> Setup:
        """The same set-up for the games among `slugs` alone."""
        return Setup(tuple(g for g in self.games if g.slug in slugs), self.fonts_dir, self.counts)

    def scenes(self) -> Scenes:
        fonts = Fonts.load(Path(self.fonts_dir))
        return {g.slug: Scene(g, fonts, self.counts) for g in self.games}
