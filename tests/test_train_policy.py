"""scripts/train_policy.py: the standardisation (means and scales in float64, a constant feature centred only
(scale 1), a player-count feature of mixed player counts scaled by its true spread) and training on mixed
player counts (tiny synthetic data)."""
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import train_policy  # noqa: E402
from concordia_ai import core  # noqa: E402


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


# ---------------------------------------------------------------- mixed player counts

def mixed_count_data(path, games=100, per_game=4):
    """Synthetic decisions of 2- and 4-player games (the count alternates every ten game ids, so both
    held-out folds hold both counts): three moves, flagged by features 0 and 1 and the third by neither;
    the target favours the move of flag 0 in 2 players and of flag 1 in 4. Only the interaction of a move's
    flag with n/5 (the same for every move of a node) tells them apart: a linear scorer cannot."""
    rng = np.random.default_rng(5)
    feats, visits, first, size, game, players = [], [], [], [], [], []
    r = 0
    for g in range(games):
        n = 2 if (g // 10) % 2 == 0 else 4
        for _ in range(per_game):
            x = np.zeros((3, core.POLICY_FEATURES), np.float32)
            x[0, 0] = x[1, 1] = 1
            x[:, train_policy.PLAYERS_FEATURE] = n / 5
            x[:, 2] = rng.normal(0, 1, 3)                      # noise the prior must learn to ignore
            feats.append(x)
            visits.append(np.array([80, 10, 10] if n == 2 else [10, 80, 10], np.float32))
            first.append(r)
            size.append(3)
            game.append(g)
            players.append(n)
            r += 3
    rows = np.concatenate(visits)
    np.savez_compressed(path, feats=np.concatenate(feats), visits=rows, pruned=rows, improved=rows,
                        greedy=np.zeros(r, np.float32), dec_first=np.array(first), dec_size=np.array(size),
                        dec_game=np.array(game), dec_turn=np.zeros(len(first), np.int64),
                        dec_phase=np.zeros(len(first), np.int64), dec_seat=np.zeros(len(first), np.int64),
                        dec_players=np.array(players))


def test_mixed_player_counts_train_one_shared_prior_that_tells_them_apart(tmp_path, capsys):
    from concordia_ai.ai import policy
    data = tmp_path / "mixed.npz"
    mixed_count_data(data)
    report = train_policy.main(["--data", str(data), "--hidden", "4", "--steps", "300", "--seed", "2",
                                "--players", "2,4", "--out", str(tmp_path / "w")])
    assert report["players_in_data"] == [2, 4]
    assert report["test_by_count"]["2"]["top1_policy"] == 1.0
    assert report["test_by_count"]["4"]["top1_policy"] == 1.0
    # the written sets put the right move first for each count
    sets = policy.read_weights(tmp_path / "w" / "weights.npz", tmp_path / "w" / "weights.json")
    x = np.zeros((3, core.POLICY_FEATURES), np.float32)
    x[0, 0] = x[1, 1] = 1
    for n, best in ((2, 0), (4, 1)):
        x[:, train_policy.PLAYERS_FEATURE] = n / 5
        assert int(np.argmax(policy.forward_numpy(sets[n], x))) == best


def test_a_linear_shared_prior_cannot_tell_the_counts_apart_and_a_set_per_count_can(tmp_path, capsys):
    data = tmp_path / "mixed.npz"
    mixed_count_data(data)
    report = train_policy.main(["--data", str(data), "--hidden", "0", "--steps", "200", "--seed", "2",
                                "--players", "2,4", "--per-count"])
    # n/5 is the same for every move of a node: in the linear part it cancels, so one of the counts is lost
    assert min(report["test_by_count"][n]["top1_policy"] for n in ("2", "4")) < 0.5
    for n in ("2", "4"):
        per = report["per_count"][n]
        assert per["chosen"] == "own" and per["validation_ce_own"] < per["validation_ce_shared"]
        assert per["test_own"]["top1_policy"] == 1.0


def test_players_come_from_the_feature_when_the_file_predates_dec_players(tmp_path):
    data = tmp_path / "mixed.npz"
    mixed_count_data(data, games=20)
    with np.load(data) as z:
        old = {k: z[k] for k in z.files if k != "dec_players"}
    np.savez(tmp_path / "old.npz", **old)
    assert np.array_equal(train_policy.load([str(tmp_path / "old.npz")]).players,
                          train_policy.load([str(data)]).players)


def test_a_target_the_file_lacks_is_refused(tmp_path):
    data = tmp_path / "mixed.npz"
    mixed_count_data(data, games=20)
    with np.load(data) as z:
        old = {k: z[k] for k in z.files if k not in ("pruned", "improved")}
    np.savez(tmp_path / "old.npz", **old)
    with pytest.raises(ValueError, match="has no 'pruned' target"):
        train_policy.load([str(tmp_path / "old.npz")], "pruned")


def test_a_player_count_missing_from_the_test_games_is_left_out_of_the_report(tmp_path, capsys):
    # the test games (id % 10 == 5) 4-player, every other game 2-player: neither count has both training
    # and test games, so neither has figures of its own (nor a set of its own)
    data = tmp_path / "mixed.npz"
    mixed_count_data(data, games=20)
    with np.load(data) as z:
        d = {k: z[k] for k in z.files}
    d["dec_players"] = np.where(d["dec_game"] % 10 == 5, 4, 2)
    np.savez(tmp_path / "odd.npz", **d)
    report = train_policy.main(["--data", str(tmp_path / "odd.npz"), "--hidden", "0", "--steps", "20",
                                "--per-count"])
    assert list(report["test_by_count"]) == [] and report["per_count"] == {}
    assert len(train_policy.load([str(tmp_path / "odd.npz")]).subset(np.zeros(0, bool)).first) == 0
