"""What YAML did to a value that reads as nothing: `accent: #d9822b` is a key with no value and a
comment, so the model sees nothing where a colour was meant. Problems about such lines say so."""

from __future__ import annotations

import re
from pathlib import Path

from pnp.data.format.errors import Problem

COMMENT_HINT = 'a `#` starts a YAML comment: quote a colour that begins with it ("#d9822b")'
_HASH_VALUE = re.compile(r":\s+#")  # `key: #...`: the value read as a comment


def with_comment_hints(
    problems: list[Problem], file: str, path: Path, content: bytes | None = None
) -> list[Problem]:
    """`problems` with the comment hint added to each "found nothing" at a line of `file` (read from
    `path`, or `content`, its bytes as an edit leaves them) that gives its value as `#...`."""
    if not any(p.message.endswith("found nothing") for p in problems):
        return problems
    try:
        text = (content if content is not None else path.read_bytes()).decode("utf-8", "replace")
    except OSError:
        return problems
    lines = text.splitlines()
    out = []
    for p in problems:
        line = lines[p.line - 1] if p.file == file and p.line and 0 < p.line <= len(lines) else ""
        if p.message.endswith("found nothing") and _HASH_VALUE.search(line):
            p = Problem(p.file, p.line, p.field, f"{p.message}; {COMMENT_HINT}")
        out.append(p)
    return out
