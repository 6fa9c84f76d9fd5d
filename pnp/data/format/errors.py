"""Error types that the CLI turns into clear messages and exit codes."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input file, located as precisely as known."""

    file: str
    line: int | None
    field: str
    message: str

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        return f"{where}: {self.field}: {self.message}" if self.field else f"{where}: {self.message}"


class InputError(Exception):
    """Unusable input (exit code 2). Carries every problem found, not just the first."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


def in_order(problems: list[Problem]) -> list[Problem]:
    """Each problem once, sorted by file and line (a problem with no line first in its file)."""
    return sorted(dict.fromkeys(problems), key=lambda p: (p.file, p.line or 0))


def problem(file: str | Path, line: int | None, field: str, message: str) -> InputError:
    """Shorthand for an InputError holding a single problem."""
    return InputError([Problem(str(file), line, field, message)])
