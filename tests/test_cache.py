"""The disk cache of validated databases and rendered slots: fast when unchanged, never wrong, never unsafe."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from pnp.data.reading import validate
from pnp.data.reading.loader import load_game
from pnp.data.store import cache

from conftest import ROOT, make_project, run


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


def test_an_unchanged_database_loads_from_the_cache(
    project: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = _counting(monkeypatch)
    db = project / "card_data" / "bargains.yaml"
    first = load_game(db)
    second = load_game(db)
    assert len(calls) == 1 and second == first
    assert list(cache_dir.glob("game-*.cache"))


def test_any_change_to_the_file_loads_afresh(
    project: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = _counting(monkeypatch)
    db = project / "card_data" / "bargains.yaml"
    load_game(db)
    db.write_text(
        db.read_text(encoding="utf-8").replace("name: Dewdrop", "name: Dew Pearl", 1), encoding="utf-8"
    )
    game = load_game(db)
    assert len(calls) == 2
    assert "Dew Pearl" in [c.name for comp in game.components for c in comp.cards]


@pytest.mark.parametrize(
    "damage",
    [
        b"",
        b"not an entry",
        b"\x80\x05garbage",
        cache.MAGIC + b"garbage",
        cache.MAGIC + zlib.compress(b'{"key": 1}'),
        b"pnp-cache-2\n" + zlib.compress(b'{"key": 1}'),
    ],
)
def test_a_damaged_entry_is_a_miss(
    project: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch, damage: bytes
) -> None:
    db = project / "card_data" / "bargains.yaml"
    good = load_game(db)
    for entry in cache_dir.glob("game-*.cache"):
        entry.write_bytes(damage)
    calls = _counting(monkeypatch)
    assert load_game(db) == good and len(calls) == 1


def _key_of(path: Path) -> str:
    return path.read_bytes()[len(cache.MAGIC) :].split(b"\n", 1)[0].decode()


def _entry(path: Path) -> dict:
    body = cache.unpack(path, _key_of(path))
    assert body is not None
    return json.loads(body)


def _plant(path: Path, entry: dict) -> None:
    path.write_bytes(cache.pack(str(entry["key"]), json.dumps(entry).encode()))


def _bomb(megabytes: int) -> bytes:
    """zlib data that inflates to `megabytes` MB of zeros (a few hundred KB of it)."""
    squeeze = zlib.compressobj(9)
    zeros = bytes(2**20)
    return b"".join([*(squeeze.compress(zeros) for _ in range(megabytes)), squeeze.flush()])


def test_a_planted_zip_bomb_is_refused_before_it_inflates(project: Path, cache_dir: Path) -> None:
    """An entry is checked for its key and declared size before it is decompressed, and decompressed no
    further than that size: a small file that would inflate to 300 MB is a miss, removed, and costs no
    memory (whatever size it declares); the game loads afresh."""
    import tracemalloc

    db = project / "card_data" / "bargains.yaml"
    good = load_game(db)
    (entry,) = cache_dir.glob("game-*.cache")
    key = _key_of(entry)
    bomb = _bomb(300)
    head = cache.MAGIC + key.encode() + b"\n"
    for plant in (
        head + str(300 * 2**20).encode() + b"\n" + bomb,  # says how large it is: over the bound
        head + b"1000\n" + bomb,  # says it is small
        cache.MAGIC + b"0" * 64 + b"\n1000\n" + bomb,  # another key's
        b"pnp-cache-2\n" + bomb,  # an older release's layout, key inside
    ):
        entry.write_bytes(plant)
        tracemalloc.start()
        try:
            assert load_game(db) == good
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert peak < 60 * 2**20, (plant[:90], peak)
        assert entry.stat().st_size < len(bomb)  # dropped, and written afresh
        assert _entry(entry)["key"] == key


def test_a_planted_entry_cannot_run_code(
    project: Path, cache_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Entries are plain data: a planted one naming code (as a pickle once could) is a miss, not an action."""
    import pickle

    class Evil:
        def __reduce__(self):  # type: ignore[no-untyped-def]
            return (os.system, ("touch PWNED",))

    db = project / "card_data" / "bargains.yaml"
    good = load_game(db)
    monkeypatch.chdir(tmp_path)
    (entry,) = cache_dir.glob("game-*.cache")
    key = _entry(entry)["key"]
    plants = [
        cache.MAGIC + pickle.dumps({"key": key, "deps": {}, "value": Evil()}),
        {"key": key, "deps": {}, "value": {"~c": "os.system", "f": {"command": "touch PWNED"}}},
        {"key": key, "deps": {}, "value": {"~c": "model.Game", "f": {"__reduce__": "touch PWNED"}}},
        {"key": key, "deps": {}, "value": {"~nonesuch": "touch PWNED"}},
    ]
    for plant in plants:
        if isinstance(plant, bytes):
            entry.write_bytes(plant)
        else:
            _plant(entry, plant)
        assert load_game(db) == good
        assert not (tmp_path / "PWNED").exists()
    assert "pickle" not in (
        Path(cache.__file__).read_text() + Path(cache.__file__).with_name("plain.py").read_text()
    )


