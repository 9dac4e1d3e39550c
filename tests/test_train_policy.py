"""scripts/train_policy.py's standardisation: means and scales in float64, a constant feature centred only
(scale 1), and a player-count feature of mixed player counts scaled by its true spread."""
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import train_policy  # noqa: E402


def test_standardisation_is_exact_for_a_constant_and_a_mixed_player_count_feature():
    # 2^20 rows, as many as a generation's data: summed in float32 down the rows, a constant 0.6 drifts
    # (mean 0.60029, sd 0.00029 here) and dividing by that drift blew its weights up on export
    n = 1 << 20
    x = np.zeros((n, 3), np.float32)
    x[:, 0] = 3 / 5                                                  # n/5 in 3-player data only
    x[:, 1] = np.where(np.arange(n) % 4 == 0, 4 / 5, 3 / 5)          # a quarter of the rows 4-player
    x[:, 2] = np.arange(n) % 2                                       # a 0/1 feature, half and half
    mu, sd = train_policy.standardisation(x)
    assert mu.dtype == sd.dtype == np.float64
    three, four = float(np.float32(0.6)), float(np.float32(0.8))    # the values the core writes (float32)
    # the means: exact (every partial sum of these float32 values is exact in float64)
    assert mu[0] == three
    assert mu[1] == 0.75 * three + 0.25 * four
    assert mu[2] == 0.5
    # the scales: the constant is centred only; the others by their standard deviation
    assert sd[0] == 1.0
    assert sd[1] == pytest.approx((four - three) * np.sqrt(0.75 * 0.25), rel=1e-12)
    assert sd[2] == 0.5
    # so the constant is 0 on every training row and the others have mean 0 and sd 1
    z = (x - mu) / sd
    assert np.all(z[:, 0] == 0)
    assert np.allclose(z[:, 1:].mean(0), 0, atol=1e-9) and np.allclose(z[:, 1:].std(0), 1, rtol=1e-9)


def test_a_near_constant_feature_is_not_scaled_up():
    n = 20000
    x = np.full((n, 2), 0.25, np.float32)
    x[0, 0] = 0.35        # off its value in one row: sd 0.1 / sqrt(n) = 0.0007, below SD_CONSTANT
    x[:, 1] = np.linspace(0, 1, n)
    mu, sd = train_policy.standardisation(x)
    assert np.std(x[:, 0], dtype=np.float64) < train_policy.SD_CONSTANT
    assert sd[0] == 1.0 and mu[0] == pytest.approx(0.25 + 0.1 / n, rel=1e-6)
    assert sd[1] == pytest.approx(np.std(np.linspace(0, 1, n)), rel=1e-6)


def test_a_constant_feature_keeps_its_weights_on_export():
    """The exported weights on the raw features: the constant column's are the model's (scale 1), not
    multiplied by 1/sd; its shift is folded into b1, so the logits on the training rows are unchanged."""
    rng = np.random.default_rng(3)
    x = rng.normal(0, 1, (64, 4)).astype(np.float32)
    x[:, 2] = 0.6
    mu, sd = train_policy.standardisation(x)
    model = train_policy.Model(4, 3, rng)
    model.w[:] = rng.normal(0, 1, 4)
    w = model.export(mu, sd)
    assert np.array_equal(w["w1"][:, 2], model.w1[:, 2]) and w["w_lin"][2] == model.w[2]
    z_std = model.logits(((x - mu) / sd).astype(np.float32))[0]
    z_raw = x @ w["w_lin"] + np.tanh(x @ w["w1"].T + w["b1"]) @ w["v"]
    # equal up to the linear part's shift (the same for every move of a node: it cancels in the softmax)
    shift = float(mu @ (model.w / sd))
    assert np.allclose(z_raw - shift, z_std, atol=1e-5)
