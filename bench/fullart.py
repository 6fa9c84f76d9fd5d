"""Full-art decks for the benchmark: a project whose every card shows its own picture, and the same
pictures placed by bare ReportLab (the floor: what drawing them costs with no pnp at all).

    python bench/fullart.py make DIR N png|jpeg     write the project (DIR/card_data, DIR/art)
    python bench/fullart.py bare DIR OUT.pdf        bare ReportLab: each picture on a poker card grid

The pictures are 780 x 680 pixels, smooth colour fields with grain, so they
compress about as well as painted card art (not as flat colour, not as noise).
"""

from __future__ import annotations

import sys
from pathlib import Path

W, H = 780, 680
CARD = (63.0, 88.0)  # mm, poker
MM = 72 / 25.4


def picture(i: int, kind: str, dest: Path) -> None:
    """Picture number `i`: two crossing gradients in its own colours, with grain."""
    from PIL import Image, ImageChops, ImageFilter

    hue = (i * 47) % 256
    base = Image.linear_gradient("L").resize((W, H)).rotate(i % 360, expand=False)
    other = Image.radial_gradient("L").resize((W, H))
    red = ImageChops.add(base, Image.new("L", (W, H), hue), scale=1.3)
    green = ImageChops.multiply(other, Image.new("L", (W, H), 255 - hue))
    blue = ImageChops.blend(base, other, 0.5)
    grain = Image.effect_noise((W, H), 24).filter(ImageFilter.GaussianBlur(0.6))
    channels = [ImageChops.blend(c, grain, 0.18) for c in (red, green, blue)]
    im = Image.merge("RGB", channels)
    if kind == "png":
        im.save(dest, "PNG")
    else:
        im.save(dest, "JPEG", quality=88)


def make(folder: Path, n: int, kind: str) -> Path:
    """A project of `n` cards, each with its own picture (art/cNNNN.png or .jpg) filling the card."""
    suffix = "png" if kind == "png" else "jpg"
    (folder / "card_data").mkdir(parents=True, exist_ok=True)
    (folder / "art").mkdir(exist_ok=True)
    for i in range(n):
        path = folder / "art" / f"c{i:04d}.{suffix}"
        if not path.exists():
            picture(i, kind, path)
    cards = "\n".join(f"      - {{key: c{i:04d}, name: Card {i}}}" for i in range(n))
    (folder / "card_data" / "fullart.yaml").write_text(
        f"""game: {{name: Full Art, tag: FA, players: {{min: 1, max: 4}}}}
faces:
  art:
    layout: custom
    elements:
      - {{type: image, frame: bleed, file: "art/{{{{ card.key }}}}.{suffix}"}}
      - {{type: text, frame: safe, y: 70, h: 8, text: "{{{{ card.name }}}}", size: 10, align: center,
         fill: white, halo: black, halo_width: 0.3}}
backs:
  plain:
    layout: custom
    elements:
      - {{type: rect, frame: bleed, fill: "#2b2440"}}
components:
  - key: deck
    kind: deck
    name: Deck
    card_size: poker
    face: art
    back: plain
    cards:
{cards}
""",
        encoding="utf-8",
    )
    return folder


def bare(folder: Path, out: Path) -> None:
    """Every picture of the project on A4 pages, nine poker cards to a page, by ReportLab alone."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen.canvas import Canvas

    pictures = sorted((folder / "art").glob("c*.*"))
    c = Canvas(str(out), pagesize=A4, invariant=1, pageCompression=1)
    w, h = CARD[0] * MM, CARD[1] * MM
    for start in range(0, len(pictures), 9):
        for k, path in enumerate(pictures[start : start + 9]):
            x, y = 20 + (k % 3) * (w + 6), 40 + (k // 3) * (h + 6)
            c.drawImage(str(path), x, y, w, h)
        c.showPage()
    c.save()


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(Path(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
    elif sys.argv[1] == "bare":
        bare(Path(sys.argv[2]), Path(sys.argv[3]))
    else:
        sys.exit(__doc__)
