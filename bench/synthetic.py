"""A made-up game of N distinct text-and-vector cards, for measuring how time and memory grow.

Every card is its own design (own number, title, colour and text), so nothing
is shared between cards except the back: the worst case for a deck.

    python bench/synthetic.py N DEST [--distinct D] [--smoke]

writes the project DEST (bench/run.py imports `make_project` instead);
--smoke writes a 20-card project (tests/test_bench.py).
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

HEAD = """\
game: {{name: Synthetic {n}, tag: SY, players: {{min: 1, max: 8}}}}
style: {{ink: "#1f1a2b", paper: "#fbf6ea", accent: "#5b3f8c"}}
palettes:
  hue:
    0: {{color: "#f0cf63", emblem: teardrop}}
    1: {{color: "#8dbf6e", emblem: acorn}}
    2: {{color: "#4f93c9", emblem: clover}}
    3: {{color: "#b8506a", emblem: butterfly}}
    4: {{color: "#3f2d66", emblem: crown}}
faces:
  card:
    layout: value
    slots:
      value: "{{{{ card.value }}}}"
      title: "{{{{ card.name }}}}"
      subtitle: "number {{{{ card.value }}}} of {n}"
      color: "{{{{ palettes.hue[card.value % 5].color }}}}"
      emblem: "{{{{ palettes.hue[card.value % 5].emblem }}}}"
      text: "{{{{ card.text }}}}"
backs:
  back: {{layout: back, slots: {{title: Synthetic, subtitle: "{n} cards", color: "#34275a", emblem: sparkle}}}}
components:
  - key: deck
    kind: deck
    name: Synthetic deck
    card_size: poker
    face: card
    back: back
    fields: {{value: {{type: int}}}}
    cards:
"""
WORDS = [
    "moss",
    "dew",
    "ember",
    "thistle",
    "reed",
    "lantern",
    "pebble",
    "fern",
    "brook",
    "acorn",
    "wren",
    "sorrel",
]


def card_yaml(n: int, distinct: int | None = None) -> str:
    """n cards in `distinct` designs (all different when None), copies spread evenly."""
    kinds = distinct or n
    lines = [HEAD.format(n=n)]
    for i in range(1, kinds + 1):
        a, b, c = WORDS[i % 12], WORDS[(i * 5) % 12], WORDS[(i * 7 + 3) % 12]
        copies = n // kinds + (1 if i <= n % kinds else 0)
        lines.append(
            f'      - {{key: "{i}", name: "{a.title()} {b}", value: {i}, copies: {copies}, '
            f'text: "Trade {a} for {b}, then keep the {c} for card {i}."}}\n'
        )
    return "".join(lines)


def make_project(dest: Path, n: int, root: Path, distinct: int | None = None) -> Path:
    """dest/card_data/synthetic.yaml with n cards in `distinct` designs; fonts copied from the repository
    (pnp reads no folder linked from outside a project)."""
    (dest / "card_data").mkdir(parents=True, exist_ok=True)
    (dest / "card_data" / "synthetic.yaml").write_text(card_yaml(n, distinct), encoding="utf-8")
    fonts = dest / "fonts"
    if not fonts.exists():
        shutil.copytree(root / "fonts", fonts)
    return dest


def csv_project(dest: Path, n: int) -> Path:
    """The starter project of `pnp new` with n distinct cards in its CSV (its own count rules and its
    booklet, which tables every card, left out): a spreadsheet designer's big deck."""
    import csv
    import subprocess
    import sys

    subprocess.run([sys.executable, "-m", "pnp", "new", str(dest)], check=True, capture_output=True)
    sheet = dest / "card_data" / "lanterns.csv"
    with sheet.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.reader(fh))
    # every language's name made distinct (and short enough to fit its box)
    named = [i for i, head in enumerate(rows[0]) if head.partition("@")[0] == "name"]
    body = [
        [f"{v[:12]} {i}" if col in named else v for col, v in enumerate([f"c{i}", *rows[1 + i % 5][1:]])]
        for i in range(n)
    ]
    for row in body:
        row[2] = "1"
    with sheet.open("w", encoding="utf-8", newline="") as fh:
        csv.writer(fh).writerows([rows[0], *body])
    db = dest / "card_data" / "lanterns.yaml"
    text = db.read_text(encoding="utf-8")
    tail = text.index("\n  - key: rules")
    assert text.find("\n  - key:", tail + 1) == -1, "the booklet is the starter's last component"
    db.write_text(text[: text.index("    rules:\n")], encoding="utf-8")
    return dest


def main() -> None:
    ap = argparse.ArgumentParser(description="write a synthetic project of N distinct cards")
    ap.add_argument("n", type=int)
    ap.add_argument("dest")
    ap.add_argument("--distinct", type=int, default=None, help="designs (default: every card its own)")
    ap.add_argument("--smoke", "--quick", action="store_true", help="20 cards whatever N says")
    args = ap.parse_args()
    dest = make_project(
        Path(args.dest), 20 if args.smoke else args.n, Path(__file__).resolve().parent.parent, args.distinct
    )
    print(dest / "card_data" / "synthetic.yaml")


if __name__ == "__main__":
    main()
