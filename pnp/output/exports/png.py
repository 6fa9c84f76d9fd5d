"""`pnp export png`: one RGB PNG per distinct card face and per distinct back, sized per shop profile."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from pnp.output.exports.naming import Target, back_name, distinct_backs, face_name
from pnp.output.exports.output import folder
from pnp.output.exports.pngfile import save_png
from pnp.output.exports.profiles import Profile, component_frame
from pnp.output.exports.raster import Request, render_png
from pnp.output.exports.setup import Scenes, Setup
from pnp.output.workers import chunked, run_all

DRAWN = ".drawn"  # where pictures are drawn before an export lays them out (removed afterwards)


@dataclass(frozen=True)
class PngJob:
    """Pictures one worker draws and writes: requests and their destination files."""

    game: str
    requests: tuple[Request, ...]
    paths: tuple[str, ...]


def plan_png(
    targets: list[Target],
    scenes: Scenes,
    stage: Path,
    profile: Profile,
    dpi: float,
    jobs: int,
    kind: str = "png",
    sub: str = "",
) -> list[PngJob]:
    """Every picture of every target, chunked for the workers (faces first, then backs)."""
    out: list[PngJob] = []
    for t in targets:
        scene = scenes[t.game.slug]
        cards = scene.printed(t.comp.key)
        frame = component_frame(t.game, t.comp, profile, dpi)
        dest = folder(stage, t.game, kind, sub) / t.comp.key
        dest.mkdir(parents=True, exist_ok=True)
        items = [
            (Request(t.comp.key, i, "face", frame), dest / f"{face_name(p)}.png") for i, p in enumerate(cards)
        ]
        items += [
            (Request(t.comp.key, i, "back", frame), dest / f"{back_name(t.comp, cards[i])}.png")
            for i in distinct_backs(t.comp, cards)
        ]
        for chunk in chunked(items, jobs):
            out.append(PngJob(t.game.slug, tuple(r for r, _ in chunk), tuple(str(p) for _, p in chunk)))
    return out


def draw_png(scenes: Scenes, job: PngJob) -> int:
    """Worker: render a chunk and write its PNGs (with their resolution recorded)."""
    images = render_png(scenes[job.game], list(job.requests))
    for image, path in zip(images, job.paths):
        save_png(image, path)
    return len(images)


def export_png(
    targets: list[Target],
    setup: Setup,
    stage: Path,
    profile: Profile,
    dpi: float,
    jobs: int,
    progress: Callable[[int], None] = lambda n: None,
    kind: str = "png",
    sub: str = "",
) -> int:
    """Write every target's pictures under stage/<game>/<kind>/<sub>/<component>/; returns how many."""
    scenes = setup.scenes()
    work = plan_png(targets, scenes, stage, profile, dpi, jobs, kind, sub)
    return sum(run_all(draw_png, work, setup.scenes, jobs, progress, weight=lambda j: len(j.requests)))


def png_count(targets: list[Target], scenes: Scenes) -> int:
    """How many pictures export_png writes (for the progress bar)."""
    total = 0
    for t in targets:
        cards = scenes[t.game.slug].printed(t.comp.key)
        total += len(cards) + len(distinct_backs(t.comp, cards))
    return total


@contextmanager
def drawn_pictures(
    targets: list[Target],
    setup: Setup,
    stage: Path,
    profile: Profile,
    dpi: float,
    jobs: int,
    progress: Callable[[int], None],
    sub: str,
) -> Iterator[Callable[[Target], Path]]:
    """Every target's pictures drawn into a scratch folder of `stage`; yields where a target's are (its
    component folder, files named as `export_png` names them) and removes them all afterwards."""
    export_png(targets, setup, stage, profile, dpi, jobs, progress, kind=DRAWN, sub=sub)
    try:
        yield lambda t: stage / t.game.slug / DRAWN / sub / t.comp.key
    finally:
        for t in targets:
            shutil.rmtree(stage / t.game.slug / DRAWN, ignore_errors=True)
