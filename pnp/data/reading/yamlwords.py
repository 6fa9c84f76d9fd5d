"""YAML syntax errors in plain words: where the mistake is and what to type instead.

PyYAML words its errors for parser writers ("did not find expected key",
"found character that cannot start any token"). `explain` turns the common
ones into what a person editing a database needs: the line and column, what is
wrong there (a tab, a line out of step with its neighbours, a missing colon, an
unclosed quote or bracket) and how to fix it. Anything unforeseen keeps
PyYAML's words. The caller puts "YAML syntax:" before each.
"""

from __future__ import annotations

from typing import Any


def explain(exc: Any, text: str) -> tuple[int | None, str]:
    """(line, message) for a yaml.MarkedYAMLError raised while reading `text`."""
    said = f"{exc.problem or ''} {exc.context or ''}"
    mark, start = exc.problem_mark, exc.context_mark
    line = mark.line + 1 if mark else start.line + 1 if start else None
    col = mark.column + 1 if mark else None
    since = (
        f" (the block begun on line {start.line + 1})" if start and mark and start.line != mark.line else ""
    )
    char = _char(text, mark)
    if "cannot start any token" in said and char == "\t":
        return line, (
            f"a tab at column {col}; YAML indents with spaces only: replace the tab with spaces "
            "(your editor can insert spaces when you press Tab)"
        )
    if "cannot start any token" in said:
        return line, (
            f'{char!r} at column {col} cannot begin a value; put the value in quotes, e.g. "{char}..."'
        )
    if "could not find expected ':'" in said:
        at = start.line + 1 if start else line
        return at, (
            "a line with no colon: a key needs ': ' after it (name: value), and text that goes on "
            "over several lines must be indented under its key or put in quotes"
        )
    if "mapping values are not allowed" in said:
        return line, (
            f"a ': ' at column {col} where no key can start: either this line is indented deeper "
            "than the key above it (line keys up, with spaces), or a value holds a colon and needs "
            'quotes, e.g. text: "Cost: 3"'
        )
    if "did not find expected key" in said or "expected <block end>" in said:
        return line, (
            f"this line is indented differently from the keys above it{since}; line up each key "
            "with the others of its mapping (spaces only), or indent a value under its key"
        )
    if "did not find expected '-' indicator" in said:
        return line, (
            f"this line breaks off a list{since}; every '- ' item of one list starts in the same column"
        )
    if "found unexpected end of stream" in said and "quoted" in said:
        return (
            start.line + 1 if start else line
        ), "a quote opened here is never closed; end the text with the same quote"
    if "flow mapping" in said or "flow sequence" in said:
        close = "}" if "mapping" in said else "]"
        began = f" begun on line {start.line + 1}" if start else ""
        return line, (
            f"the {'{' if close == '}' else '['} ... {close}{began} runs on to column {col} here: it "
            f"lacks a ',' between items or its closing {close!r}"
        )
    if "found undefined alias" in said:
        return (
            line,
            f"'*' at column {col} names an anchor that was never set with '&'; quote a value that begins with '*'",
        )
    if "found unknown escape character" in said:
        return line, (
            f"a backslash at column {col} that double quotes do not know; write \\\\ for a backslash, "
            "or use single quotes"
        )
    words = exc.problem or exc.context or str(exc)
    return line, words + (f" (column {col})" if col else "")


def _char(text: str, mark: Any) -> str:
    """The character at a mark, '' past the end."""
    if mark is None:
        return ""
    lines = text.split("\n")
    if mark.line >= len(lines) or mark.column >= len(lines[mark.line]):
        return ""
    return lines[mark.line][mark.column]
