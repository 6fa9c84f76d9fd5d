"""What a stacked deck does to the game: a statistics report as data and as text.

Every variant gets its composition next to the base deck's. A Fairy Deck
(fields rank, suit, colour, role) also gets exact odds from `deckstats` and a
seeded Monte Carlo of the alternative combat system from `engines.simulate`,
run on the variant and on the standard deck with the same seed. The one-page
PDF of the report is `stats_sheet`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from pnp.data.format.facts import combat_rules
from pnp.data.format.model import Component, Game
from pnp.data.reading.variants import fairy_cards
from pnp.engines import deckstats
from pnp.engines.cards import Card
from pnp.engines.combat import CombatRules
from pnp.engines.simulate import simulate
from pnp.rules.checker import check_component

MATCHUPS = ((2, 2), (3, 3), (5, 2))  # (attacker's Kill, defender's Live)
TRIALS = 20_000
SEED = 1
HAND_SIZES = tuple(range(1, 9))
FAIRIES = tuple(range(2, 7))
STRATEGY = (
    "Playing strategy: both sides play honestly and do not react to what the other reveals. "
    "Each weighs every Numbered card in hand with none, some or all of its same-colour Trumps, "
    "added or subtracted, and keeps the final value that scores best against an unknown card "
    "(points lost count half for the attacker, points won half for the defender). Without a "
    "Numbered card a Trump is played as a Wild Trump and cards are drawn until one turns up; "
    "cheating therefore only happens through Wild Trump draws. Equal values are a draw."
)


# --------------------------------------------------------------------------- data


def is_fairy(comp: Component) -> bool:
    return {"rank", "suit", "colour", "role"} <= set(comp.fields)


def field_counts(comp: Component, limit: int = 20) -> dict[str, dict[str, int]]:
    """Cards per value of each text or number field with at most `limit` values."""
    out: dict[str, dict[str, int]] = {}
    for name, spec in comp.fields.items():
        if spec.type not in ("str", "int"):
            continue
        counts: Counter[str] = Counter()
        for card in comp.cards:
            counts[str(card.get(name))] += card.copies
        if 0 < len(counts) <= limit:
            out[name] = dict(sorted(counts.items(), key=lambda kv: _sort_key(kv[0])))
    return out


def _sort_key(value: str) -> tuple[int, Any]:
    return (0, int(value)) if value.lstrip("-").isdigit() else (1, value)


def as_float(x: dict[str, Any]) -> float:
    return float(x["float"])


def report(
    game: Game, base: Component, *, trials: int | None = None, seed: int | None = None
) -> dict[str, Any]:
    """The statistics report of a loaded variant against its base component, as JSON data."""
    info = dict(game.variant or {})
    trials = int(trials or info.get("trials") or TRIALS)
    seed = int(seed if seed is not None else info.get("seed", SEED))
    comp = game.component(info.get("component", base.key))
    violations = check_component(game, comp)
    out: dict[str, Any] = {
        "variant": {k: v for k, v in info.items() if k != "base_file"},
        "game": game.game.name,
        "component": comp.key,
        "cards": comp.card_count,
        "standard_cards": base.card_count,
        "by_role": {},
        "composition": {"variant": field_counts(comp), "standard": field_counts(base)},
        "warnings": [str(v) for v in violations if v.severity == "warning"],
        "errors": [str(v) for v in violations if v.severity == "error"],
        "notes": [{"severity": v.severity, "rule": v.rule, "text": note_text(v)} for v in violations],
    }
    if not is_fairy(comp):
        if "role" in comp.fields:
            out["by_role"] = out["composition"]["variant"].get("role", {})
        return out
    deck, standard = fairy_cards(comp), fairy_cards(base)
    out["by_role"] = deckstats.composition(deck)
    out["standard_by_role"] = deckstats.composition(standard)
    out["odds"] = deckstats.report(deck, standard, hand_sizes=HAND_SIZES, fairies=FAIRIES)
    try:
        rules = combat_rules(game.facts)
    except (
        KeyError,
        ValueError,
        TypeError,
        AttributeError,
    ):  # a deck of playing cards whose game states no combat rules
        return out
    out["combat"] = combat_report(deck, standard, trials, seed, rules)
    return out


def note_text(v: Any) -> str:
    """A violation in words for the statistics sheet."""
    if v.found.startswith("false for "):  # an expression rule: its description says it all
        return v.expected
    return f"{v.rule.replace('-', ' ')}: wanted {v.expected}; this variant has {v.found}"


def combat_report(
    deck: Sequence[Card], standard: Sequence[Card], trials: int, seed: int, rules: CombatRules
) -> dict[str, Any]:
    """Monte Carlo of one attack per match-up, variant and standard deck with the same seed,
    under the game's combat rules (from its facts)."""
    rows = []
    for kill, live in MATCHUPS:
        if kill + 1 + live > min(len(deck), len(standard)):
            continue
        row: dict[str, Any] = {
            "kill": kill,
            "live": live,
            "attacker_cards": kill + 1,
            "defender_cards": live,
            "variant": simulate(list(deck), kill, live, trials, seed, rules=rules).as_dict(),
            "standard": simulate(list(standard), kill, live, trials, seed, rules=rules).as_dict(),
        }
        if row["variant"]["p_forfeit"] >= 1.0:  # no attack could be played: there are no rates to give
            row["variant"] = None
            row["not_played"] = NOT_PLAYED
        rows.append(row)
    return {"trials": trials, "seed": seed, "strategy": STRATEGY, "matchups": rows}


