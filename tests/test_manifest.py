"""manifest.json: updates replace only their own entries, survive a damaged file, and are published whole."""

from __future__ import annotations

import json
import threading
from pathlib import Path

from pnp.output.manifest import MANIFEST, read_manifest, record_build, record_export
from pnp.output.publish import publish, staging


def _entry(folder: str, n: int = 1) -> dict:
    return {
        "folder": folder,
        "game": "XX",
        "kind": "png",
        "profile": "tgc",
        "dpi": 300,
        "files": [f"{folder}/{i}.png" for i in range(n)],
    }


def _publish(out: Path, change) -> None:
    """One command's update, published as pnp publishes it (under the folder's lock)."""
    with staging(out) as stage:
        publish(stage, out, lambda data, made: change(data))


def test_builds_and_exports_keep_each_other(tmp_path: Path) -> None:
    _publish(
        tmp_path,
        lambda d: record_build(
            d, [{"path": "a/deck.pdf"}, {"path": "b/deck.pdf"}], {"a": {"paper": "a4"}, "b": {}}
        ),
    )
    _publish(tmp_path, lambda d: record_export(d, [_entry("a/png/tgc-300")]))
    _publish(tmp_path, lambda d: record_build(d, [{"path": "a/other.pdf"}], {"a": {"paper": "letter"}}))
    data = read_manifest(tmp_path)
    assert [f["path"] for f in data["files"]] == [
        "a/other.pdf",
        "b/deck.pdf",
    ]  # a's old files replaced, b's kept
    assert data["builds"] == {"a": {"paper": "letter"}, "b": {}}
    assert data["exports"] == [_entry("a/png/tgc-300")]
    assert data["generator"] == "fairy-pnp"


def test_a_damaged_manifest_is_replaced_not_fatal(tmp_path: Path) -> None:
    (tmp_path / MANIFEST).write_text("{not json", encoding="utf-8")  # as an older release left it, damaged
    _publish(tmp_path, lambda d: record_export(d, [_entry("g/tts/local-300")]))
    assert json.loads((tmp_path / MANIFEST).read_text())["exports"] == [_entry("g/tts/local-300")]
    assert (tmp_path / MANIFEST).is_file() and not (tmp_path / MANIFEST).is_symlink()
    (tmp_path / MANIFEST).write_text('{"files": "oops", "exports": [1, 2]}', encoding="utf-8")
    _publish(tmp_path, lambda d: record_export(d, [_entry("g/png/plain-300")]))
    assert read_manifest(tmp_path)["exports"] == [_entry("g/png/plain-300")]


def test_concurrent_updates_lose_nothing(tmp_path: Path) -> None:
    """Each update reads, changes and publishes under the folder's lock, so none overwrites another's entry."""
    folders = [f"g{i}/png/tgc-300" for i in range(16)]
    threads = [
        threading.Thread(target=_publish, args=(tmp_path, lambda d, f=f: record_export(d, [_entry(f, 50)])))
        for f in folders
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(e["folder"] for e in read_manifest(tmp_path)["exports"]) == sorted(folders)
    assert not (tmp_path / ".pnp").exists()  # no staging folder or journal left
