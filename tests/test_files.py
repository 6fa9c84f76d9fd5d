"""Writing and reading inside one folder whatever links are planted in it (pnp/data/store/files.py),
with the system's O_NOFOLLOW and as on Windows, where it is missing (nofollow=0)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pnp.data.store import files
from pnp.data.store.files import OutsideRoot, confined, read_bytes_confined, write_bytes_atomic

SYSTEM_OR_WINDOWS = pytest.mark.parametrize("nofollow", [None, 0], ids=["system", "no-O_NOFOLLOW"])


def _link(link: Path, to: Path) -> None:
    try:
        link.symlink_to(to, target_is_directory=to.is_dir())
    except OSError as exc:  # Windows without the right to make links
        pytest.skip(f"cannot make a symbolic link here: {exc}")


@pytest.fixture()
def places(tmp_path: Path) -> tuple[Path, Path]:
    """A root folder with a `data` folder in it, and a file outside the root."""
    root = tmp_path / "root"
    (root / "data").mkdir(parents=True)
    outside = tmp_path / "outside.txt"
    outside.write_bytes(b"outside, untouched\n")
    return root, outside


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


@SYSTEM_OR_WINDOWS
def test_a_file_is_written_and_replaced_whole(places: tuple[Path, Path], nofollow: int | None) -> None:
    root, _ = places
    path = root / "data" / "a.csv"
    assert write_bytes_atomic(path, b"one\n", root=root, nofollow=nofollow) == path.resolve()
    write_bytes_atomic(path, b"two\n", root=root, nofollow=nofollow)
    assert path.read_bytes() == b"two\n" and _leftovers(path.parent) == []


@SYSTEM_OR_WINDOWS
def test_a_link_at_the_name_is_replaced_not_written_through(
    places: tuple[Path, Path], nofollow: int | None
) -> None:
    root, outside = places
    path = root / "data" / "a.csv"
    _link(path, outside)
    write_bytes_atomic(path, b"new\n", root=root, nofollow=nofollow)
    assert outside.read_bytes() == b"outside, untouched\n"
    assert not path.is_symlink() and path.read_bytes() == b"new\n"


@SYSTEM_OR_WINDOWS
def test_a_link_at_the_temporary_name_is_passed_over(places: tuple[Path, Path], nofollow: int | None) -> None:
    """The temporary file is made exclusively: a link (even a dangling one) at a name tried is never
    opened; the next random name is used."""
    root, outside = places
    path = root / "data" / "a.csv"
    planted = [path.with_name(".a.csv.planted.tmp"), path.with_name(".a.csv.dangling.tmp")]
    _link(planted[0], outside)
    _link(planted[1], root.parent / "nowhere")
    names = iter([*planted, path.with_name(".a.csv.free.tmp")])
    write_bytes_atomic(path, b"new\n", root=root, nofollow=nofollow, name=lambda p: next(names))
    assert outside.read_bytes() == b"outside, untouched\n" and not (root.parent / "nowhere").exists()
    assert path.read_bytes() == b"new\n" and all(p.is_symlink() for p in planted)


def test_when_every_temporary_name_is_taken_nothing_is_written(places: tuple[Path, Path]) -> None:
    root, _ = places
    path = root / "data" / "a.csv"
    taken = path.with_name(".a.csv.taken.tmp")
    taken.write_bytes(b"someone else's\n")
    with pytest.raises(FileExistsError, match="no free temporary name"):
        write_bytes_atomic(path, b"new\n", root=root, name=lambda p: taken)
    assert not path.exists() and taken.read_bytes() == b"someone else's\n"


def test_a_failed_write_leaves_the_old_file_and_no_temporary(
    places: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, _ = places
    path = root / "data" / "a.csv"
    path.write_bytes(b"old\n")

    def full_disk(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "fsync", full_disk)
    with pytest.raises(OSError, match="No space"):
        write_bytes_atomic(path, b"new\n", root=root)
    assert path.read_bytes() == b"old\n" and _leftovers(path.parent) == []


def test_a_folder_linked_outside_the_root_is_refused(places: tuple[Path, Path], tmp_path: Path) -> None:
    root, _ = places
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    _link(root / "linked", elsewhere)
    with pytest.raises(OutsideRoot, match="must stay inside") as caught:
        write_bytes_atomic(root / "linked" / "a.csv", b"new\n", root=root)
    assert caught.value.resolved == elsewhere.resolve() and list(elsewhere.iterdir()) == []
    with pytest.raises(OutsideRoot):
        write_bytes_atomic(root / ".." / "escaped.csv", b"new\n", root=root)
    assert not (tmp_path / "escaped.csv").exists()


def test_confined_follows_links_and_refuses_what_leaves(places: tuple[Path, Path], tmp_path: Path) -> None:
    root, outside = places
    _link(root / "data" / "inner", root / "data")
    assert confined(root / "data" / "inner" / "x.csv", root) == (root / "data" / "x.csv").resolve()
    assert confined(root / "data" / "not-yet.csv", root) == (root / "data" / "not-yet.csv").resolve()
    _link(root / "data" / "dangling", tmp_path / "not-yet-made")
    _link(root / "data" / "loop", root / "data" / "loop")
    for path in ("dangling", "loop"):
        with pytest.raises(OutsideRoot):
            confined(root / "data" / path, root)


def test_reading_refuses_a_link_that_leaves_the_root(places: tuple[Path, Path]) -> None:
    root, outside = places
    (root / "data" / "own.yaml").write_bytes(b"mine\n")
    _link(root / "data" / "inside.yaml", root / "data" / "own.yaml")
    assert read_bytes_confined(root / "data" / "inside.yaml", root) == b"mine\n"
    _link(root / "data" / "record.yaml", outside)
    with pytest.raises(OutsideRoot, match="outside.txt"):
        read_bytes_confined(root / "data" / "record.yaml", root)


def test_the_temporary_file_is_opened_exclusively(
    places: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """O_CREAT|O_EXCL always, and O_NOFOLLOW where the system has it."""
    root, _ = places
    flags: list[int] = []
    real_open = os.open

    def watched(path: str | os.PathLike[str], how: int, mode: int = 0o777) -> int:
        flags.append(how)
        return real_open(path, how, mode)

    monkeypatch.setattr(files.os, "open", watched)
    write_bytes_atomic(root / "data" / "a.csv", b"x", root=root)
    assert flags and all(f & os.O_CREAT and f & os.O_EXCL for f in flags)
    if hasattr(os, "O_NOFOLLOW"):
        assert all(f & os.O_NOFOLLOW for f in flags)
