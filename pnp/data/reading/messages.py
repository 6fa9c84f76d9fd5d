"""Read pnp's own words in one language: the catalogue shipped with pnp (`pnp/messages/<lang>.yaml`),
then the project's own `messages/<lang>.yaml` over it; English (`pnp.data.format.messages`) wherever
neither has a phrase."""

from __future__ import annotations

import difflib
from pathlib import Path

from pnp.data.format.errors import InputError, Problem
from pnp.data.format.located import Located, line_of
from pnp.data.format.messages import ENGLISH, blanks
from pnp.data.reading.project import SHIPPED_MESSAGES, catalogues
from pnp.data.reading.yamlsrc import load_yaml


def read_words(root: Path, lang: str) -> tuple[dict[str, str], list[Problem]]:
    """pnp's phrases in `lang` (key -> phrase) and the problems of the catalogues read."""
    words: dict[str, str] = {}
    problems: list[Problem] = []
    home = Path(root).resolve()
    for path, name in catalogues(Path(root), lang):
        if path.parent != SHIPPED_MESSAGES and not path.resolve().is_relative_to(home):
            problems.append(
                Problem(
                    name,
                    None,
                    "",
                    "a link to a file outside the project; pnp reads only the "
                    "project's own files (copy it here)",
                )
            )
            continue
        try:
            data = load_yaml(path, name)
        except InputError as exc:
            problems += exc.problems
            continue
        if not isinstance(data, Located):
            problems.append(Problem(name, 1, "", "a message catalogue is a mapping: key: phrase"))
            continue
        for key, text in data.items():
            found = _phrase(name, line_of(data, key), key, text)
            if isinstance(found, Problem):
                problems.append(found)
            else:
                words[key] = found
    return words, problems


def _phrase(name: str, line: int | None, key: object, text: object) -> str | Problem:
    if not isinstance(key, str) or key not in ENGLISH:
        close = difflib.get_close_matches(str(key), list(ENGLISH), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        return Problem(name, line, str(key), f"pnp has no phrase called {key!r}{hint}")
    if not isinstance(text, str) or not text.strip():
        return Problem(name, line, key, "the phrase must be text")
    want, got = blanks(ENGLISH[key]), blanks(text)
    if want != got:
        shown = ", ".join(f"{{{b}}}" for b in sorted(want)) or "none"
        return Problem(
            name,
            line,
            key,
            f"the phrase must use the blanks {shown}, as the English one does; "
            f"found {', '.join(f'{{{b}}}' for b in sorted(got)) or 'none'}",
        )
    return text
