"""The loop's gate (lab.gate): the sequential test's decisions on constructed win sequences."""
import math

import pytest

from concordia_ai.lab.gate import Sprt, stage_tasks, Side


def test_the_sprt_against_the_fair_share_of_four_players():
    t = Sprt.against_fair_share(4, delta=0.1)          # p0 0.25, p1 0.35, alpha = beta = 0.05
    lower, upper = t.bounds()
    assert (lower, upper) == (pytest.approx(-math.log(19)), pytest.approx(math.log(19)))
    win, loss = math.log(0.35 / 0.25), math.log(0.65 / 0.75)     # +0.3365, -0.1431
    assert t.step(1) == pytest.approx(win) and t.step(0) == pytest.approx(loss)
    # clearly better: 9 straight wins cross ln 19 = 2.944 (8 make 2.692)
    r = t.run([1] * 30, max_games=100)
    assert (r["decision"], r["games"], r["wins"]) == ("better", 9, 9)
    # clearly worse: 21 straight losses cross -2.944 (20 make -2.862)
    r = t.run([0] * 30, max_games=100)
    assert (r["decision"], r["games"]) == ("worse", 21)
    # unclear: the fair share (one win in four) drifts by -0.093 a block: after 12 games it goes on
    r = t.run([1, 0, 0, 0] * 3, max_games=100)
    assert r["decision"] == "continue" and r["games"] == 12 and r["llr"] == pytest.approx(3 * (win + 3 * loss), abs=1e-4)
    # ... and at the most games it stops undecided
    assert t.run([1, 0, 0, 0] * 3, max_games=12)["decision"] == "undecided"
    # games after the deciding one are not counted
    assert t.run([1] * 9 + [0] * 40, max_games=100)["games"] == 9


def test_the_sprt_counts_the_games_in_order():
    t = Sprt.against_fair_share(2, delta=0.4, alpha=0.1, beta=0.1)     # p1 0.9: a win +0.588, a loss -1.609
    # two losses first: -3.22 < ln(1/9) = -2.197, although wins follow
    assert t.run([0, 0] + [1] * 20, max_games=40)["decision"] == "worse"
    # four wins first: 2.35 > 2.197
    assert t.run([1, 1, 1, 1, 0, 0], max_games=40)["decision"] == "better"
    assert t.run([1, 0, 1, 1, 1, 1], max_games=40)["decision"] == "continue"


def test_the_gate_rotates_the_candidate_through_every_seat_of_a_deal():
    sides = dict(candidate=Side(dict(policy=0.3), "w"), incumbent=Side({}, None))
    tasks = stage_tasks("fixed", sides, dict(iterations=30), "italia", 3, 500, max_games=7)
    assert [(t["seed"], t["cand_seat"]) for t in tasks] == [(500, 0), (500, 1), (500, 2), (501, 0), (501, 1),
                                                           (501, 2), (502, 0)]
    assert tasks[0]["candidate"] == dict(search=dict(policy=0.3), weights="w", value_weights=None)


def test_a_side_with_its_own_budget_searches_with_it_and_the_other_with_the_stages():
    """Four times the time (issue 25 (c)) as a gate: the candidate's budget over the stage's; a side without one
    logs as before (no `budget` key), so the logs of equal budgets resume unchanged."""
    from concordia_ai.lab.gate import stage_search
    sides = dict(candidate=Side({}, None, "v", dict(iterations=0, seconds=0.12)), incumbent=Side({}, None, "v"))
    task = stage_tasks("time", sides, dict(iterations=0, seconds=0.03), "imperium", 4, 1, max_games=4)[0]
    assert stage_search(task["candidate"], task["budget"]) == dict(iterations=0, seconds=0.12)
    assert stage_search(task["incumbent"], task["budget"]) == dict(iterations=0, seconds=0.03)
    assert "budget" not in task["incumbent"]


def test_a_log_is_resumed_only_by_the_match_its_knobs_stood_for(tmp_path):
    """The setup keeps what each side's knobs stand for (side_meaning): a 2-player log whose incumbent, eval
    auto, searched with the hand formula (what auto meant with 2 players before 2026-12-04, 8th session) is
    not resumed by today's auto, the value model; a log written before setups kept the meaning is checked on
    the rest."""
    import json
    from concordia_ai.ai import outcome
    from concordia_ai.lab.gate import GateLogError, check_log, setup
    sides = dict(candidate=Side(dict(eval="hand"), None), incumbent=Side({}, None))
    task = stage_tasks("time", sides, dict(iterations=0, seconds=0.03), "italia", 2, 1, max_games=2)[0]
    now = setup(task)
    assert now["meaning"]["incumbent"]["eval"] == "net" and now["meaning"]["candidate"]["eval"] == "hand"
    assert now["meaning"]["incumbent"]["value_sha256"] == outcome.current_sha("value")
    assert "value_sha256" not in now["meaning"]["candidate"]       # the hand formula reads no value weights
    then = json.loads(json.dumps(now))
    then["meaning"]["incumbent"] = dict(now["meaning"]["incumbent"], eval="hand")
    del then["meaning"]["incumbent"]["value_sha256"]
    log = tmp_path / "g.jsonl"
    log.write_text(json.dumps(dict(seed=1, cand_seat=0, setup=then)) + "\n")
    with pytest.raises(GateLogError, match="what the incumbent stands for: eval hand -> net, value_sha256 "):
        check_log(str(log), [task])
    older = {k: v for k, v in now.items() if k != "meaning"}
    log.write_text(json.dumps(dict(seed=1, cand_seat=0, setup=older)) + "\n")
    check_log(str(log), [task])                                    # nothing to tell it by: taken as it is
    log.write_text(json.dumps(dict(seed=1, cand_seat=0, setup=json.loads(json.dumps(now)))) + "\n")
    check_log(str(log), [task])