NOT_PLAYED = "not played (every simulated attack was forfeited: no side had a card it could play)"


def combat_cell(mu: dict[str, Any], key: str, form: str) -> str:
    """One match-up's figure, this variant / the standard deck ('-' where the variant could not play)."""
    mine = "-" if mu["variant"] is None else format_value(mu["variant"][key], form)
    return f"{mine} / {format_value(mu['standard'][key], form)}"


# --------------------------------------------------------------------------- text


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def summary_rows(rep: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(what, variant, standard) rows of the odds section; empty for non-Fairy decks."""
    odds = rep.get("odds")
    if not odds:
        return []
    d, b = odds["deck"], odds["base"]
    rows = [("cards", str(d["size"]), str(b["size"]))]
    for key, label in (
        ("p_trump", "a Trump per draw"),
        ("p_joker", "a Joker per draw"),
        ("p_ace_of_spades", "the Ace of Spades per draw"),
    ):
        rows.append((label, _pct(as_float(d[key])), _pct(as_float(b[key]))))
    for k in ("3", "4", "5"):
        if k in d["p_no_numbered"] and k in b["p_no_numbered"]:
            rows.append(
                (
                    f"no Numbered card in {k} cards",
                    _pct(as_float(d["p_no_numbered"][k])),
                    _pct(as_float(b["p_no_numbered"][k])),
                )
            )
    for k in ("3", "4", "6"):
        if k in d["p_order_tie"] and k in b["p_order_tie"]:
            rows.append(
                (
                    f"an Order tie among {k} fairies",
                    _pct(as_float(d["p_order_tie"][k])),
                    _pct(as_float(b["p_order_tie"][k])),
                )
            )
    if d.get("mean_numbered_value") and b.get("mean_numbered_value"):
        rows.append(
            (
                "mean Numbered value",
                f"{as_float(d['mean_numbered_value']):.2f}",
                f"{as_float(b['mean_numbered_value']):.2f}",
            )
        )
    return rows


COMBAT_COLUMNS = (
    ("expected_damage", "damage / attack", "{:.2f}"),
    ("p_nasty_hit", "Nasty Hit", "pct"),
    ("p_cheat", "cheating", "pct"),
    ("p_attacker_win", "attacker wins", "pct"),
)


def format_value(value: float, form: str) -> str:
    return _pct(value) if form == "pct" else form.format(value)


def format_text(rep: dict[str, Any]) -> str:
    """The report as plain text for the terminal."""
    v = rep["variant"]
    lines = [
        f"{rep['game']} variant {v.get('name', '?')}: {rep['cards']} cards "
        f"(standard deck {rep['standard_cards']})"
    ]
    if rep.get("by_role"):
        std = rep.get("standard_by_role", {})
        lines.append(
            "  by role: "
            + ", ".join(
                f"{r} {n}" + (f" (std {std[r]})" if r in std else "") for r, n in rep["by_role"].items()
            )
        )
    for name, counts in rep["composition"]["variant"].items():
        if name in ("rank", "role"):
            continue
        lines.append(f"  by {name}: " + ", ".join(f"{k} {n}" for k, n in counts.items()))
    rows = summary_rows(rep)
    if rows:
        lines.append("")
        lines.append(f"  {'odds':<34}{'variant':>10}{'standard':>10}")
        lines += [f"  {a:<34}{b:>10}{c:>10}" for a, b, c in rows[1:]]
        dist = rep["odds"]["deck"]["numbered_value_distribution"]
        lines.append("  Numbered value: " + ", ".join(f"{k} {_pct(as_float(p))}" for k, p in dist.items()))
    combat = rep.get("combat")
    if combat and combat["matchups"]:
        lines.append("")
        lines.append(
            f"  combat ({combat['trials']} attacks per match-up, seed {combat['seed']}), variant / standard:"
        )
        for m in combat["matchups"]:
            if m["variant"] is None:
                lines.append(f"  Kill {m['kill']} vs Live {m['live']}: {m['not_played']}")
                continue
            cells = "; ".join(f"{label} {combat_cell(m, k, f)}" for k, label, f in COMBAT_COLUMNS)
            lines.append(f"  Kill {m['kill']} vs Live {m['live']}: {cells}")
    if rep["warnings"] or rep["errors"]:
        lines.append("")
        lines += [f"  {w}" for w in rep["errors"] + rep["warnings"]]
    return "\n".join(lines)
