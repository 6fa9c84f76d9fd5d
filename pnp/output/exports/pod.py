"""`pnp export pod`: print-on-demand PDFs, one card per page with bleed, back before face.

Pages run back 1, front 1, back 2, front 2, ... over every copy of every card,
as DriveThruCards asks. Each page's TrimBox is the cut and its BleedBox the
whole page. Faces and backs are the sheets' own form XObjects, drawn once and
placed on every page that shows them, so the file stays small. The card keeps
its proportions (one scale for both axes, centred on the shop's trim; its bleed
art covers the rest). A CMYK profile makes the file PDF/X-1a: every colour
converted to ink values within the ink limit, and the output intent embedded.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pnp.draw.faces import FormCache, card_size_of
from pnp.draw.pdf import canvas, place_form
from pnp.geometry.sizes import pt
from pnp.output.colour.convert import PrintColour
from pnp.output.colour.pdfx import colour_hook, finish_pdfx
from pnp.output.exports.naming import Target, safe
from pnp.output.exports.output import folder
from pnp.output.exports.profiles import MM_PER_INCH, Profile, shop_inches
from pnp.output.exports.setup import Scenes, Setup
from pnp.output.workers import run_all


@dataclass(frozen=True)
class PodJob:
    game: str
    comp: str
    path: str
    profile: Profile
    colour: PrintColour | None = None  # CMYK output: the ink-limited profile


def pod_geometry(t: Target, profile: Profile) -> tuple[float, float, float, float, float]:
    """(page_w, page_h, bleed, trim_w, trim_h) in points."""
    w_in, h_in = (
        shop_inches(card_size_of(t.comp))
        if profile.snap
        else (card_size_of(t.comp).w / MM_PER_INCH, card_size_of(t.comp).h / MM_PER_INCH)
    )
    b = profile.bleed_in * 72
    return w_in * 72 + 2 * b, h_in * 72 + 2 * b, b, w_in * 72, h_in * 72


def draw_pod(scenes: Scenes, job: PodJob) -> int:
    """Worker: write one component's print-on-demand PDF; returns its page count."""
    scene = scenes[job.game]
    game = scene.game
    comp = game.component(job.comp)
    t = Target(game, comp)
    page_w, page_h, b, trim_w, trim_h = pod_geometry(t, job.profile)
    size = card_size_of(comp)
    s = min(trim_w / pt(size.w), trim_h / pt(size.h))  # one scale: the card keeps its proportions
    x, y = (page_w - pt(size.w) * s) / 2, (page_h - pt(size.h) * s) / 2
    c = canvas(
        Path(job.path),
        f"{game.game.name}: {comp.name} (print on demand)",
        (page_w, page_h),
        scene.fonts.name("body"),
        colour_hook(job.colour),
    )
    c.setTrimBox((b, b, b + trim_w, b + trim_h))
    c.setBleedBox((0, 0, page_w, page_h))
    forms = FormCache(c, game, scene.fonts, max(x, y) / s / pt(1) + 0.5)
    pages = 0
    for p in scene.printed(comp.key):
        for _ in range(p.copies):
            for name in (forms.back(comp, p), forms.face(comp, p)):
                c.setPageSize((page_w, page_h))
                place_form(c, name, x, y, s, s)
                c.showPage()
                pages += 1
    c.save()
    if job.colour:
        finish_pdfx(Path(job.path), job.colour)
    return pages


def export_pod(
    targets: list[Target],
    setup: Setup,
    stage: Path,
    profile: Profile,
    jobs: int,
    progress: Callable[[int], None] = lambda n: None,
    sub: str = "",
    colour: PrintColour | None = None,
) -> list[Path]:
    """One PDF per component under stage/<game>/pod/<sub>/; returns their paths.

    A CMYK profile converts with `colour` (built with the default press and ink limit when not given).
    """
    if profile.cmyk and colour is None:
        colour = PrintColour.build()
    colour = colour if profile.cmyk else None
    work = [
        PodJob(
            t.game.slug,
            t.comp.key,
            str(folder(stage, t.game, "pod", sub) / f"{safe(t.comp.key)}.pdf"),
            profile,
            colour,
        )
        for t in targets
    ]
    run_all(draw_pod, work, setup.scenes, jobs, progress)
    return [Path(j.path) for j in work]
