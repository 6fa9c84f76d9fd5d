"""Print a pip constraints file pinning pnp's runtime dependencies to their declared minimums.

Used by .ci/run for the minimums pass (as fpdf2's CI does): `name>=X` becomes
`name==X` for each of `[project] dependencies`. The test tools (pytest, hypothesis,
numpy, selenium...) are left at their newest: they test nothing of pnp's. A runtime
dependency declared without a minimum is an error, so each range is tested at its lower end.
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

_SPEC = re.compile(r"^\s*([A-Za-z0-9_.-]+)(?:\[[^\]]*\])?\s*(.*)$")


def minimums(pyproject: Path) -> dict[str, str]:
    """Distribution name (lower case) -> its declared minimum version."""
    project = tomllib.loads(pyproject.read_text())["project"]
    specs = list(project.get("dependencies", []))
    out: dict[str, str] = {}
    for spec in specs:
        match = _SPEC.match(spec.split(";")[0])
        if match is None:
            raise SystemExit(f"cannot read dependency {spec!r}")
        name, rest = match.group(1).lower(), match.group(2)
        lower = re.search(r">=\s*([0-9][^,\s]*)", rest)
        if lower is None:
            raise SystemExit(f"dependency {spec!r} declares no minimum (>=)")
        if out.get(name, lower.group(1)) != lower.group(1):
            raise SystemExit(f"{name} has two different minimums: {out[name]} and {lower.group(1)}")
        out[name] = lower.group(1)
    return out


if __name__ == "__main__":
    root = Path(__file__).resolve().parent.parent
    for name, version in sorted(minimums(root / "pyproject.toml").items()):
        sys.stdout.write(f"{name}=={version}\n")
