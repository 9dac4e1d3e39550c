"""The value model: the shipped weights load and are checked, the core's forward pass matches the numpy
reference, and the model tells a won position from a lost one."""
import json
import shutil

import numpy as np
import pytest

from concordia_ai import core
from concordia_ai.ai import value
from concordia_ai.ai.bots import make_bot
from concordia_ai.engine.game import Game
from concordia_ai.ai.search import SearchConfig, search


@pytest.fixture(autouse=True)
def shipped_weights_after():
    yield
    value.load()      # every test leaves the shipped weights in the core


def random_states(board, players, n, seed):
    game = Game.new(board, players, seed)
    bot = make_bot("random", seed=seed)
    out = []
    step = 0
    while not game.is_over and len(out) < n:
        if game.decider is not None and game.decider >= 0 and step % 7 == 0:
            out.append(game.state.copy())
        game.state.apply(bot.choose(game))
        step += 1
    return out


def test_shipped_weights_load_and_cover_every_player_count():
    sets = value.read_weights()
    assert sorted(sets) == [2, 3, 4, 5]
    meta = value.metadata()
    assert meta["format"] == value.FORMAT and meta["features"] in core.VALUE_FEATURE_LAYOUTS
    assert meta["games"] >= 10000 and meta["command"].startswith("python3 scripts/train_value.py")
    value.load()
    assert all(core.value_ready(n) for n in (2, 3, 4, 5))


@pytest.mark.parametrize("board,players", [("imperium", 4), ("italia", 3), ("creta", 2), ("aegyptus", 5)])
def test_core_forward_pass_matches_numpy(board, players):
    rng = np.random.default_rng(players)
    h = 17
    w = dict(w1=rng.normal(0, 0.3, (h, core.VALUE_FEATURES)).astype(np.float32),
             b1=rng.normal(0, 0.3, h).astype(np.float32), w_win=rng.normal(0, 1, h).astype(np.float32),
             w_vp=rng.normal(0, 1, h).astype(np.float32), b_vp=np.float32(0.4), vp_scale=np.float32(50))
    core.value_set_weights(players, w["w1"], w["b1"], w["w_win"], w["w_vp"], float(w["b_vp"]), float(w["vp_scale"]))
    for st in random_states(board, players, 25, seed=players * 13):
        p_c, vp_c = core.value_of(st)
        p_n, vp_n = value.forward_numpy(w, core.value_features_of(st))
        assert np.allclose(p_c, p_n, atol=1e-5) and np.allclose(vp_c, vp_n, atol=1e-3)
        assert abs(sum(p_c) - 1) < 1e-5


def test_shipped_weights_agree_between_core_and_numpy():
    sets = value.read_weights()
    for st in random_states("italia", 4, 20, seed=5):
        p_c, vp_c = value.predict(st)
        p_n, vp_n = value.forward_numpy(sets[4], core.value_features_of(st))
        assert np.allclose(p_c, p_n, atol=1e-5) and np.allclose(vp_c, vp_n, atol=1e-2)


def copy_weights(tmp_path):
    w, m = tmp_path / "w.npz", tmp_path / "w.json"
    shutil.copy(value.WEIGHTS, w)
    shutil.copy(value.META, m)
    return w, m


