"""Draw one card component of one game to a PDF, exactly as `pnp build` does, and nothing else.

    python bench/deck.py GAME_YAML COMPONENT OUT.pdf [--record LOG] [--smoke]

With --record, every call the drawing makes on the ReportLab canvas (and on
its path objects) is also written to LOG, for bench/floor.py to replay.
--smoke draws only the component's first card type (tests/test_bench.py).
The game loads as `pnp build` loads it, through the disk cache
(pnp.data.store.cache), so the measured run is the usual one: database unchanged.
"""

from __future__ import annotations

import argparse
import pickle
from pathlib import Path
from typing import Any


class Recorder:
    """Stands in for a canvas or path object: forwards every call and logs it."""

    def __init__(self, target: Any, log: list, oid: int, ids: list[int]):
        self._target, self._log, self._oid, self._ids = target, log, oid, ids

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._target, name)
        if not callable(attr):
            return attr

        def call(*args: Any, **kw: Any) -> Any:
            result = attr(*[_real(a) for a in args], **{k: _real(v) for k, v in kw.items()})
            entry = (self._oid, name, tuple(_ref(a) for a in args), {k: _ref(v) for k, v in kw.items()})
            if name in ("beginPath", "beginText"):
                self._ids[0] += 1
                self._log.append(("new", self._ids[0], entry))
                return Recorder(result, self._log, self._ids[0], self._ids)
            self._log.append(entry)
            return result

        return call


def _real(value: Any) -> Any:
    return value._target if isinstance(value, Recorder) else value


def _ref(value: Any) -> Any:
    return ("@obj", value._oid) if isinstance(value, Recorder) else value


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("game")
    ap.add_argument("component")
    ap.add_argument("out")
    ap.add_argument("--record")
    ap.add_argument("--smoke", "--quick", action="store_true", help="only the first card type")
    args = ap.parse_args()

    from pnp.data.reading.loader import load_game
    from pnp.draw.faces import FormCache
    from pnp.draw.pdf import canvas
    from pnp.geometry.sizes import paper_size, pt
    from pnp.output.sheets import SheetOptions, deck_grid, draw_deck
    from pnp.resolve.cards import printed_cards
    from pnp.resolve.fonts import Fonts

    path = Path(args.game).resolve()
    game = load_game(path)
    fonts = Fonts.load(path.parent.parent / "fonts")
    comp = game.component(args.component)
    options = SheetOptions(paper_size("a4"))
    grid = deck_grid(comp, options)
    pagesize = (pt(grid.page.w), pt(grid.page.h))
    title = f"{game.game.name}: {comp.name}"
    c: Any = canvas(Path(args.out), title, pagesize, fonts.name("body"))
    log: list = []
    if args.record:
        c = Recorder(c, log, 0, [0])
    forms = FormCache(c, game, fonts, options.bleed)
    cards = printed_cards(game, comp)
    draw_deck(c, game, comp, cards[:1] if args.smoke else cards, options, fonts, forms)
    c.save()
    if args.record:
        from reportlab.pdfbase import pdfmetrics

        used = fonts.used()
        files = {n: pdfmetrics.getFont(n).face.filename for n in used}
        with open(args.record, "wb") as fh:
            info = c._target._doc.info
            meta = {"author": info.author, "creator": info.creator, "producer": info.producer}
            pickle.dump(
                {
                    "title": title,
                    "pagesize": pagesize,
                    "initial_font": fonts.name("body"),
                    "fonts": files,
                    "meta": meta,
                    "calls": log,
                },
                fh,
                protocol=pickle.HIGHEST_PROTOCOL,
            )


if __name__ == "__main__":
    main()
