"""`pnp export mpc-autofill`: MakePlayingCards orders for the MPC Autofill desktop tool.

MakePlayingCards has no API; MPC Autofill fills its order page from an XML
order file. Each card's `<id>` here is the absolute local path of an exported
picture (the same 822 x 1122 px poker pictures as `pnp export pod --profile
mpc`), so the tool uploads them from this folder. For each deck this writes
`front/<card>.png` (one per distinct face), `back/<back>.png` (one per distinct
back) and `<deck>-order<N>.xml`: copies become slot numbers, and a deck of more
than 612 cards (MakePlayingCards' largest order) is split into several orders.
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

from pnp.data.store import files
from pnp.output.exports.mpc import link
from pnp.output.exports.naming import Target, back_name, distinct_backs, face_name, safe
from pnp.output.exports.output import folder
from pnp.output.exports.png import drawn_pictures
from pnp.output.exports.profiles import PROFILES
from pnp.output.exports.setup import Setup
from pnp.resolve.cards import Printed

MAX_ORDER = 612  # cards in one MakePlayingCards order
BRACKETS = (18, 36, 55, 72, 90, 108, 126, 144, 162, 180, 198, 216, 234, 396, 504, 612)
STOCK = "(S30) Standard Smooth"


def bracket(quantity: int) -> int:
    """The smallest MakePlayingCards order size holding `quantity` cards."""
    return next(b for b in BRACKETS if b >= quantity)


def slots(cards: list[Printed]) -> list[int]:
    """The printed card in each slot of the deck, copies side by side, in database order."""
    return [i for i, p in enumerate(cards) for _ in range(p.copies)]


def _card(parent: ET.Element, path: str, numbers: list[int], name: str, query: str) -> None:
    card = ET.SubElement(parent, "card")
    ET.SubElement(card, "id").text = path
    ET.SubElement(card, "slots").text = ",".join(map(str, numbers))
    ET.SubElement(card, "name").text = name
    ET.SubElement(card, "query").text = query


def order_xml(t: Target, cards: list[Printed], part: list[int], where: Path) -> bytes:
    """One order: `part` lists the printed card in each of its slots; pictures named by their path under `where`."""
    order = ET.Element("order")
    details = ET.SubElement(order, "details")
    for key, value in (
        ("quantity", len(part)),
        ("bracket", bracket(len(part))),
        ("stock", STOCK),
        ("foil", "false"),
    ):
        ET.SubElement(details, key).text = str(value)
    fronts: dict[int, list[int]] = {}
    backs: dict[str, list[int]] = {}
    for slot, i in enumerate(part):
        fronts.setdefault(i, []).append(slot)
        backs.setdefault(back_name(t.comp, cards[i]), []).append(slot)
    front_el = ET.SubElement(order, "fronts")
    for i, numbers in fronts.items():
        name = f"{face_name(cards[i])}.png"
        _card(front_el, str(where / "front" / name), numbers, name, cards[i].card.name)
    common = max(backs, key=lambda b: len(backs[b]))  # the most used back is the order's card back
    others = {b: n for b, n in backs.items() if b != common}
    if others:
        back_el = ET.SubElement(order, "backs")
        for b, numbers in others.items():
            _card(back_el, str(where / "back" / f"{b}.png"), numbers, f"{b}.png", b)
    ET.SubElement(order, "cardback").text = str(where / "back" / f"{common}.png")
    ET.indent(order)
    return ET.tostring(order, encoding="utf-8", xml_declaration=True) + b"\n"


def _pictures(t: Target, cards: list[Printed], drawn: Path, deck: Path) -> None:
    """The deck's distinct faces into front/, its distinct backs into back/."""
    (deck / "front").mkdir(parents=True, exist_ok=True)
    (deck / "back").mkdir(parents=True, exist_ok=True)
    for p in {face_name(p): p for p in cards}.values():
        link(drawn / f"{face_name(p)}.png", deck / "front" / f"{face_name(p)}.png")
    for i in distinct_backs(t.comp, cards):
        name = f"{back_name(t.comp, cards[i])}.png"
        link(drawn / name, deck / "back" / name)


def export_autofill(
    targets: list[Target],
    setup: Setup,
    stage: Path,
    final: Path,
    dpi: float,
    jobs: int,
    progress: Callable[[int], None] = lambda n: None,
    sub: str = "mpc-300",
) -> list[Path]:
    """Every deck's pictures and order files under stage/<game>/mpc-autofill/<sub>/<component>/; returns the orders.

    `final` is the output folder the files are published to: the orders name pictures there.
    """
    scenes = setup.scenes()
    written = []
    with drawn_pictures(targets, setup, stage, PROFILES["mpc"], dpi, jobs, progress, sub) as drawn:
        for t in targets:
            cards = scenes[t.game.slug].printed(t.comp.key)
            deck = folder(stage, t.game, "mpc-autofill", sub) / t.comp.key
            _pictures(t, cards, drawn(t), deck)
            where = Path(os.path.abspath(final / t.game.slug / "mpc-autofill" / sub / t.comp.key))
            every = slots(cards)
            for n, start in enumerate(range(0, len(every), MAX_ORDER), 1):
                path = deck / f"{safe(t.comp.key)}-order{n}.xml"
                files.write_bytes(path, order_xml(t, cards, every[start : start + MAX_ORDER], where), stage)
                written.append(path)
    return written
