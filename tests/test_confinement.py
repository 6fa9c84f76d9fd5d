"""Nothing outside the project is read: templates that reach out through a symlink or `..` are refused."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.conftest import make_project, run


@pytest.mark.parametrize("include", ["etc/passwd", "../../../../../../etc/passwd"])
def test_a_template_cannot_include_a_file_outside_templates(tmp_path: Path, include: str) -> None:
    proj = make_project(tmp_path / "proj", ("bargains",))
    (proj / "templates" / "etc").symlink_to("/etc")
    template = proj / "templates" / "bargains.md.j2"
    template.write_text(template.read_text(encoding="utf-8") + f"\n{{% include '{include}' %}}\n", encoding="utf-8")
    out = tmp_path / "out"
    r = run("build", "bargains", "--project", str(proj), "--out", str(out))
    assert r.code == 2, (r.code, r.err)
    assert "Traceback" not in r.err and "templates/bargains.md.j2" in r.err and "passwd" in r.err
    assert not out.exists() or not any(out.rglob("*.pdf"))
    assert "root:" not in r.err


def test_a_template_symlinked_out_of_the_project_is_refused(tmp_path: Path) -> None:
    proj = make_project(tmp_path / "proj", ("bargains",))
    outside = tmp_path / "outside.md.j2"
    outside.write_text("# A secret booklet\n", encoding="utf-8")
    template = proj / "templates" / "bargains.md.j2"
    template.unlink()
    os.symlink(outside, template)
    r = run("build", "bargains", "--project", str(proj), "--out", str(tmp_path / "out"))
    assert r.code == 2 and "Traceback" not in r.err and "inside the templates/ folder" in r.err, r.err
