"""The preview's one page: HTML, a style sheet and a plain script, served from `static/`.

No framework, no build step, nothing fetched from the internet: the script asks the server
for the snapshot, draws the contact sheets, problems and print settings with the DOM, and
follows server-sent events. Everything is reachable with the keyboard (tiles are buttons,
the card view is a native dialog that Escape closes).
"""

from __future__ import annotations

from importlib.resources import files

ASSETS = ("app.js", "layout.js", "style.css")


def page() -> str:
    html = files("pnp.serve").joinpath("static/index.html").read_text(encoding="utf-8")
    return html.replace("{{VISION_FILTERS}}", vision_filters())


def vision_filters() -> str:
    """The colour-vision switch's SVG filters: each simulation's matrix (`pnp.output.access.vision`)
    as an feColorMatrix, which works in linear RGB as the model does, so the page shows what
    `pnp preview --vision` writes."""
    from pnp.output.access import VISIONS
    from pnp.output.access.vision import LUMINANCE, MACHADO

    out = []
    for vision in VISIONS:
        rows = MACHADO.get(vision, (LUMINANCE, LUMINANCE, LUMINANCE))
        values = " ".join(" ".join(f"{v:g}" for v in row) + " 0 0" for row in rows) + " 0 0 0 1 0"
        out.append(
            f'<filter id="vision-{vision}" color-interpolation-filters="linearRGB">'
            f'<feColorMatrix type="matrix" values="{values}"/></filter>'
        )
    return "".join(out)


def asset(name: str) -> bytes | None:
    """A static file by its exact name (only the known few: nothing else is reachable)."""
    if name not in ASSETS:
        return None
    return files("pnp.serve").joinpath(f"static/{name}").read_bytes()
