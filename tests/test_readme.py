"""The README's two set-up commands stay true: CI runs the test command verbatim."""

from __future__ import annotations

import re

from conftest import ROOT


def setup_commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    section = text.split("## Set up on a fresh machine", 1)[1].split("\n## ", 1)[0]
    return [block.strip() for block in re.findall(r"```sh\n(.*?)```", section, re.S)]


def test_two_setup_commands_build_and_test() -> None:
    build, test = setup_commands()
    assert build.startswith("./setup.sh") and "pnp build" in build
    assert test.startswith("./setup.sh test") and "pytest" in test
    assert test in (ROOT / ".ci" / "run").read_text()
    assert (ROOT / "setup.sh").stat().st_mode & 0o111, "setup.sh must be executable"


def test_the_version_is_the_changelogs_newest_release() -> None:
    from pnp import __version__

    from conftest import run

    released = re.findall(
        r"^## (\d+\.\d+\.\d+) - \d{4}-\d{2}-\d{2}$", (ROOT / "CHANGELOG.md").read_text(), re.M
    )
    assert released and released[0] == __version__, (released[:1], __version__)
    assert __version__ in run("--version").out


def test_contributing_maps_every_package() -> None:
    guide = (ROOT / "CONTRIBUTING.md").read_text()
    packages = {p.parent.relative_to(ROOT).as_posix() for p in (ROOT / "pnp").glob("*/__init__.py")}
    missing = [p for p in sorted(packages) if f"`{p}/" not in guide]  # pnp/data by its rooms
    assert not missing, f"CONTRIBUTING.md's map lacks {missing}"
