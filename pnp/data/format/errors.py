"""Error types that the CLI turns into clear messages and exit codes."""

from __future__ import annotations

import re
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


class PartlyRead(InputError):
    """Input with problems, and the model as far as it could be read: `pnp check` goes on to resolve
    its cards, so every problem of a project is named in one run."""

    def __init__(self, problems: list[Problem], model: object):
        super().__init__(problems)
        self.model = model

    def __reduce__(self) -> tuple:
        return (InputError, (self.problems,))  # across processes: the problems alone


_QUOTED = re.compile(r"'([^']{2,})'")


def echoes_left_out(found: list[Problem], read: list[Problem]) -> list[Problem]:
    """The problems resolving found, less those that only echo one reading found: at the same file and
    line (a spreadsheet row with a bad cell), or quoting a value it quotes (a palette's colour that is
    not one, met again where a card paints it)."""
    places = {(p.file, p.line) for p in read}
    quoted = {q for p in read for q in _QUOTED.findall(p.message)}
    return [
        p
        for p in found
        if (p.file, p.line) not in places and not quoted.intersection(_QUOTED.findall(p.message))
    ]


def in_order(problems: list[Problem]) -> list[Problem]:
    """Each problem once, sorted by file and line (a problem with no line first in its file)."""
    return sorted(dict.fromkeys(problems), key=lambda p: (p.file, p.line or 0))


def problem(file: str | Path, line: int | None, field: str, message: str) -> InputError:
    """Shorthand for an InputError holding a single problem."""
    return InputError([Problem(str(file), line, field, message)])
