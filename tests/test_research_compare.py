"""The ranking comparison of two intervention runs (concordia_ai.lab.research.compare) on synthetic logs
with a known answer."""
import random

import pytest

from concordia_ai.lab.research.compare import compare, spearman

CARDS = ["A", "B", "C", "D", "E", "F"]


def synthetic(effects: dict[str, float], blocks: int, noise: float, seed: int) -> list[dict]:
    """Intervention records: the forced arm scores base + effect + noise, the forbidden arm base + noise."""
    rng = random.Random(seed)
    out = []
    for block in range(blocks):
        for rotation in range(2):
            for card, effect in effects.items():
                base = 100 + rng.gauss(0, 10)
                for arm, vp in (("force", base + effect + rng.gauss(0, noise)), ("forbid", base + rng.gauss(0, noise))):
                    scores = [{"total": vp}, {"total": 100.0}]
                    ranks = [1, 2] if vp > 100 else [2, 1]
                    out.append(dict(card=card, block=block, rotation=rotation, arm=arm, treated=0,
                                    trigger={"turn": 3, "round": 1}, scores=scores, ranks=ranks))
    return out


def test_same_effects_rank_alike_and_reversed_effects_opposite():
    effects = {c: 4.0 * i for i, c in enumerate(CARDS)}
    a = synthetic(effects, 30, 3.0, 1)
    b = synthetic(effects, 30, 3.0, 2)
    same = compare(a, b, reps=200)
    assert same["spearman"]["value"] == 1.0 and same["spearman"]["lo"] > 0.8
    assert same["mean_rank_shift"] == 0 and same["top3_shared"] == 3
    assert [r["card"] for r in same["cards"]] == list(reversed(CARDS))
    assert same["split_half_a"]["value"] > 0.8
    reverse = compare(a, synthetic({c: -e for c, e in effects.items()}, 30, 3.0, 3), reps=200)
    assert reverse["spearman"]["value"] == -1.0 and reverse["max_rank_shift"] == 5


def test_no_effects_give_an_interval_around_zero_and_a_low_ceiling():
    flat = {c: 0.0 for c in CARDS}
    r = compare(synthetic(flat, 30, 5.0, 4), synthetic(flat, 30, 5.0, 5), reps=300)
    assert r["spearman"]["lo"] < 0 < r["spearman"]["hi"]
    assert r["split_half_a"]["lo"] < 0 < r["split_half_a"]["hi"]


def test_cards_below_min_n_are_left_out_and_win_metric():
    effects = {c: 4.0 * i for i, c in enumerate(CARDS)}
    a = synthetic(effects, 30, 3.0, 6)
    b = [r for r in synthetic(effects, 30, 3.0, 7) if r["card"] != "F" or r["block"] < 5]
    r = compare(a, b, reps=100, min_n=30)
    assert "F" in r["left_out"] and len(r["cards"]) == 5
    w = compare(a, b, metric="win", reps=100)
    assert w["metric"] == "win" and w["spearman"]["value"] > 0.5
    with pytest.raises(ValueError, match="metric"):
        compare(a, b, metric="rank")


def test_spearman_matches_the_textbook_value():
    import numpy as np
    x = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    y = np.array([5.0, 6.0, 7.0, 8.0, 7.5])
    # ranks 0..4 against 0,1,2,4,3: d^2 sum = 2, rho = 1 - 6*2 / (5*24) = 0.9
    assert spearman(x, y) == pytest.approx(0.9)
