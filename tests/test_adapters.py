"""What pnp depends on is declared, used through one adapter per library, and followed by the cache.

- every third-party import of tests/ and bench/ is a declared dependency;
- `pnp --version` names each adapted library and whether its adapter is on;
- with the adapters off (PNP_ADAPTERS=off, what an untested release gets) a whole game
  still builds the same pages, only through the libraries' public calls;
- a cache entry made under one library version is a miss under another.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pypdfium2
import pytest

from pnp.adapters import Gate, series

from conftest import ROOT, make_project, shown

# import name -> distribution, where they differ
_DISTRIBUTION = {"PIL": "pillow", "yaml": "pyyaml"}


def _specs(runtime_only: bool = False) -> list[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = [] if runtime_only else [s for extra in project["optional-dependencies"].values() for s in extra]
    return list(project["dependencies"]) + extras


def _declared(runtime_only: bool = False) -> set[str]:
    return {
        spec.split(">")[0].split("[")[0].split("=")[0].split(";")[0].strip().lower()
        for spec in _specs(runtime_only)
    }


def _optional(tree: ast.AST) -> set[int]:
    """Line numbers of imports inside `try: ... except ImportError` (optional by design)."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Try) and any(
            isinstance(h.type, ast.Name) and h.type.id in ("ImportError", "ModuleNotFoundError")
            for h in node.handlers
        ):
            lines.update(
                n.lineno
                for stmt in node.body
                for n in ast.walk(stmt)
                if isinstance(n, (ast.Import, ast.ImportFrom))
            )
    return lines