def test_a_damaged_weights_file_is_refused(tmp_path):
    w, m = copy_weights(tmp_path)
    data = bytearray(w.read_bytes())
    data[len(data) // 2] ^= 0xFF
    w.write_bytes(bytes(data))
    with pytest.raises(value.ValueWeightsError, match="checksum"):
        value.load(w, m)


def test_weights_for_another_feature_layout_are_refused(tmp_path):
    w, m = copy_weights(tmp_path)
    meta = json.loads(m.read_text())
    meta["features"] = core.VALUE_FEATURES + 3
    m.write_text(json.dumps(meta))
    with pytest.raises(value.ValueWeightsError, match="features"):
        value.load(w, m)


def test_mismatched_shapes_and_missing_arrays_are_refused(tmp_path):
    w, m = copy_weights(tmp_path)
    with np.load(w) as z:
        arrays = {k: z[k] for k in z.files}
    arrays["p3_b1"] = arrays["p3_b1"][:-1]
    np.savez(w, **arrays)
    meta = json.loads(m.read_text())
    meta["sha256"] = value.sha256_of(w)
    m.write_text(json.dumps(meta))
    with pytest.raises(value.ValueWeightsError, match="p3_b1 has shape"):
        value.load(w, m)
    del arrays["p3_b1"]
    np.savez(w, **arrays)
    meta["sha256"] = value.sha256_of(w)
    m.write_text(json.dumps(meta))
    with pytest.raises(value.ValueWeightsError, match="no array p3_b1"):
        value.load(w, m)


def test_the_core_refuses_weights_of_the_wrong_shape_or_not_finite():
    h = 4
    good = [np.zeros((h, core.VALUE_FEATURES), np.float32), np.zeros(h, np.float32), np.zeros(h, np.float32),
            np.zeros(h, np.float32)]
    with pytest.raises(ValueError, match="shape"):
        core.value_set_weights(4, np.zeros((h, 3), np.float32), *good[1:], 0.0, 50.0)
    with pytest.raises(ValueError, match="player count"):
        core.value_set_weights(6, *good, 0.0, 50.0)
    bad = good[1].copy()
    bad[0] = np.nan
    with pytest.raises(ValueError, match="finite"):
        core.value_set_weights(4, good[0], bad, good[2], good[3], 0.0, 50.0)


def test_a_clearly_won_position_beats_a_clearly_lost_one():
    # play a real game to turn 40, then make seat 0 rich and seat 1 poor: the model must see it
    game = Game.new("imperium", 4, 21)
    bot = make_bot("heuristic", seed=1)
    while game.state.turns < 40:
        game.state.apply(bot.choose(game))
    d = game.state.export()
    d["players"][0]["coins"], d["players"][1]["coins"] = 60, 0
    d["players"][1]["goods"] = [0, 0, 0, 0, 0]
    d["players"][0]["houses"], d["players"][1]["houses"] = sorted(set(d["players"][0]["houses"]) |
                                                                 set(d["players"][1]["houses"])), []
    st = core.CoreState.load(d)
    p, vp = value.predict(st)
    assert p[0] > p[1] + 0.2 and vp[0] > vp[1] + 5
    assert p[0] == max(p)


def test_search_with_the_model_reports_probabilities_not_indicators():
    game = Game.new("italia", 3, 4)
    r = search(game, SearchConfig(iterations=1500, eval="net", seed=1))
    wins = [c.win for c in r.candidates]
    assert all(0.0 <= w <= 1.0 for w in wins)
    # leaf values are probabilities: the top candidate's estimate is neither 0 nor 1 at the opening
    assert 0.05 < r.best.win < 0.95
    assert r.best.win_se > 0


def test_a_search_reports_its_raw_mean_beside_the_shown_win():
    from concordia_ai.ai import outcome
    game = Game.new("imperium", 4, 2)
    r = search(game, SearchConfig(iterations=800, seed=3))
    best = r.best
    assert 0 <= best.win_raw <= 1
    # the shown win is the seat's share of the final-result model (the shares sum to 1 by construction)
    assert best.win == pytest.approx(best.seats[game.decider]) and sum(best.seats) == pytest.approx(1.0, abs=1e-12)
    assert r.model.eval == "net" and r.model.players == 4
    assert best.win != best.win_raw
    assert isinstance(r.horizon, float) and r.horizon == outcome.game_horizon(game)


def test_reliability_gives_the_expected_calibration_error():
    ece, table = value.reliability([0.05, 0.05, 0.95, 0.95], [0, 1, 1, 1])
    assert ece == pytest.approx(0.5 * 0.45 + 0.5 * 0.05)
    assert [(t["bin"], t["n"], t["observed"]) for t in table] == [("0.0-0.1", 2, 0.5), ("0.9-1.0", 2, 1.0)]


@pytest.mark.parametrize("players,same_as", [(2, "net"), (3, "net"), (5, "net")])
def test_auto_evaluation_is_the_model_with_every_player_count(players, same_as):
    # with 2 players it was the hand formula until 2026-12-04 (8th session): results/net-2p/README.md
    from concordia_ai.ai.search import effective_eval
    assert SearchConfig().eval == "auto" and effective_eval("auto", players) == same_as
    game = Game.new("italia", players, 9)
    auto = search(game, SearchConfig(iterations=800, seed=3))
    fixed = search(game, SearchConfig(iterations=800, seed=3, eval=same_as))
    assert [(c.move, c.visits, c.win) for c in auto.candidates] == [(c.move, c.visits, c.win) for c in fixed.candidates]
    assert auto.model == fixed.model and auto.model.eval == same_as