def test_a_swapped_entry_is_a_miss(tmp_path: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An entry copied over another's file (two games swapped) is not read for the other key."""
    proj = make_project(tmp_path / "two", ("bargains", "tarot"))
    a, b = proj / "card_data" / "bargains.yaml", proj / "card_data" / "tarot.yaml"
    game_a, game_b = load_game(a), load_game(b)
    entries = sorted(cache_dir.glob("game-*.cache"), key=lambda p: p.stat().st_mtime_ns)
    first, second = (e.read_bytes() for e in entries)
    entries[0].write_bytes(second)
    entries[1].write_bytes(first)
    calls = _counting(monkeypatch)
    assert load_game(a) == game_a and load_game(b) == game_b and len(calls) == 2


def test_a_dependency_that_is_not_a_file_is_a_miss(
    project: Path, cache_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An entry whose dependency names a FIFO (or /dev/zero) is a miss at once, never a hang."""
    db = project / "card_data" / "bargains.yaml"
    good = load_game(db)
    (entry,) = cache_dir.glob("game-*.cache")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for dep in (str(fifo), "/dev/zero"):
        data = _entry(entry)
        data["deps"] = {dep: "0" * 64}
        _plant(entry, data)
        calls = _counting(monkeypatch)
        assert load_game(db) == good and len(calls) == 1


def test_a_dependency_outside_the_project_is_a_miss(
    project: Path, cache_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An entry naming a file outside the project (with the right digest, so only where it lies is
    wrong) is a miss; the file is not read for it."""
    db = project / "card_data" / "bargains.yaml"
    good = load_game(db)
    (entry,) = cache_dir.glob("game-*.cache")
    outside = tmp_path / "elsewhere" / "secret.txt"
    outside.parent.mkdir()
    outside.write_text("not the project's", encoding="utf-8")
    data = _entry(entry)
    data["deps"] = {str(outside): cache.file_digest(outside)}
    _plant(entry, data)
    digested: list[Path] = []
    real = cache.file_digest
    monkeypatch.setattr(cache, "file_digest", lambda p: digested.append(Path(p)) or real(p))
    calls = _counting(monkeypatch)
    assert load_game(db) == good and len(calls) == 1
    assert outside not in digested


def test_a_value_made_from_a_file_outside_the_project_is_not_kept(tmp_path: Path, cache_dir: Path) -> None:
    project = make_project(tmp_path / "proj")
    loose = tmp_path / "loose.yaml"
    loose.write_bytes((project / "card_data" / "bargains.yaml").read_bytes())
    load_game(loose, "loose.yaml", project)
    assert not list(cache_dir.glob("game-*.cache"))
    load_game(project / "card_data" / "bargains.yaml")
    assert len(list(cache_dir.glob("game-*.cache"))) == 1


def test_the_size_bound_removes_only_pnps_entries(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Pointed at a folder of someone's files, the cache removes none of them, even named like entries."""
    cache_dir.mkdir(parents=True)
    theirs = [cache_dir / "notes.txt", cache_dir / "old.pickle", cache_dir / f"test-{'a' * 40}.cache"]
    for path in theirs:
        path.write_text("mine")
    monkeypatch.setattr(cache, "KEEP", 2)
    for i in range(5):
        cache.cached("test", (i,), lambda i=i: (i, []))
    assert all(p.read_text() == "mine" for p in theirs)
    assert len([p for p in cache_dir.glob("test-*.cache") if p not in theirs]) == 2


def test_the_plain_codec_round_trips_what_pnp_stores(project: Path) -> None:
    """A whole game, a laid-out board and plain tables come back equal, rebuilt from JSON data."""
    from pnp.data.reading.boardspec import parse_board
    from pnp.data.store import plain

    game = load_game(project / "card_data" / "bargains.yaml")
    board = parse_board(game, next(c for c in game.components if c.kind == "board"))
    odd = {
        (1, "a"): {b"\x00\xff", frozenset({2})},
        "~tilde": float("inf"),
        "t": (1, [2, (3,)]),
        "glyphs": {i: i * 2.5 for i in range(40)},
        "pairs": [(i, i + 1) for i in range(40)],
    }
    for value in (game, board, odd, Path("/x/y")):
        text = json.dumps(plain.encode(value), allow_nan=False)
        assert plain.decode(json.loads(text)) == value
    with pytest.raises(TypeError):
        plain.encode(object())


def test_off_writes_nothing(project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PNP_CACHE_DIR", "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    calls = _counting(monkeypatch)
    load_game(project / "card_data" / "bargains.yaml")
    load_game(project / "card_data" / "bargains.yaml")
    assert len(calls) == 2 and not (tmp_path / "xdg").exists()


def test_a_variant_follows_its_base(tmp_path: Path, cache_dir: Path) -> None:
    proj = make_project(tmp_path / "proj", ("fairy-meat",))
    r = run(
        "stack", "fairy-meat", "lean", "--remove", "4-6", "--project", str(proj), "--out", str(proj / "out")
    )
    assert r.code == 0, r.err
    variant = proj / "card_data" / "variants" / "lean.yaml"
    before = load_game(variant)
    base = proj / "card_data" / "fairy-meat.yaml"
    base.write_text(
        base.read_text(encoding="utf-8").replace("name: Fairy Meat", "name: Fairy Meat Two", 1),
        encoding="utf-8",
    )
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
        "print(sorted(m for m in ('yaml', 'jinja2') if m in sys.modules))\n"
    )
    env = {**os.environ, "PNP_CACHE_DIR": str(tmp_path / "cache")}
    db = str(ROOT / "card_data" / "bargains.yaml")
    outs = []
    for i in range(2):
        pdf = tmp_path / f"deck{i}.pdf"
        proc = subprocess.run(
            [sys.executable, "-c", script, db, str(pdf)], env=env, capture_output=True, text=True
        )
        assert proc.returncode == 0, proc.stderr
        outs.append((pdf.read_bytes(), proc.stdout.strip()))
    assert outs[0][0] == outs[1][0]
    assert outs[0][1] == "['jinja2', 'yaml']" and outs[1][1] == "[]"


def test_the_cache_keeps_a_bounded_number_of_entries(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cache, "KEEP", 3)
    for i in range(6):
        assert cache.cached("test", (i,), lambda i=i: (i * 10, [])) == i * 10
    assert len(list(cache_dir.glob("test-*.cache"))) == 3
    assert cache.cached("test", (5,), lambda: (-1, [])) == 50  # the newest is still there


def test_booklet_text_and_rule_checks_follow_their_inputs(
    project: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cached booklet text and rule checks: reused while nothing changed, redone after any edit."""
    from pnp.output.booklets import prepare

    db = project / "card_data" / "bargains.yaml"
    template = project / "templates" / "bargains.md.j2"

    def booklet() -> str:
        game = load_game(db, root=project)
        comp = next(c for c in game.components if c.kind == "booklet")
        return "\n".join(b.text for b in prepare(game, comp).blocks)

    first = booklet()
    assert list(cache_dir.glob("booklet-text-*.cache"))
    assert booklet() == first
    template.write_text(
        template.read_text(encoding="utf-8").replace("\n", "\nFreshly edited line.\n", 1), encoding="utf-8"
    )
    assert "Freshly edited line." in booklet() and "Freshly edited line." not in first

    from pnp.rules import checker

    calls: list[str] = []
    real = checker.check_game

    def counted(game):  # type: ignore[no-untyped-def]
        calls.append(game.slug)
        return real(game)

    monkeypatch.setattr(checker, "check_game", counted)
    assert checker.checked(load_game(db, root=project)) == checker.checked(load_game(db, root=project)) == []
    assert len(calls) == 1 and list(cache_dir.glob("rule-check-*.cache"))
    db.write_text(
        db.read_text(encoding="utf-8").replace("name: Dewdrop", "name: Dew Pearl", 1), encoding="utf-8"
    )
    assert checker.checked(load_game(db, root=project)) == []
    assert len(calls) == 2  # the edited game is checked again
