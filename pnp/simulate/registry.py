"""Which engine plays which game: a registry keyed by the game's database name (a stacked variant
goes by its base), each entry building the engine from the game's own facts and cards."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from pnp.data.format.facts import combat_rules, lookup, nasty_table
from pnp.data.format.model import Game
from pnp.data.reading.variants import deck_component, fairy_cards
from pnp.engines.bargains import BargainRules, BargainsEngine
from pnp.engines.bucks import BuckRules, BucksEngine
from pnp.engines.feenbalz import FeenbalzEngine
from pnp.engines.feenbalz_gifts import Fairy, FeenRules
from pnp.engines.play import Engine
from pnp.engines.skirmish import SkirmishEngine, SkirmishRules
from pnp.engines.tarot import Arcana, TarotEngine, TarotRules


class NoEngine(ValueError):
    """The game has no engine, or no such way of playing; the message says what there is."""


@dataclass(frozen=True)
class Setup:
    """An engine ready to play one way of playing, and the player counts that way allows."""

    engine: Engine
    way: str
    ways: tuple[str, ...]
    players: tuple[int, int]


def base_name(game: Game) -> str:
    """The database name that picks the engine: a stacked variant's base, else the game's own file."""
    info = game.variant or {}
    if info.get("base_file"):
        return Path(str(info["base_file"])).stem
    return game.source.stem


def _one_way(game: Game, way: str, only: str) -> None:
    """A game with one way of playing: `way` must be it (or left out)."""
    if way not in ("", only):
        raise NoEngine(f"{game.game.name} has no way of playing {way!r}; it has {only}")


def _claimed(game: Game) -> tuple[int, int]:
    return game.game.players.min, game.game.players.max


def _range(spec: Mapping[str, Any]) -> tuple[int, int]:
    return int(spec["min"]), int(spec["max"])


def _fairy_meat(game: Game, way: str) -> Setup:
    _one_way(game, way, "skirmish")
    facts = game.facts
    fight = lookup(facts, "skirmish")
    combat = lookup(facts, "combat")
    rules = SkirmishRules(
        combat_rules(facts),
        nasty_table(facts),
        tuple(fairy_cards(deck_component(game, ""))),
        int(fight["kill"]),
        int(fight["live"]),
        int(fight["rounds"]),
        int(combat["attacker_extra_cards"]),
        int(combat["defender_cards_per_point"]),
    )
    return Setup(
        SkirmishEngine(rules),
        way or "skirmish",
        ("skirmish",),
        _claimed(game),
    )


def _bargains(game: Game, way: str) -> Setup:
    facts = game.facts
    ways = tuple(str(k) for k in lookup(facts, "variants"))
    way = way or ways[0]
    if way not in ways:
        raise NoEngine(f"{game.game.name} has no way of playing {way!r}; it has {', '.join(ways)}")
    spec = lookup(facts, f"variants.{way}")
    deck = tuple(int(c.get("value")) for c in deck_component(game, "").cards for _ in range(c.copies))
    v2, sol = lookup(facts, "variants.variant-2"), lookup(facts, "variants.solitaire")
    rules = BargainRules(
        way,
        deck,
        int(facts["hand_size"]),
        int(facts["pot_size"]),
        int(facts["points_per_card"]),
        int(facts["deals_each"]),
        {int(k): int(v) for k, v in v2["start"].items()},
        int(v2["take_below"]),
        int(sol["piles"]["normal"]),
        int(sol["turn"]),
        bool(facts.get("ties_share", True)),
    )
    return Setup(BargainsEngine(rules), way, ways, _range(spec["players"]))


def _fairy_bucks(game: Game, way: str) -> Setup:
    _one_way(game, way, "auction")
    f = game.facts
    items = tuple(
        (int(c.get("value")), str(c.get("symbol")))
        for c in game.component("items").cards
        for _ in range(c.copies)
    )
    notes = tuple(
        int(c.get("value"))
        for c in game.component("money").cards
        if not c.get("poof")
        for _ in range(c.copies)
    )
    away = lookup(f, "set_aside")
    rules = BuckRules(
        items,
        notes,
        tuple(str(s) for s in f["set_symbols"]),
        int(f["auction_size"]),
        int(f["castle_items"]),
        int(away["default"]),
        int(away["two_players"]),
        int(f["two_player_removed_value"]),
        int(f["set_bonus"]),
        int(f["high_bidder_streak"]),
        int(f["losers_discard"]),
        bool(f["raising_optional"]),
    )
    return Setup(BucksEngine(rules), "auction", ("auction",), _claimed(game))


def _feenbalz(game: Game, way: str) -> Setup:
    _one_way(game, way, "courtship")
    f = game.facts
    objects = tuple(
        (str(c.get("colour")), str(c.get("category")), int(c.get("quality")))
        for c in game.component("objects").cards
        for _ in range(c.copies)
    )
    fairies = tuple(
        Fairy(str(c.get("colour")), str(c.get("category")), str(c.get("dislike")), bool(c.get("black")))
        for c in game.component("fairies").cards
        for _ in range(c.copies)
    )
    sp, coll = lookup(f, "special"), lookup(f, "collection")
    rules = FeenRules(
        objects,
        fairies,
        {int(k): int(v) for k, v in lookup(f, "ladies_needed").items()},
        int(f["deal"]),
        int(f["market"]),
        int(f["collect"]),
        int(f["hand_limit"]),
        int(coll["min"]),
        int(coll["horseshoes_max"]),
        int(f["wish_bonus"]),
        int(f["disliked_value"]),
        int(f["decline_draw"]),
        int(f["dead_market_quality"]),
        ahead_by=(int(sp["ahead_by"]["margin"]), int(sp["ahead_by"]["ladies"])),
        alone_at=(int(sp["alone_at"]["value"]), int(sp["alone_at"]["ladies"])),
        empty_hand=int(sp["empty_hand"]["ladies"]),
        every_one=int(sp["every_one"]["ladies"]),
        both_every_one=int(f["every_one_both_ladies"]),
        horseshoes_only=int(sp["horseshoes_only"]["ladies"]),
        horseshoes_all=(int(sp["horseshoes_all"]["count"]), int(sp["horseshoes_all"]["ladies"])),
    )
    players = _claimed(game)
    return Setup(FeenbalzEngine(rules), "courtship", ("courtship",), players)


def _tarot(game: Game, way: str) -> Setup:
    _one_way(game, way, "duel")
    f = game.facts
    deck = deck_component(game, "")
    cards = tuple(
        Arcana(
            str(c.key),
            str(c.get("element")),
            c.get("role") == "tiger",
            frozenset(map(str, c.get("servants") or ())),
        )
        for c in deck.cards
        if c.get("part") in ("arcana", None)
        for _ in range(c.copies)
    )
    board = next((c.board for c in game.components if c.board is not None and c.board.positions), None)
    sides = [p.side for p in board.positions] if board is not None else []
    tiger = lookup(f, "tiger")
    rules = TarotRules(
        cards,
        int(f["deal"]),
        int(f["on_map"]),
        int(f["in_hand"]),
        tuple(int(p) for p in f["start_positions"]),
        int(f["refill_position"]),
        sides.count(sides[0]) if sides else 5,
        int(f["last_on_map"]),
        int(f["combo_kept"]),
        bool(tiger["attacks"]),
        bool(tiger["defends_as_combo"]),
        int(f["quiet_turns"]),
    )
    return Setup(TarotEngine(rules), "duel", ("duel",), _claimed(game))


ENGINES: Mapping[str, Callable[[Game, str], Setup]] = MappingProxyType(
    {
        "fairy-meat": _fairy_meat,
        "bargains": _bargains,
        "fairy-bucks": _fairy_bucks,
        "feenbalz": _feenbalz,
        "tarot": _tarot,
    }
)


def setup(game: Game, way: str = "") -> Setup:
    """The engine for `game` played the `way` way (default: its first); NoEngine when there is none."""
    name = base_name(game)
    make = ENGINES.get(name)
    if make is None:
        raise NoEngine(f"no engine plays {game.game.name} yet; engines: {', '.join(sorted(ENGINES))}")
    try:
        return make(game, way)
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, NoEngine):
            raise
        raise NoEngine(f"{game.game.name}: its facts do not give the engine what it needs ({exc})") from None
