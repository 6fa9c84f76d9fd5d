"""`pnp export pod --profile mpc`: a deck laid out for MakePlayingCards' uploader.

MakePlayingCards takes one picture per card slot, 822 x 1122 px for a poker
card at 300 dpi (36 px of bleed per side). For each deck this writes:

- `front/001-BG-1.png`, `front/002-BG-1.png`, ...: one picture per physical
  card, numbered in deck order, so the whole folder can be dropped onto the
  front-side uploader and fills the slots in order;
- `back/back.png` when every card shares one back (the uploader's "same image
  for all backs"), otherwise `back/001-....png` numbered like the fronts;
- `order.json`: the slot list (front, back, code, name) and the card count.

Each distinct picture is drawn once; copies are hard links to it (plain copies
where the file system has no links), so a deck of many copies stays small.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pnp.data.store import files
from pnp.output.exports.naming import Target, back_name, distinct_backs, face_name
from pnp.output.exports.output import folder
from pnp.output.exports.png import drawn_pictures, png_count
from pnp.output.exports.profiles import PROFILES, component_frame
from pnp.output.exports.setup import Scenes, Setup


def link(src: Path, dest: Path) -> None:
    """`dest` as a hard link to `src` (a copy where the file system has no links)."""
    try:
        os.link(src, dest)
    except OSError:
        shutil.copyfile(src, dest)


def layout(t: Target, scenes: Scenes, drawn: Path, deck: Path, dpi: float) -> dict[str, Any]:
    """Lay one deck's drawn pictures out as front/ and back/ slots; returns its order description."""
    cards = scenes[t.game.slug].printed(t.comp.key)
    backs = {back_name(t.comp, cards[i]) for i in distinct_backs(t.comp, cards)}
    same_back = len(backs) == 1
    (deck / "front").mkdir(parents=True, exist_ok=True)
    (deck / "back").mkdir(parents=True, exist_ok=True)
    if same_back:
        link(drawn / f"{next(iter(backs))}.png", deck / "back" / "back.png")
    slots: list[dict[str, Any]] = []
    for p in cards:
        for _ in range(p.copies):
            n = len(slots) + 1
            front = f"front/{n:03d}-{face_name(p)}.png"
            link(drawn / f"{face_name(p)}.png", deck / front)
            back = "back/back.png" if same_back else f"back/{n:03d}-{back_name(t.comp, p)}.png"
            if not same_back:
                link(drawn / f"{back_name(t.comp, p)}.png", deck / back)
            slots.append({"slot": n, "front": front, "back": back, "code": p.code, "name": p.card.name})
    frame = component_frame(t.game, t.comp, PROFILES["mpc"], dpi)
    return {
        "shop": "MakePlayingCards",
        "deck": t.comp.name,
        "cards": len(slots),
        "same_back": same_back,
        "picture_px": [frame.width, frame.height],
        "dpi": dpi,
        "slots": slots,
    }


def export_mpc(
    targets: list[Target],
    setup: Setup,
    stage: Path,
    dpi: float,
    jobs: int,
    progress: Callable[[int], None] = lambda n: None,
    sub: str = "mpc-300",
) -> list[Path]:
    """Every deck's upload folders under stage/<game>/pod/<sub>/<component>/; returns the order files."""
    scenes = setup.scenes()
    written = []
    with drawn_pictures(targets, setup, stage, PROFILES["mpc"], dpi, jobs, progress, sub) as drawn:
        for t in targets:
            deck = folder(stage, t.game, "pod", sub) / t.comp.key
            order = layout(t, scenes, drawn(t), deck, dpi)
            files.write_json(deck / "order.json", order, stage)
            written.append(deck / "order.json")
    return written


def mpc_count(targets: list[Target], scenes: Scenes) -> int:
    """Pictures drawn (for the progress bar)."""
    return png_count(targets, scenes)
