"""A simulation's figures as plain text: each with its 95 % interval, and a comparison table."""

from __future__ import annotations

from typing import Any


def _mean(name: str, f: dict[str, float]) -> str:
    return f"  {name:<24}{f['mean']:>9.3f}   95% CI {f['low']:.3f} - {f['high']:.3f}"


def _rate(name: str, f: dict[str, float]) -> str:
    return f"  {name:<24}{100 * f['rate']:>8.1f}%   95% CI {100 * f['low']:.1f} - {100 * f['high']:.1f}%"


def format_summary(rep: dict[str, Any]) -> str:
    """One run: length, spread, the engine's figures, win rate per seat, how games ended."""
    s = rep["summary"]
    lines = [
        f"{rep['game']} ({rep['way']}), {rep['players']} players, {s['games']} games, seed {rep['seed']}, "
        f"bots {', '.join(rep['bots'])}",
        _mean("turns", s["turns"]),
        _mean("rounds", s["rounds"]),
        _mean("score spread", s["score spread"]),
    ]
    lines += [_mean(k, v) for k, v in s["metrics"].items()]
    lines += [_rate(f"win rate, seat {i + 1}", w) for i, w in enumerate(s["win rate"])]
    lines.append(_rate("no winner", s["no winner"]))
    lines += [_rate(f"ends: {k}", v) for k, v in s["ends"].items()]
    return "\n".join(lines)


def format_comparison(rows: list[dict[str, Any]], this: str, base: str) -> str:
    """The comparison table: this, base, difference, p-value, and a star where p < 0.05."""
    lines = [f"{this} compared with {base}:", f"  {'figure':<32}{'this':>10}{'base':>10}{'diff':>10}{'p':>9}"]
    for r in rows:
        star = "  *" if r["significant"] else ""
        lines.append(
            f"  {r['figure'][:32]:<32}{r['this']:>10.3f}{r['base']:>10.3f}{r['difference']:>+10.3f}{r['p']:>9.4f}{star}"
        )
    lines.append("  * significant at the 5 % level")
    return "\n".join(lines)