def _third_party_imports() -> dict[str, list[str]]:
    """Top-level names of every import in tests/ and bench/ that is neither stdlib nor local -> where."""
    local = {"pnp", "tests", "bench"} | {p.stem for d in ("tests", "bench") for p in (ROOT / d).glob("*.py")}
    found: dict[str, list[str]] = {}
    for folder in ("tests", "bench"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            optional = _optional(tree)
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                    names = [node.module]
                else:
                    continue
                for name in names:
                    top = name.split(".")[0]
                    if top in sys.stdlib_module_names or top in local or node.lineno in optional:
                        continue
                    found.setdefault(top, []).append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_every_import_of_the_tests_and_benchmarks_is_declared() -> None:
    declared = _declared()
    missing = {
        name: where
        for name, where in _third_party_imports().items()
        if _DISTRIBUTION.get(name, name).lower() not in declared
    }
    assert not missing, f"imported but not in pyproject.toml's dependencies or [test] extra: {missing}"


def test_the_import_check_sees_an_undeclared_import(tmp_path: Path) -> None:
    tree = ast.parse("try:\n    import protograf\nexcept ImportError:\n    pass\nimport numpy\n")
    assert _optional(tree) == {2}
    assert "numpy" in _third_party_imports() and "numpy" in _declared()


def test_every_dependency_declares_a_minimum_that_ci_pins() -> None:
    """Every dependency, test tools too, declares a lowest release (`>=`); .ci/minimums.py pins each
    runtime one to it for CI's minimums pass (the test tools stay at their newest)."""
    assert all(">=" in spec for spec in _specs()), [s for s in _specs() if ">=" not in s]
    proc = subprocess.run([sys.executable, str(ROOT / ".ci" / "minimums.py")], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    pins = dict(line.split("==") for line in proc.stdout.split())
    assert set(pins) == _declared(runtime_only=True) and all(v[0].isdigit() for v in pins.values())


def _pnp(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pnp", *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=300,
    )


def test_version_names_each_adapter_and_its_state() -> None:
    on, off = _pnp("--version"), _pnp("--version", env={"PNP_ADAPTERS": "off"})
    assert on.returncode == 0 and off.returncode == 0, on.stderr + off.stderr
    for library in ("reportlab", "pillow", "jinja2", "python"):
        line = next(li for li in on.stdout.splitlines() if li.strip().startswith(library + " "))
        assert "adapter on" in line or "public API only" in line, line
        off_line = next(li for li in off.stdout.splitlines() if li.strip().startswith(library + " "))
        assert "public API only" in off_line, off_line
        if "adapter on" in line:  # a tested release: off only because it was asked for
            assert "PNP_ADAPTERS=off" in off_line, off_line
        else:  # an untested release: says which were tested
            assert "adapter tested on" in line, line


def test_a_gate_opens_only_on_tested_series(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PNP_ADAPTERS", raising=False)
    assert series("4.4.10") == "4.4"
    assert Gate("x", "4.4.10", ("4.4", "5.1")).active
    assert not Gate("x", "5.2.0", ("4.4", "5.1")).active
    assert "tested on 4.4.x, 5.1.x only" in Gate("x", "5.2.0", ("4.4", "5.1")).describe()
    monkeypatch.setenv("PNP_ADAPTERS", "off")
    assert not Gate("x", "4.4.10", ("4.4", "5.1")).active


def _pages(pdf: Path) -> list[tuple[str, bytes]]:
    """Each page's text and its pixels at 30 dpi."""
    doc = pypdfium2.PdfDocument(str(pdf))
    try:
        return [
            (
                doc[i].get_textpage().get_text_range(),
                doc[i].render(scale=30 / 72).to_pil().convert("L").tobytes(),
            )
            for i in range(len(doc))
        ]
    finally:
        doc.close()


@pytest.mark.slow
def test_without_adapters_a_game_builds_the_same_pages(tmp_path: Path) -> None:
    """Feenbalz (cards, symbols, own art, boards, booklet two ways) with the adapters off: the same
    files, pages, text and pixels (within 2/255 per pixel: ReportLab's own stream settings differ),
    while the PDF/X output that needs ReportLab internals is refused with the reason."""
    project = make_project(tmp_path / "proj", ("feenbalz",))
    built = {}
    for label, env in (("on", {}), ("off", {"PNP_ADAPTERS": "off", "PNP_CACHE_DIR": "off"})):
        out = tmp_path / label
        proc = _pnp("build", "--project", str(project), "--out", str(out), env=env)
        assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
        built[label] = {p.relative_to(out).as_posix(): p for p in sorted(shown(out, ".pdf"))}
    assert set(built["on"]) == set(built["off"]) and len(built["on"]) >= 6
    for name, path in built["on"].items():
        mine, theirs = _pages(path), _pages(built["off"][name])
        assert len(mine) == len(theirs), name
        for (text, pixels), (text2, pixels2) in zip(mine, theirs):
            assert text == text2, name
            assert len(pixels) == len(pixels2) and max(abs(a - b) for a, b in zip(pixels, pixels2)) <= 2, name
    cmyk = _pnp(
        "build",
        "--project",
        str(project),
        "--out",
        str(tmp_path / "cmyk"),
        "--cmyk",
        env={"PNP_ADAPTERS": "off"},
    )
    assert cmyk.returncode == 2 and "PDF/X output needs ReportLab internals" in cmyk.stderr, cmyk.stderr
    assert "Traceback" not in cmyk.stderr


def _entries(cache: Path) -> set[str]:
    return {p.relative_to(cache).as_posix() for p in cache.rglob("*.cache")}


def test_a_library_upgrade_misses_every_cache_entry(tmp_path: Path) -> None:
    """A (fake) newer ReportLab on the path: the entries made under the old one are not read back;
    the same version again reads them (nothing new written)."""
    project = make_project(tmp_path / "proj", ("bargains",))
    cache = tmp_path / "cache"
    fake = tmp_path / "fake-site"
    (fake / "reportlab-99.0.0.dist-info").mkdir(parents=True)
    env = {"PNP_CACHE_DIR": str(cache)}
    upgraded = {**env, "PYTHONPATH": os.pathsep.join([str(fake), os.environ.get("PYTHONPATH", "")])}

    def build(environment: dict[str, str]) -> set[str]:
        proc = _pnp(
            "build", "--project", str(project), "--out", str(tmp_path / "out"), "--clean", env=environment
        )
        assert proc.returncode == 0, proc.stderr
        return _entries(cache)

    first = build(env)
    assert first and build(env) == first  # warm: every entry read back, none made anew
    after = build(upgraded)
    fresh = after - first
    assert {name.split("/")[-1].split("-")[0] for name in fresh} >= {"game", "ttf", "symbol"}, fresh
    assert build(upgraded) == after


def test_without_adapters_the_toolbox_still_draws(tmp_path: Path) -> None:
    """examples/toolbox with the adapters off: gradients drawn as narrow bands of colour and
    see-through inks as the opaque inks they give on paper (a form ReportLab writes itself keeps no
    shading or graphics state: every state a form names is in its resources), booklet icons
    printed as written, everything else the same."""
    import shutil

    import numpy as np

    project = tmp_path / "toolbox"
    shutil.copytree(ROOT / "examples" / "toolbox", project)
    out = {}
    for label, env in (("on", {}), ("off", {"PNP_ADAPTERS": "off", "PNP_CACHE_DIR": "off"})):
        out[label] = tmp_path / label
        proc = _pnp("build", "--project", str(project), "--out", str(out[label]), env=env)
        assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    for name in ("deck.pdf", "coins.pdf"):
        (on_text, on_px), (off_text, off_px) = (_pages(out[k] / "toolbox" / name)[0] for k in ("on", "off"))
        a, b = np.frombuffer(on_px, np.uint8).astype(int), np.frombuffer(off_px, np.uint8).astype(int)
        assert on_text == off_text and np.abs(a - b).mean() < 1.5, (name, float(np.abs(a - b).mean()))
    on_rules, off_rules = (_pages(out[k] / "toolbox" / "rules.pdf")[0][0] for k in ("on", "off"))
    assert "{sun}" not in on_rules and "{sun}" in off_rules
    for label in ("on", "off"):
        for pdf in (out[label] / "toolbox").glob("*.pdf"):
            assert not _unknown_resources(pdf), (label, pdf.name, _unknown_resources(pdf))


def _unknown_resources(pdf: Path) -> set[str]:
    """Graphics states and shadings a form's content names that its resources do not hold."""
    import re

    from pypdf import PdfReader

    missing: set[str] = set()
    for page in PdfReader(pdf).pages:
        for xobject in (page.get("/Resources") or {}).get("/XObject", {}).values():
            form = xobject.get_object()
            if form.get("/Subtype") != "/Form":
                continue
            data = form.get_data().decode("latin-1")
            resources = form.get("/Resources") or {}
            for op, kind in (("gs", "/ExtGState"), ("sh", "/Shading")):
                named = set(re.findall(r"/([A-Za-z0-9_]+)\s+" + op + r"\b", data))
                held = {k.lstrip("/") for k in (resources.get(kind) or {})}
                missing |= {f"{kind} {n}" for n in named - held}
    return missing
