"""Nothing outside the project is read: templates that reach out through a symlink or `..` are refused."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from conftest import ROOT, make_project, posix_only, run, shown


@pytest.mark.parametrize("include", ["etc/passwd", "../../../../../../etc/passwd"])
def test_a_template_cannot_include_a_file_outside_templates(tmp_path: Path, include: str) -> None:
    proj = make_project(tmp_path / "proj", ("bargains",))
    (proj / "templates" / "etc").symlink_to("/etc")
    template = proj / "templates" / "bargains.md.j2"
    template.write_text(
        template.read_text(encoding="utf-8") + f"\n{{% include '{include}' %}}\n", encoding="utf-8"
    )
    out = tmp_path / "out"
    r = run("build", "bargains", "--project", str(proj), "--out", str(out))
    assert r.code == 2, (r.code, r.err)
    assert "Traceback" not in r.err and "templates/bargains.md.j2" in r.err and "passwd" in r.err
    assert not out.exists() or not any(shown(out, ".pdf"))
    assert "root:" not in r.err


@posix_only
def test_a_template_symlinked_out_of_the_project_is_refused(tmp_path: Path) -> None:
    proj = make_project(tmp_path / "proj", ("bargains",))
    outside = tmp_path / "outside.md.j2"
    outside.write_text("# A secret booklet\n", encoding="utf-8")
    template = proj / "templates" / "bargains.md.j2"
    template.unlink()
    os.symlink(outside, template)
    r = run("build", "bargains", "--project", str(proj), "--out", str(tmp_path / "out"))
    assert r.code == 2 and "Traceback" not in r.err and "inside the templates/ folder" in r.err, r.err


def _art_project(tmp: Path, art: str) -> Path:
    from artwork import game_yaml, project

    face = f'layout: value\n    slots: {{value: "1", title: "{{{{ card.name }}}}", art: {art}}}'
    return project(tmp / "proj", game_yaml(face, "      - {key: a, name: A}"))


def test_an_svg_reference_outside_the_project_is_not_read(tmp_path: Path) -> None:
    """An SVG picture's <image href> that leads out of the project draws nothing from there."""
    from artwork import image_boxes, picture

    picture(tmp_path / "secret.png", (40, 40))
    root = _art_project(tmp_path, "art/pic.svg")
    (root / "art" / "pic.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="40" height="40">'
        '<rect width="40" height="40" fill="#88aa44"/>'
        '<image x="0" y="0" width="40" height="40" xlink:href="../../secret.png"/>'
        f'<image x="0" y="0" width="40" height="40" xlink:href="{tmp_path / "secret.png"}"/></svg>',
        encoding="utf-8",
    )
    r = run("build", "--project", str(root), "--out", str(tmp_path / "out"))
    assert r.code == 0, r.err
    assert not image_boxes(
        tmp_path / "out" / "art" / "deck.pdf"
    )  # the rectangle drawn, no picture from outside


def test_an_own_symbol_linked_outside_the_project_is_not_a_symbol(tmp_path: Path) -> None:
    from artwork import CAP_SVG

    outside = tmp_path / "cap.svg"
    outside.write_text(CAP_SVG, encoding="utf-8")
    root = _art_project(tmp_path, "cap")
    (root / "art" / "symbols" / "cap.svg").symlink_to(outside)
    r = run("check", "--project", str(root))
    assert r.code == 2 and "unknown symbol 'cap'" in r.err and "Traceback" not in r.err, r.err


def test_a_picture_too_large_is_refused_before_it_is_decoded(tmp_path: Path) -> None:
    """A 13,000 x 13,000 pixel PNG (a few hundred KB on disk) is an error naming its size, at once."""
    from PIL import Image

    root = _art_project(tmp_path, "art/huge.png")
    Image.new("1", (13_000, 13_000)).save(root / "art" / "huge.png")
    r = run("check", "--project", str(root))
    assert r.code == 2 and "13000 x 13000 pixels" in r.err and "Traceback" not in r.err, r.err


def test_symlink_loops_are_named_not_crashed_on(tmp_path: Path) -> None:
    """A picture or a booklet template that is a link to itself: a file:line error each."""
    root = tmp_path / "lp"
    assert run("new", str(root)).code == 0
    db = root / "card_data" / "lanterns.yaml"
    (root / "art" / "loop.png").symlink_to("loop.png")
    db.write_text(
        db.read_text(encoding="utf-8").replace("file: art/lantern.svg", "file: art/loop.png"),
        encoding="utf-8",
    )
    r = run("check", "--project", str(root))
    assert (
        r.code == 2 and "lanterns.yaml:" in r.err and "art/loop.png" in r.err and "Traceback" not in r.err
    ), r.err
    db.write_text(
        db.read_text(encoding="utf-8").replace("file: art/loop.png", "file: art/lantern.svg"),
        encoding="utf-8",
    )
    (root / "templates" / "loop.md.j2").symlink_to("loop.md.j2")
    db.write_text(
        db.read_text(encoding="utf-8").replace("template: rules.md.j2", "template: loop.md.j2"),
        encoding="utf-8",
    )
    r = run("check", "--project", str(root))
    assert r.code == 2 and "loop.md.j2" in r.err and "Traceback" not in r.err, r.err


def test_a_database_or_variant_linked_to_a_file_outside_the_project_is_refused(tmp_path: Path) -> None:
    """card_data/x.yaml or a variant that is a symlink to a file elsewhere is not read (the file named);
    a database given by its own path outside the project is the user's choice and is read."""
    root = make_project(tmp_path / "proj", ())
    outside = tmp_path / "elsewhere" / "bargains.yaml"
    outside.parent.mkdir()
    outside.write_bytes((ROOT / "card_data" / "bargains.yaml").read_bytes())
    (root / "card_data" / "bargains.yaml").symlink_to(outside)
    r = run("check", "--project", str(root))
    assert r.code == 2 and "card_data/bargains.yaml" in r.err and "outside the project" in r.err, r.err
    (root / "card_data" / "bargains.yaml").unlink()
    (root / "card_data" / "bargains.yaml").write_bytes(outside.read_bytes())
    variant = tmp_path / "elsewhere" / "rich.yaml"
    variant.write_text("variant:\n  name: rich\n  base: bargains\n  add:\n  - 10s\n", encoding="utf-8")
    (root / "card_data" / "variants").mkdir()
    (root / "card_data" / "variants" / "rich.yaml").symlink_to(variant)
    r = run("check", str(root / "card_data" / "variants" / "rich.yaml"), "--project", str(root))
    assert r.code == 2 and "variants/rich.yaml" in r.err and "outside the project" in r.err, r.err
    assert run("check", str(outside), "--project", str(root)).code == 0  # named by the user, outside: read
