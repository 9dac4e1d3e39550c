"""How much a card ranking changes between two intervention runs (for example the heuristic bot
against ISMCTS on the same map and player count).

A run ranks the cards by their paired effect (forced minus forbidden, in final VP or in win rate; see
tables.intervention_table). Two runs are compared by Spearman's rank correlation of those effects
over the cards both runs measured with at least `min_n` pairs, with a 95 % interval from resampling
each run's seed blocks independently (resample i of one run is paired with resample i of the other).
Each run's own *split-half* correlation (the cards ranked on its even blocks against its odd blocks)
is the ceiling noise leaves: two bots that agree perfectly cannot correlate better than that.

    >>> compare(heuristic_records, ismcts_records, metric="vp")
    {'metric': 'vp', 'cards': [...], 'spearman': {'value': 0.41, 'lo': -0.1, 'hi': 0.8}, ...}
"""
from __future__ import annotations

import numpy as np

from .stats import MIN_N, REPS, Accumulator, ratio

METRICS = ("vp", "win")


def _effects(records: list[dict], metric: str, reps: int, seed: int, blocks=None) -> dict[str, tuple[int, np.ndarray]]:
    """Per card: (pairs with a trigger, the mean paired effect in the data and in every resample)."""
    arms: dict[tuple, dict] = {}
    for rec in records:
        if blocks is None or rec["block"] in blocks:
            arms.setdefault((rec["card"], rec["block"], rec["rotation"]), {})[rec["arm"]] = rec
    acc = Accumulator()
    cards: list[str] = []
    for (card, block, _), pair in arms.items():
        acc.block(block)
        if card not in cards:
            cards.append(card)
        if set(pair) != {"force", "forbid"} or pair["force"]["trigger"] is None:
            continue
        f, x = pair["force"], pair["forbid"]
        seat = f["treated"]
        if metric == "vp":
            d = f["scores"][seat]["total"] - x["scores"][seat]["total"]
        else:
            d = (f["ranks"][seat] == 1) - (x["ranks"][seat] == 1)
        acc.add(block, f"{card}.n")
        acc.add(block, f"{card}.d", d)
    s = acc.sample(reps, seed)
    return {c: (s.n(f"{c}.n"), ratio(s[f"{c}.d"], s[f"{c}.n"])) for c in cards}


def _ranks(x: np.ndarray) -> np.ndarray:
    """Ranks along the last axis (0 = smallest), ties broken by order (effects are rarely equal)."""
    return np.argsort(np.argsort(x, axis=-1, kind="stable"), axis=-1, kind="stable").astype(float)


def spearman(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Spearman's rho between a and b along the last axis (rows are resamples)."""
    ra, rb = _ranks(a), _ranks(b)
    ra -= ra.mean(axis=-1, keepdims=True)
    rb -= rb.mean(axis=-1, keepdims=True)
    den = np.sqrt((ra * ra).sum(axis=-1) * (rb * rb).sum(axis=-1))
    with np.errstate(invalid="ignore", divide="ignore"):
        return (ra * rb).sum(axis=-1) / den


def _figure(values: np.ndarray) -> dict:
    boot = values[1:][np.isfinite(values[1:])]
    lo, hi = np.percentile(boot, [2.5, 97.5]) if len(boot) else (np.nan, np.nan)
    r = lambda v: None if not np.isfinite(v) else round(float(v), 3)  # noqa: E731
    return dict(value=r(values[0]), lo=r(lo), hi=r(hi))


def split_half(records: list[dict], metric: str, reps: int, seed: int, cards: list[str]) -> dict:
    """The run's cards ranked on its even seed blocks against its odd ones."""
    blocks = sorted({r["block"] for r in records})
    even = set(blocks[0::2])
    odd = set(blocks[1::2])
    a = _effects(records, metric, reps, seed, even)
    b = _effects(records, metric, reps, seed + 1, odd)
    keep = [c for c in cards if c in a and c in b and a[c][0] and b[c][0]]
    if len(keep) < 3:
        return dict(value=None, lo=None, hi=None, cards=len(keep))
    return dict(**_figure(spearman(np.stack([a[c][1] for c in keep], -1), np.stack([b[c][1] for c in keep], -1))),
                cards=len(keep))


def compare(records_a: list[dict], records_b: list[dict], metric: str = "vp", reps: int = REPS, seed: int = 0,
            min_n: int = MIN_N) -> dict:
    """Rank agreement of the card effects of two intervention runs (A and B), with intervals."""
    if metric not in METRICS:
        raise ValueError(f"metric {metric!r}; valid: {', '.join(METRICS)}")
    a = _effects(records_a, metric, reps, seed)
    b = _effects(records_b, metric, reps, seed + 1)
    cards = [c for c in a if c in b and a[c][0] >= min_n and b[c][0] >= min_n]
    out = dict(metric=metric, min_n=min_n, reps=reps, cards=[], left_out=sorted(set(a) ^ set(b) | {
        c for c in a if c in b and c not in cards}))
    if len(cards) < 3:
        out.update(spearman=dict(value=None, lo=None, hi=None), note="fewer than 3 cards measured in both runs")
        return out
    ea = np.stack([a[c][1] for c in cards], -1)
    eb = np.stack([b[c][1] for c in cards], -1)
    rank_a = len(cards) - _ranks(ea[0])          # 1 = the card with the largest effect
    rank_b = len(cards) - _ranks(eb[0])
    for i, c in enumerate(cards):
        out["cards"].append(dict(card=c, n_a=a[c][0], n_b=b[c][0], effect_a=round(float(ea[0, i]), 3),
                                 effect_b=round(float(eb[0, i]), 3), rank_a=int(rank_a[i]), rank_b=int(rank_b[i])))
    out["cards"].sort(key=lambda r: r["rank_b"])
    shifts = np.abs(rank_a - rank_b)
    out.update(spearman=_figure(spearman(ea, eb)), mean_rank_shift=round(float(shifts.mean()), 2),
               max_rank_shift=int(shifts.max()),
               top3_shared=len({c for c, r in zip(cards, rank_a) if r <= 3} & {c for c, r in zip(cards, rank_b) if r <= 3}),
               split_half_a=split_half(records_a, metric, reps, seed, cards),
               split_half_b=split_half(records_b, metric, reps, seed, cards))
    return out
