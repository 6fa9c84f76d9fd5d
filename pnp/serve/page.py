"""The preview's one page: HTML, a style sheet and a plain script, served from `static/`.

No framework, no build step, nothing fetched from the internet: the script asks the server
for the snapshot, draws the contact sheets, problems and print settings with the DOM, and
follows server-sent events. Everything is reachable with the keyboard (tiles are buttons,
the card view is a native dialog that Escape closes).
"""

from __future__ import annotations

from importlib.resources import files

ASSETS = ("app.js", "style.css")


def page() -> str:
    return files("pnp.serve").joinpath("static/index.html").read_text(encoding="utf-8")


def asset(name: str) -> bytes | None:
    """A static file by its exact name (only the known few: nothing else is reachable)."""
    if name not in ASSETS:
        return None
    return files("pnp.serve").joinpath(f"static/{name}").read_bytes()
