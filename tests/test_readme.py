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