def test_a_fixed_match_counts_every_game_where_a_screen_stops_at_the_decision(monkeypatch):
    """stop=False (gate.py --fixed) plays all max_games and counts them all; the test's own stopping point is
    kept beside them as sprt_games."""
    from concordia_ai.lab import gate
    wins = [1, 1, 1, 1, 0, 0, 0, 0]
    monkeypatch.setattr(gate._jobs, "run_logged", lambda fn, tasks, key, log, **kw: (
        [dict(win=wins[i], margin=0.0, cand_seconds=0.0, cand_choices=1, inc_seconds=0.0, inc_choices=1)
         for i in range(len(tasks))], None))
    test = Sprt.against_fair_share(2, delta=0.4, alpha=0.1, beta=0.1)   # four wins first decide "better"
    sides = dict(candidate=Side(), incumbent=Side())
    screen = gate.run_stage("fixed", sides, dict(iterations=5), "italia", 2, 1, test, 8, None, batch=2)
    assert screen["decision"] == "better" and screen["games"] == 4 and screen["wins"] == 4
    fixed = gate.run_stage("fixed", sides, dict(iterations=5), "italia", 2, 1, test, 8, None, batch=2, stop=False)
    assert fixed["decision"] == "better" and fixed["games"] == 8 and fixed["wins"] == 4
    assert fixed["played"] == 8 and fixed["sprt_games"] == 4


# ---------------------------------------------------------------- two priors in one process

def write_weights(directory, seed, hidden=3):
    """A weights directory as train_policy.py --out writes it: random sets for 2 and 3 players."""
    import hashlib
    import json
    import numpy as np
    from concordia_ai import core
    from concordia_ai.ai import policy
    rng = np.random.default_rng(seed)
    f = core.POLICY_FEATURES
    arrays = {}
    for n in (2, 3):
        arrays.update({f"p{n}_w_lin": rng.normal(0, 1, f), f"p{n}_w1": rng.normal(0, 0.5, (hidden, f)),
                       f"p{n}_b1": rng.normal(0, 0.3, hidden), f"p{n}_v": rng.normal(0, 1, hidden)})
    directory.mkdir()
    np.savez(directory / "weights.npz", **{k: v.astype(np.float32) for k, v in arrays.items()})
    digest = hashlib.sha256((directory / "weights.npz").read_bytes()).hexdigest()
    (directory / "weights.json").write_text(json.dumps(dict(format=policy.FORMAT, features=f, players=[2, 3],
                                                            hidden=hidden, sha256=digest)))
    return str(directory)


def test_each_gate_bot_searches_with_its_own_prior(tmp_path):
    import numpy as np
    from concordia_ai import core
    from concordia_ai.ai import policy
    from concordia_ai.engine.game import Game
    from concordia_ai.lab import prior_weights
    a, b = write_weights(tmp_path / "a", 1), write_weights(tmp_path / "b", 2)
    state = Game.new("italia", 3, 4).state
    x = core.policy_features_of(state)
    expect = {d: policy.forward_numpy(policy.read_weights(*prior_weights.weight_files(d))[3], x) for d in (a, b)}
    assert not np.allclose(expect[a], expect[b], atol=1e-3)
    try:
        for d in (a, b, a, b):
            prior_weights.hold(d)
            assert np.allclose(core.policy_priors(state), expect[d], atol=1e-4)
        # after the policy module unloads, hold puts them back
        policy.unload()
        prior_weights.hold(a)
        assert core.policy_ready(3) and np.allclose(core.policy_priors(state), expect[a], atol=1e-4)
    finally:
        policy.unload()


# ---------------------------------------------------------------- two value models in one process

@pytest.fixture
def shipped_value_after():
    yield
    from concordia_ai.ai import value
    value.load()          # the next test finds the shipped value weights in the core


