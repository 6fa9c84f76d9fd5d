"""Atomic placement of finished output: staging folders, publishing, JSON written whole."""
from __future__ import annotations

import json
import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from pnp.output.outlock import locked, stage_in


@contextmanager
def staging(out: Path) -> Iterator[Path]:
    """A private folder inside `out` for a build, used while holding `out`'s lock; removed whatever happens.

    Files are moved into `out` only by `publish`, so a failed build leaves the
    previous output as it was; a folder left by a killed build is removed by
    the next one (see `outlock`).
    """
    with locked(out):
        tmp = stage_in(out)
        try:
            yield tmp
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


def publish(stage: Path, out: Path) -> list[Path]:
    """Move every staged file into `out` (os.replace per file: each file swaps whole)."""
    moved = []
    for src in sorted(p for p in stage.rglob("*") if p.is_file()):
        dest = out / src.relative_to(stage)
        dest.parent.mkdir(parents=True, exist_ok=True)
        os.replace(src, dest)
        moved.append(dest)
    return moved


def write_json_atomic(path: Path, data: Any) -> None:
    """Write JSON through a temporary file in the same folder, then rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=2, sort_keys=True)
        fh.write("\n")
    os.chmod(tmp, 0o644)
    os.replace(tmp, path)
