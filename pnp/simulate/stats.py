"""Figures of a batch of games with 95 % confidence intervals, and two batches compared.

Means carry mean +/- 1.96 standard errors; rates carry Wilson intervals. Two batches are compared
with Welch's t statistic for means and the pooled two-proportion z-test for rates; with hundreds of
games per batch the t distribution is the normal one, so both p-values come from `NormalDist`.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from statistics import NormalDist, fmean, stdev
from typing import Any

from pnp.engines.play import Outcome

Z95 = 1.959963984540054
ALPHA = 0.05


def mean_ci(values: Sequence[float]) -> dict[str, float]:
    """Mean, standard deviation, count and the 95 % interval of the mean."""
    n = len(values)
    m = fmean(values) if n else 0.0
    sd = stdev(values) if n > 1 else 0.0
    half = Z95 * sd / math.sqrt(n) if n > 1 else 0.0
    return {"mean": m, "sd": sd, "n": n, "low": m - half, "high": m + half}


def rate_ci(hits: float, n: int) -> dict[str, float]:
    """A rate with its Wilson 95 % interval (hits may be fractional: a shared win counts a part)."""
    if n == 0:
        return {"rate": 0.0, "n": 0, "low": 0.0, "high": 0.0}
    p = hits / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return {"rate": p, "n": n, "low": max(0.0, centre - half), "high": min(1.0, centre + half)}


def summarise(outcomes: Sequence[Outcome], players: int) -> dict[str, Any]:
    """Game length, score spread, win rate per seat, end conditions and the engine's own figures."""
    n = len(outcomes)
    wins = [0.0] * players
    for o in outcomes:
        for seat in o.winners:
            wins[seat] += 1 / len(o.winners)  # a shared win counts as a part for each winner
    ends = Counter(o.end for o in outcomes)
    names = sorted({k for o in outcomes for k in o.metrics})
    return {
        "games": n,
        "turns": mean_ci([o.turns for o in outcomes]),
        "rounds": mean_ci([o.rounds for o in outcomes]),
        "score spread": mean_ci([max(o.scores) - min(o.scores) for o in outcomes]),
        "metrics": {k: mean_ci([float(o.metrics.get(k, 0.0)) for o in outcomes]) for k in names},
        "win rate": [rate_ci(w, n) for w in wins],
        "no winner": rate_ci(sum(not o.winners for o in outcomes), n),
        "ends": {k: rate_ci(v, n) for k, v in sorted(ends.items())},
    }


def _p_value(z: float) -> float:
    return 2 * (1 - NormalDist().cdf(abs(z)))


def welch(a: dict[str, float], b: dict[str, float]) -> tuple[float, float]:
    """Welch's t statistic for two means (from their mean, sd, n) and its two-sided p-value."""
    se = math.sqrt(a["sd"] ** 2 / max(1, a["n"]) + b["sd"] ** 2 / max(1, b["n"]))
    diff = a["mean"] - b["mean"]
    if se == 0:
        return 0.0, 1.0 if diff == 0 else 0.0
    t = diff / se
    return t, _p_value(t)


def two_proportions(a: dict[str, float], b: dict[str, float]) -> tuple[float, float]:
    """The pooled two-proportion z statistic for two rates and its two-sided p-value."""
    na, nb = a["n"], b["n"]
    if not na or not nb:
        return 0.0, 1.0
    pooled = (a["rate"] * na + b["rate"] * nb) / (na + nb)
    se = math.sqrt(pooled * (1 - pooled) * (1 / na + 1 / nb))
    diff = a["rate"] - b["rate"]
    if se == 0:
        return 0.0, 1.0 if diff == 0 else 0.0
    z = diff / se
    return z, _p_value(z)


def _row(name: str, a: dict[str, float], b: dict[str, float], key: str) -> dict[str, Any]:
    stat, p = welch(a, b) if key == "mean" else two_proportions(a, b)
    return {
        "figure": name,
        "this": a[key],
        "base": b[key],
        "difference": a[key] - b[key],
        "statistic": stat,
        "p": p,
        "significant": p < ALPHA,
    }


def compare(this: dict[str, Any], base: dict[str, Any]) -> list[dict[str, Any]]:
    """Every figure the two summaries share: this minus base, the test statistic, p and significance at 5 %."""
    rows = [_row(k, this[k], base[k], "mean") for k in ("turns", "rounds", "score spread")]
    rows += [
        _row(k, v, base["metrics"][k], "mean") for k, v in this["metrics"].items() if k in base["metrics"]
    ]
    rows += [
        _row(f"win rate, seat {i + 1}", a, b, "rate")
        for i, (a, b) in enumerate(zip(this["win rate"], base["win rate"]))
    ]
    zero = {"rate": 0.0, "n": this["games"]}
    for end in sorted(set(this["ends"]) | set(base["ends"])):
        rows.append(
            _row(
                f"ends: {end}",
                this["ends"].get(end, zero),
                base["ends"].get(end, {**zero, "n": base["games"]}),
                "rate",
            )
        )
    return rows