def write_value_weights(directory, scale=3.0):
    """A value weights directory as train_value.py --out writes it: the shipped sets with the win scores
    `scale` times sharper and the VP halved, so every output differs from the shipped one."""
    import hashlib
    import json
    import numpy as np
    from concordia_ai import core
    from concordia_ai.ai import value
    arrays = {}
    for n, w in value.read_weights().items():
        arrays.update({f"p{n}_{k}": v for k, v in w.items()})
        arrays[f"p{n}_w_win"] = w["w_win"] * scale
        arrays[f"p{n}_vp_scale"] = w["vp_scale"] * 0.5
    directory.mkdir()
    np.savez(directory / "weights.npz", **arrays)
    digest = hashlib.sha256((directory / "weights.npz").read_bytes()).hexdigest()
    (directory / "weights.json").write_text(json.dumps(dict(format=value.FORMAT, features=core.VALUE_FEATURES,
                                                            sha256=digest)))
    return str(directory)


def test_value_weights_hold_swaps_the_sets_and_none_restores_the_shipped_ones(tmp_path, shipped_value_after):
    import numpy as np
    from concordia_ai import core
    from concordia_ai.ai import value
    from concordia_ai.engine.game import Game
    from concordia_ai.lab import value_weights
    state = Game.new("italia", 3, 4).state
    value.load()
    shipped = core.value_of(state)
    d = write_value_weights(tmp_path / "v")
    value_weights.hold(d)
    held = core.value_of(state)
    assert not np.allclose(held[0], shipped[0], atol=1e-3) and not np.allclose(held[1], shipped[1], atol=1e-2)
    # the search's own loading (SearchConfig.core_dict: ensure_loaded) keeps the held set
    value.ensure_loaded()
    assert core.value_of(state) == held and value.predict(state) == held
    value_weights.hold(None)
    assert core.value_of(state) == shipped and value._loaded == str(value.WEIGHTS)
    value_weights.hold(d)
    assert core.value_of(state) == held
    # emptied behind its back (core.value_clear, value.load of another file): hold puts its set back
    core.value_clear()
    value_weights.hold(d)
    assert core.value_of(state) == held
    value.load()
    value_weights.hold(d)
    assert core.value_of(state) == held


def test_each_gate_bot_holds_its_sides_value_weights_when_its_search_uses_the_model(tmp_path,
                                                                                   shipped_value_after):
    from concordia_ai.ai import value
    from concordia_ai.engine.game import Game
    from concordia_ai.lab import value_weights
    from concordia_ai.lab.gate import GateBot
    d = write_value_weights(tmp_path / "v")
    held = str(value_weights.weight_files(d)[0])
    tiny = dict(iterations=20, rollout_turns=1, select="ucb", policy=0)
    three = Game.new("italia", 3, 4)
    GateBot(1, tiny, None, d).choose(three)
    assert value._loaded == held
    GateBot(2, tiny, None, None).choose(three)                 # no value weights of its own: the shipped
    assert value._loaded == str(value.WEIGHTS)
    GateBot(3, tiny, None, d).choose(three)
    assert value._loaded == held
    # a search with the hand formula leaves the core alone
    GateBot(4, dict(tiny, eval="hand"), None, None).choose(three)
    GateBot(5, dict(tiny, eval="hand"), None, None).choose(Game.new("italia", 2, 4))
    assert value._loaded == held
    GateBot(6, tiny, None, d).choose(Game.new("italia", 2, 4))       # auto with 2 players: the model too
    assert value._loaded == held


def test_a_gate_game_with_a_candidate_value_model_runs(tmp_path, monkeypatch, shipped_value_after):
    from concordia_ai.lab import gate, value_weights
    d = write_value_weights(tmp_path / "v")
    holds = []
    real = value_weights.hold
    monkeypatch.setattr(value_weights, "hold", lambda directory: holds.append(directory) or real(directory))
    knobs = dict(select="ucb", policy=0)
    sides = dict(candidate=Side(knobs, None, d), incumbent=Side(knobs, None))
    task = stage_tasks("fixed", sides, dict(iterations=20, rollout_turns=1), "italia", 3, 700, max_games=3)[1]
    assert task["candidate"] == dict(search=knobs, weights=None, value_weights=d)
    r = gate.play_gate_game(task)
    assert r["cand_seat"] == 1 and r["rank"] in (1, 2, 3) and r["cand_choices"] > 0 and r["inc_choices"] > 0
    # the candidate's searches held its set, the incumbent's the shipped one, turn by turn
    assert set(holds) == {d, None} and holds.count(d) == r["cand_choices"]


def test_a_self_play_game_holds_the_value_weights_it_is_given(tmp_path, shipped_value_after):
    """The loop's self-play searches with its incumbent's value model (best.json's value_weights), and a
    worker that held another set before puts the shipped one back when given none."""
    from concordia_ai.ai import value
    from concordia_ai.lab import policy_data, value_weights
    d = write_value_weights(tmp_path / "v")
    task = dict(search=dict(iterations=8, rollout_turns=1, select="ucb", policy=0), boards=["italia"], counts=[3],
                seed=5, game_id=0, cap=None, value=False, weights=None, value_weights=d)
    record = policy_data.play_task(task)
    assert value._loaded == str(value_weights.weight_files(d)[0]) and record["decisions"] > 0
    policy_data.play_task(dict(task, value_weights=None))
    assert value._loaded == str(value.WEIGHTS)
