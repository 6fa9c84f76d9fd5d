"""The disk cache of validated databases and rendered slots: fast when unchanged, never wrong, never unsafe."""
from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, make_project, run

from pnp.data.reading import validate
from pnp.data.reading.loader import load_game
from pnp.data.store import cache


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("PNP_CACHE_DIR", str(folder))
    return folder


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    calls: list[Path] = []
    real = validate.read_game

    def counted(path, *args):
        calls.append(Path(path))
        return real(path, *args)
    monkeypatch.setattr(validate, "read_game", counted)
    return calls


def test_an_unchanged_database_loads_from_the_cache(project: Path, cache_dir: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _counting(monkeypatch)
    db = project / "card_data" / "bargains.yaml"
    first = load_game(db)
    second = load_game(db)
    assert len(calls) == 1 and second == first
    assert list(cache_dir.glob("game-*.pickle"))


def test_any_change_to_the_file_loads_afresh(project: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _counting(monkeypatch)
    db = project / "card_data" / "bargains.yaml"
    load_game(db)
    db.write_text(db.read_text(encoding="utf-8").replace("name: Dewdrop", "name: Dew Pearl", 1), encoding="utf-8")
    game = load_game(db)
    assert len(calls) == 2
    assert "Dew Pearl" in [c.name for comp in game.components for c in comp.cards]


@pytest.mark.parametrize("damage", [b"", b"not a pickle", b"\x80\x05garbage"])
def test_a_damaged_entry_is_a_miss(project: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch,
                                   damage: bytes) -> None:
    db = project / "card_data" / "bargains.yaml"
    good = load_game(db)
    for entry in cache_dir.glob("game-*.pickle"):
        entry.write_bytes(damage)
    calls = _counting(monkeypatch)
    assert load_game(db) == good and len(calls) == 1


class _Evil:
    def __reduce__(self):
        return (os.system, ("touch PWNED",))


def test_a_planted_entry_cannot_run_code(project: Path, cache_dir: Path, tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    db = project / "card_data" / "bargains.yaml"
    good = load_game(db)
    monkeypatch.chdir(tmp_path)
    for entry in cache_dir.glob("game-*.pickle"):
        entry.write_bytes(pickle.dumps({"format": 1, "deps": {}, "value": _Evil()}))
    assert load_game(db) == good
    assert not (tmp_path / "PWNED").exists()


def test_off_writes_nothing(project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PNP_CACHE_DIR", "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    calls = _counting(monkeypatch)
    load_game(project / "card_data" / "bargains.yaml")
    load_game(project / "card_data" / "bargains.yaml")
    assert len(calls) == 2 and not (tmp_path / "xdg").exists()


def test_a_variant_follows_its_base(tmp_path: Path, cache_dir: Path) -> None:
    proj = make_project(tmp_path / "proj", ("fairy-meat",))
    r = run("stack", "fairy-meat", "lean", "--remove", "4-6", "--project", str(proj), "--out", str(proj / "out"))
    assert r.code == 0, r.err
    variant = proj / "card_data" / "variants" / "lean.yaml"
    before = load_game(variant)
    base = proj / "card_data" / "fairy-meat.yaml"
    base.write_text(base.read_text(encoding="utf-8").replace("name: Fairy Meat", "name: Fairy Meat Two", 1),
                    encoding="utf-8")
    after = load_game(variant)
    assert after.game.name != before.game.name


def test_cached_drawing_is_byte_identical_and_skips_yaml_and_jinja2(tmp_path: Path) -> None:
    """Cold cache, then warm: the same PDF; the warm run imports neither PyYAML nor jinja2."""
    script = (
        "import sys\n"
        "sys.argv = ['deck.py', sys.argv[1], 'deck', sys.argv[2]]\n"
        f"sys.path.insert(0, {str(ROOT / 'bench')!r})\n"
        "import deck\n"
        "deck.main()\n"
        "print(sorted(m for m in ('yaml', 'jinja2') if m in sys.modules))\n")
    env = {**os.environ, "PNP_CACHE_DIR": str(tmp_path / "cache")}
    db = str(ROOT / "card_data" / "bargains.yaml")
    outs = []
    for i in range(2):
        pdf = tmp_path / f"deck{i}.pdf"
        proc = subprocess.run([sys.executable, "-c", script, db, str(pdf)], env=env, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        outs.append((pdf.read_bytes(), proc.stdout.strip()))
    assert outs[0][0] == outs[1][0]
    assert outs[0][1] == "['jinja2', 'yaml']" and outs[1][1] == "[]"


def test_the_unpickler_refuses_foreign_classes() -> None:
    import io
    data = pickle.dumps(subprocess.Popen)
    with pytest.raises(pickle.UnpicklingError):
        cache._SafeUnpickler(io.BytesIO(data)).load()


def test_the_cache_keeps_a_bounded_number_of_entries(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cache, "KEEP", 3)
    for i in range(6):
        assert cache.cached("test", (i,), lambda: (i * 10, [])) == i * 10
    assert len(list(cache_dir.glob("test-*.pickle"))) == 3
    assert cache.cached("test", (5,), lambda: (-1, [])) == 50  # the newest is still there


def test_booklet_text_and_rule_checks_follow_their_inputs(project: Path, cache_dir: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Cached booklet text and rule checks: reused while nothing changed, redone after any edit."""
    from pnp.output.booklets import prepare

    db = project / "card_data" / "bargains.yaml"
    template = project / "templates" / "bargains.md.j2"

    def booklet() -> str:
        game = load_game(db, root=project)
        comp = next(c for c in game.components if c.kind == "booklet")
        return "\n".join(b.text for b in prepare(game, comp).blocks)

    first = booklet()
    assert list(cache_dir.glob("booklet-text-*.pickle"))
    assert booklet() == first
    template.write_text(template.read_text(encoding="utf-8").replace("\n", "\nFreshly edited line.\n", 1),
                        encoding="utf-8")
    assert "Freshly edited line." in booklet() and "Freshly edited line." not in first

    from pnp.rules import checker
    calls: list[str] = []
    real = checker.check_game

    def counted(game):  # type: ignore[no-untyped-def]
        calls.append(game.slug)
        return real(game)
    monkeypatch.setattr(checker, "check_game", counted)
    assert checker.checked(load_game(db, root=project)) == checker.checked(load_game(db, root=project)) == []
    assert len(calls) == 1 and list(cache_dir.glob("rule-check-*.pickle"))
    db.write_text(db.read_text(encoding="utf-8").replace("name: Dewdrop", "name: Dew Pearl", 1), encoding="utf-8")
    assert checker.checked(load_game(db, root=project)) == []
    assert len(calls) == 2  # the edited game is checked again
