"""The page's Access panel: `pnp check --access` for one game as last loaded."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from pnp.data.format.errors import InputError
from pnp.serve.state import Tracker


def access_findings(tracker: Tracker, slug: str) -> tuple[dict[str, Any], HTTPStatus]:
    """The game's findings as JSON and the answer's status (slow: tens of seconds)."""
    game = tracker.loaded.get(slug)
    if game is None:
        return {"ok": False, "error": f"no game {slug[:80]!r} is loaded"}, HTTPStatus.NOT_FOUND
    from pnp.output.access.report import check_game  # lazy: numpy only when asked

    try:
        found = check_game(game, tracker.fonts)
    except InputError as exc:
        error = "; ".join(str(p) for p in exc.problems[:5])
        return {"ok": False, "error": f"fix these first: {error}"}, HTTPStatus.CONFLICT
    findings = [dict(f.as_dict(), text=str(f.problem)) for f in found]
    return {"ok": True, "game": slug, "findings": findings}, HTTPStatus.OK
