"""A small markdown-like text format: blocks for rule booklets, inline markup for booklets and cards.

Inline (card text, every text slot, booklet paragraphs): **bold**, *italic*,
{icon} (a symbol name), [#c00 120% font=NAME]{a span}, a newline breaks a card
line, and a backslash keeps `*`, `{`, `}`, `[` or `\\` literal; its one reader is
`pnp.resolve.inline_markup`.

    # Title                  ## Section              ### Subsection
    A paragraph runs until a blank line. **bold**, *italic*.
    - bullet item            1. numbered item       (continuation lines are indented)
    | head | head |          a table: header row, a |---| rule, then body rows
    |------|------|
    | cell | cell |
    > A boxed aside, e.g. a worked example; > lines join into paragraphs.
    [[cards KEY KEY ...]]    pictures of cards, drawn by the card code (options: width=24 caption=name|copies|none)
    [[back COMPONENT]]       the back of a component's cards
    [[board COMPONENT]]      a picture of a board
    [[pagebreak]]
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pnp.data.format.limits import MAX_BOOKLET_BLOCKS, MAX_BOOKLET_ROWS, MAX_BOOKLET_TEXT


@dataclass(frozen=True)
class Block:
    """One block of a booklet, with the line of the rendered text it starts on."""

    kind: str  # heading para list table aside cards back board pagebreak
    line: int
    text: str = ""
    level: int = 0  # headings: 1-3
    ordered: bool = False  # lists
    items: tuple[str, ...] = ()  # list items, directive arguments
    children: tuple[tuple[str, ...], ...] = ()  # lists: the sub-items of each item
    start: int = 1  # ordered lists: the first number
    rows: tuple[tuple[str, ...], ...] = ()  # tables: header first
    options: dict[str, str] = field(default_factory=dict)


_DIRECTIVE = re.compile(r"^\[\[\s*(\w+)(.*?)\]\]\s*$")
_BULLET = re.compile(r"^(\s*)([-*]|\d+[.)])\s+(.*)$")
_TABLE_RULE = re.compile(r"^\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")


class MarkupError(ValueError):
    """A line the booklet format does not understand."""

    def __init__(self, line: int, message: str):
        self.line = line
        super().__init__(f"line {line}: {message}")


def parse(text: str) -> list[Block]:
    """Blocks of a rendered booklet text, in order; one over the booklet limits is a MarkupError at its line."""
    blocks = _blocks(text)
    if len(blocks) > MAX_BOOKLET_BLOCKS:
        raise MarkupError(
            blocks[MAX_BOOKLET_BLOCKS].line,
            f"a booklet may have at most {MAX_BOOKLET_BLOCKS} blocks "
            "(paragraphs, headings, lists, tables); split it up",
        )
    for block in blocks:
        _bounded(block)
    return blocks


def _bounded(block: Block) -> None:
    """Refuse a block that would take minutes to lay out: a huge paragraph, list or table."""
    texts = [
        block.text,
        *block.items,
        *(c for kids in block.children for c in kids),
        *(cell for row in block.rows for cell in row),
    ]
    what = {"para": "paragraph"}.get(block.kind, block.kind)
    what = f"{'an' if what[0] in 'aeiou' else 'a'} {what}"
    if (longest := max(map(len, texts), default=0)) > MAX_BOOKLET_TEXT:
        raise MarkupError(
            block.line,
            f"{what} of {longest} characters; booklet text is laid out in "
            f"pieces of at most {MAX_BOOKLET_TEXT} (split it with blank lines)",
        )
    count = max(len(block.items), len(block.rows))
    if count > MAX_BOOKLET_ROWS and block.kind in ("list", "table", "aside"):
        raise MarkupError(block.line, f"{what} of {count} items; at most {MAX_BOOKLET_ROWS}")


def _blocks(text: str) -> list[Block]:
    lines = text.split("\n")
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        raw = lines[i]
        line = raw.strip()
        n = i + 1
        if not line:
            i += 1
            continue
        m = _DIRECTIVE.match(line)
        if m:
            blocks.append(_directive(m.group(1), m.group(2).split(), n))
            i += 1
            continue
        if line.startswith("#"):
            level = len(line) - len(line.lstrip("#"))
            if level > 3 or not line[level:].startswith(" "):
                raise MarkupError(n, "a heading is '# ', '## ' or '### ' followed by its text")
            blocks.append(Block("heading", n, line[level:].strip(), level=level))
            i += 1
            continue
        if line.startswith("|"):
            rows, i = _table(lines, i)
            blocks.append(Block("table", n, rows=rows))
            continue
        if line.startswith(">"):
            body = []
            while i < len(lines) and lines[i].strip().startswith(">"):
                body.append(lines[i].strip()[1:].strip())
                i += 1
            paras = tuple(p for p in _paragraphs(body))
            blocks.append(Block("aside", n, items=paras))
            continue
        if _BULLET.match(raw):
            items, children, ordered, start, i = _list(lines, i)
            blocks.append(Block("list", n, ordered=ordered, items=items, children=children, start=start))
            continue
        para = []
        while i < len(lines) and lines[i].strip() and not _starts_block(lines[i]):
            para.append(lines[i].strip())
            i += 1
        blocks.append(Block("para", n, " ".join(para)))
    return blocks


def _starts_block(raw: str) -> bool:
    line = raw.strip()
    return line.startswith(("#", "|", ">")) or bool(_DIRECTIVE.match(line)) or bool(_BULLET.match(raw))


def _paragraphs(lines: list[str]) -> list[str]:
    out, cur = [], []
    for line in lines:
        if line:
            cur.append(line)
        elif cur:
            out.append(" ".join(cur))
            cur = []
    if cur:
        out.append(" ".join(cur))
    return out


def _directive(name: str, args: list[str], line: int) -> Block:
    options = {}
    items = []
    for a in args:
        if "=" in a:
            k, v = a.split("=", 1)
            options[k] = v
        else:
            items.append(a)
    if name == "pagebreak":
        return Block("pagebreak", line)
    if name in ("cards", "back", "board"):
        if not items:
            raise MarkupError(line, f"[[{name} ...]] needs at least one key")
        if name in ("back", "board") and len(items) != 1:
            raise MarkupError(line, f"[[{name} KEY]] takes one component key")
        return Block(name, line, items=tuple(items), options=options)
    raise MarkupError(line, f"unknown directive [[{name}]]; known: cards, back, board, pagebreak")


def _cells(line: str) -> tuple[str, ...]:
    body = line.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|"):
        body = body[:-1]
    return tuple(c.strip() for c in body.split("|"))


def _table(lines: list[str], i: int) -> tuple[tuple[tuple[str, ...], ...], int]:
    start = i + 1
    rows = []
    while i < len(lines) and lines[i].strip().startswith("|"):
        rows.append(lines[i])
        i += 1
    if len(rows) < 2 or not _TABLE_RULE.match(rows[1].strip()):
        raise MarkupError(start, "a table needs a header row, then a |---|---| rule line")
    header = _cells(rows[0])
    body = [_cells(r) for r in rows[2:]]
    for k, r in enumerate(body):
        if len(r) != len(header):
            raise MarkupError(start + 2 + k, f"table row has {len(r)} cells, the header {len(header)}")
    return (header, *body), i


def _list(lines: list[str], i: int) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...], bool, int, int]:
    """A list and its one level of indented sub-items; continuation lines join their item."""
    items: list[str] = []
    children: list[list[str]] = []
    first = _BULLET.match(lines[i])
    assert first
    indent = len(first.group(1))
    ordered = first.group(2)[0].isdigit()
    start = int(first.group(2)[:-1]) if ordered else 1
    while i < len(lines):
        raw = lines[i]
        m = _BULLET.match(raw)
        if m and len(m.group(1)) == indent:
            items.append(m.group(3).strip())
            children.append([])
        elif m and len(m.group(1)) > indent and items:
            children[-1].append(m.group(3).strip())
        elif raw.strip() and raw.startswith(" ") and items and not _DIRECTIVE.match(raw.strip()):
            if children[-1]:
                children[-1][-1] += " " + raw.strip()
            else:
                items[-1] += " " + raw.strip()
        else:
            break
        i += 1
    return tuple(items), tuple(tuple(c) for c in children), ordered, start, i
