"""A stranger's project cannot make pnp write or read outside it: names are slugs, and links planted
where pnp reads or writes are refused, never followed."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pnp.data.format.names import name_problem

from conftest import make_project, posix_only, run, shown

BAD_NAMES = ["../../../../tmp/escape", "a/b", "..", "deck.pdf", "two words", "CON", "lpt1", "-x", "é" * 3]


@pytest.mark.parametrize("name", BAD_NAMES)
def test_the_name_rule_refuses_what_cannot_be_a_file_name(name: str) -> None:
    assert name_problem(name) is not None


@pytest.mark.parametrize("name", ["deck", "pot-mat", "fairy_meat", "x1", "10"])
def test_the_name_rule_takes_slugs(name: str) -> None:
    assert name_problem(name) is None


def _rename_key(proj: Path, old: str, new: str) -> int:
    """Give component `old` of bargains the key `new`; its line number."""
    db = proj / "card_data" / "bargains.yaml"
    lines = db.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.strip() == f"- key: {old}")
    lines[at] = lines[at].replace(f"key: {old}", f"key: {new!r}")
    db.write_text("".join(lines), encoding="utf-8")
    return at + 1


COMMANDS = [
    ["check"],
    ["build"],
    ["build", "--tuckbox", "--cut-files"],
    ["build", "--cutter", "cricut"],
    ["export", "png"],
    ["package", "bargains"],
]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: "-".join(c))
@pytest.mark.parametrize("comp", ["deck", "rules"])
def test_a_component_key_that_is_a_path_is_refused_by_every_command(
    tmp_path: Path, command: list[str], comp: str
) -> None:
    proj = make_project(tmp_path / "a" / "b" / "c" / "proj")
    line = _rename_key(proj, comp, "../../../../escape")
    out = tmp_path / "out"
    r = run(*command, "--project", str(proj), *([] if command == ["check"] else ["--out", str(out)]))
    assert r.code == 2, (r.code, r.err)
    assert "Traceback" not in r.err
    assert f"card_data/bargains.yaml:{line}:" in r.err and "cannot be a file name" in r.err, r.err
    assert not list(tmp_path.glob("escape*")) and not list((tmp_path / "a").glob("escape*"))
    assert not out.exists() or not shown(out)


@pytest.mark.parametrize("stem", ["..", "con", "two words"])
def test_a_database_whose_file_name_is_not_a_slug_is_refused(tmp_path: Path, stem: str) -> None:
    proj = make_project(tmp_path / "proj")
    os.replace(proj / "card_data" / "bargains.yaml", proj / "card_data" / f"{stem}.yaml")
    out = tmp_path / "out"
    r = run("build", stem, "--project", str(proj), "--out", str(out))
    assert r.code == 2 and "Traceback" not in r.err, (r.code, r.err)
    assert f"card_data/{stem}.yaml" in r.err and "rename the file" in r.err, r.err
    assert "Wrote" not in r.out


def test_a_language_that_is_a_device_name_is_refused(tmp_path: Path) -> None:
    proj = make_project(tmp_path / "proj")
    db = proj / "card_data" / "bargains.yaml"
    text = db.read_text(encoding="utf-8")
    assert "\ngame:\n" in text
    db.write_text(text.replace("\ngame:\n", "\ngame:\n  languages: [en, con]\n", 1), encoding="utf-8")
    r = run("check", "--project", str(proj))
    assert r.code == 2 and "languages" in r.err and "Traceback" not in r.err, r.err


def test_a_print_tag_that_is_a_device_name_is_refused(tmp_path: Path) -> None:
    proj = make_project(tmp_path / "proj")
    r = run("build", "--project", str(proj), "--out", str(tmp_path / "out"), "--tag", "nul")
    assert r.code == 2 and "--tag" in r.err, r.err
    assert not (proj / "prints").exists()


def test_a_stacked_deck_named_after_a_device_is_refused(tmp_path: Path) -> None:
    proj = make_project(tmp_path / "proj")
    r = run("stack", "bargains", "aux", "--project", str(proj), "--out", str(tmp_path / "out"))
    assert r.code == 2 and "device name" in r.err, r.err
    assert not (proj / "card_data" / "variants").exists()


# --------------------------------------------------------------------------- folders read through links


@posix_only
def test_a_templates_folder_linked_out_of_the_project_is_not_read(tmp_path: Path) -> None:
    proj = make_project(tmp_path / "proj")
    outside = tmp_path / "etc"
    (proj / "templates").rename(outside)
    (outside / "passwd").write_text("root:x:0:0:SECRET-LINE\n", encoding="utf-8")
    (proj / "templates").symlink_to(outside, target_is_directory=True)
    db = proj / "card_data" / "bargains.yaml"
    db.write_text(
        db.read_text(encoding="utf-8").replace("template: bargains.md.j2", "template: passwd"),
        encoding="utf-8",
    )
    out = tmp_path / "out"
    for command in (["check"], ["build", "--out", str(out)]):
        r = run(*command, "--project", str(proj))
        assert r.code == 2 and "templates/ is a link to a folder outside the project" in r.err, r.err
        assert "SECRET" not in r.out + r.err
    assert not out.exists() or not shown(out)


@posix_only
def test_a_fonts_folder_linked_out_of_the_project_is_not_read(tmp_path: Path) -> None:
    proj = make_project(tmp_path / "proj")
    (proj / "fonts").rename(tmp_path / "fonts")
    (proj / "fonts").symlink_to(tmp_path / "fonts", target_is_directory=True)
    r = run("build", "--project", str(proj), "--out", str(tmp_path / "out"))
    assert r.code == 2 and "fonts" in r.err and "outside the project" in r.err, r.err


# --------------------------------------------------------------------------- links planted where pnp writes


def _outside(tmp_path: Path) -> Path:
    place = tmp_path / "outside"
    place.mkdir()
    (place / "keep.txt").write_text("untouched\n", encoding="utf-8")
    return place


def _untouched(place: Path) -> None:
    assert sorted(p.name for p in place.iterdir()) == ["keep.txt"], list(place.iterdir())
    assert (place / "keep.txt").read_text(encoding="utf-8") == "untouched\n"


@posix_only
@pytest.mark.parametrize("planted", [".pnp", "bargains", "sheets"])
def test_a_folder_of_the_output_linked_elsewhere_is_refused(tmp_path: Path, planted: str) -> None:
    proj = make_project(tmp_path / "proj")
    place = _outside(tmp_path)
    out = proj / "output"
    (out / planted).parent.mkdir(parents=True, exist_ok=True)
    (out / planted).symlink_to(place, target_is_directory=True)
    r = run("build", "--project", str(proj))
    if planted == "sheets":  # pnp sheets writes there
        r = run("sheets", "--project", str(proj))
    assert r.code == 2 and "link" in r.err and "Traceback" not in r.err, (r.code, r.err)
    _untouched(place)


@posix_only
def test_an_output_folder_linked_out_of_the_project_is_refused(tmp_path: Path) -> None:
    proj = make_project(tmp_path / "proj")
    place = _outside(tmp_path)
    (proj / "output").symlink_to(place, target_is_directory=True)
    r = run("build", "--project", str(proj))
    assert r.code == 2 and "--out" in r.err and "link" in r.err, r.err
    _untouched(place)


@posix_only
def test_a_link_at_the_lock_file_is_refused(tmp_path: Path) -> None:
    proj = make_project(tmp_path / "proj")
    place = _outside(tmp_path)
    (proj / "output").mkdir()
    (proj / "output" / ".pnp.lock").symlink_to(place / "keep.txt")
    r = run("build", "--project", str(proj))
    assert r.code == 2 and "lock" in r.err, r.err
    _untouched(place)


@posix_only
@pytest.mark.parametrize("planted", ["variants", "variants/lean.yaml", "variants/.lean.yaml.tmp"])
def test_links_planted_where_pnp_stack_writes_are_not_followed(tmp_path: Path, planted: str) -> None:
    proj = make_project(tmp_path / "proj")
    place = _outside(tmp_path)
    link = proj / "card_data" / planted
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(place if planted == "variants" else place / "keep.txt")
    r = run("stack", "bargains", "lean", "--project", str(proj), "--out", str(tmp_path / "out"))
    _untouched(place)
    if planted == "variants":
        assert r.code == 2 and "link" in r.err, r.err
    else:  # the file takes the link's place; the link's target is left alone
        assert r.code == 0, r.err
        written = proj / "card_data" / "variants" / "lean.yaml"
        assert not written.is_symlink() and "variant:" in written.read_text(encoding="utf-8")


@posix_only
@pytest.mark.parametrize("planted", ["prints", "prints/bargains"])
def test_links_planted_where_a_tagged_print_is_kept_are_refused(tmp_path: Path, planted: str) -> None:
    proj = make_project(tmp_path / "proj")
    place = _outside(tmp_path)
    (proj / planted).parent.mkdir(parents=True, exist_ok=True)
    (proj / planted).symlink_to(place, target_is_directory=True)
    r = run("build", "--project", str(proj), "--out", str(tmp_path / "out"), "--tag", "first")
    assert r.code == 2 and "link" in r.err and "Traceback" not in r.err, (r.code, r.err)
    _untouched(place)
