"""Sharp policy targets (issue 25, deliverable 2): policy target pruning and the improved policy on
constructed root statistics with exact numbers, the targets' entropy on a constructed distribution, and the
data generator's playout cap randomization (only full-budget decisions recorded, the share, replays)."""
import json
import math
import sys
from pathlib import Path

import numpy as np
import pytest

from concordia_ai.ai import policy

from concordia_ai import core
from concordia_ai.lab import policy_data, policy_targets
from concordia_ai.lab.policy_targets import Selection, entropy_report, improved_policy, pruned_visits

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
import train_policy  # noqa: E402


@pytest.fixture(autouse=True)
def core_without_weights_after():
    yield
    policy.unload()       # a gate bot or a search leaves its prior in the core: the next test finds none


# ---------------------------------------------------------------- policy target pruning

def test_pruning_keeps_the_fewest_visits_at_which_a_child_still_scores_below_the_best():
    # N = 1000, c = 0.5: the best (500 visits, mean 0.6) scores 0.6 + 0.5 sqrt(ln 1000 / 500) = 0.658770.
    # A child of mean q keeps the smallest m with q + 0.5 sqrt(ln 1000 / m) < 0.658770, i.e.
    # m > 0.25 ln 1000 / (0.658770 - q)^2: 145.97 -> 146 for 0.55, 68.51 -> 69 for 0.5, 8.21 -> 9 for 0.2,
    # 3.98 -> 4 for 0.0; the child of mean 0.1 would need m > 5.53, more than its 2 visits: it keeps them.
    out = pruned_visits([500, 300, 150, 50, 2, 10, 0], [0.6, 0.55, 0.5, 0.2, 0.1, 0.0, 0.0], 1000, Selection(c=0.5))
    assert out.tolist() == [500, 146, 69, 9, 2, 4, 0]


def test_a_child_pruned_to_one_visit_is_dropped():
    # c = 0.1: the best scores 0.6 + 0.1 sqrt(ln 1000 / 900) = 0.608761; mean 0.3 needs m > 0.7246 (1 visit:
    # dropped), mean 0.5 needs m > 5.84 (6)
    assert pruned_visits([900, 90, 10], [0.6, 0.3, 0.5], 1000, Selection(c=0.1)).tolist() == [900, 0, 6]


def test_pruning_counts_the_prior_term_of_the_score():
    # N = 160, c = 0.7: UCB alone keeps 38 of the second child's 60 (m > 37.45); with the PUCT term
    # W P sqrt(N) / (1 + n) at W = 1 a prior of 0.9 on it keeps all 60, a prior of 0.9 on the best only 25
    args = ([100, 60], [0.6, 0.5], 160)
    assert pruned_visits(*args, Selection(c=0.7)).tolist() == [100, 38]
    assert pruned_visits(*args, Selection(c=0.7, weight=1.0), prior=[0.1, 0.9]).tolist() == [100, 60]
    assert pruned_visits(*args, Selection(c=0.7, weight=1.0), prior=[0.9, 0.1]).tolist() == [100, 25]
    # a weight of 0 ignores the prior
    assert pruned_visits(*args, Selection(c=0.7), prior=[0.9, 0.1]).tolist() == [100, 38]


def test_pruning_under_the_puct_selection_is_katagos():
    # Q + c_puct P sqrt(N) / (1 + n), N = 400, c_puct = 1: the best (300 visits, mean 0.6, prior 0.5) scores
    # 0.6 + 0.5 * 20 / 301 = 0.633223; the other (mean 0.55, prior 0.5) keeps the smallest m with
    # 0.55 + 10 / (1 + m) < 0.633223: m > 119.16 -> 120 of its 150 visits; with a prior of 0.2,
    # 0.55 + 4 / (1 + m) < 0.633223: m > 47.07 -> 48
    puct = Selection("puct", c_puct=1.0)
    assert pruned_visits([300, 150], [0.6, 0.55], 400, puct, prior=[0.5, 0.5]).tolist() == [300, 120]
    assert pruned_visits([300, 150], [0.6, 0.55], 400, puct, prior=[0.5, 0.2]).tolist() == [300, 48]
    # a child whose score with all its visits is above the best's keeps them
    assert pruned_visits([300, 100], [0.6, 0.55], 400, puct, prior=[0.5, 0.5]).tolist() == [300, 100]


def _assert_core_agrees(sel: Selection, seed: int, nodes: int = 200) -> None:
    """On random inner nodes (every child visited), the core's PUCT pick (core.puct_pick) is the child that
    selection_scores ranks first, the availability count and the node's visits N being the parent's visits
    after this one."""
    rng = np.random.default_rng(seed)
    for _ in range(nodes):
        n = int(rng.integers(2, 8))
        visits = rng.integers(1, 60, n)
        means = rng.uniform(0.3, 0.7, n)
        prior = rng.dirichlet(np.ones(n))
        avail = int(visits.sum())
        children = [(int(v), float(m * v), float(p), avail) for v, m, p in zip(visits, means, prior)]
        # the core keeps floats: compare only where the best leads by more than their rounding
        scores = policy_targets.selection_scores(means, visits, avail + 1, sel, prior)
        top = np.sort(scores)[-2:]
        if top[1] - top[0] > 1e-4:
            assert core.puct_pick(children, sel.c_puct, 0.2, parent_visits=avail + 1, c_puct_log=sel.c_puct_log,
                                  c_puct_base=sel.c_puct_base) == int(np.argmax(scores))


def test_the_puct_score_is_the_cores():
    _assert_core_agrees(Selection("puct", c_puct=1.5), seed=8)


def test_the_growing_puct_weight_is_the_cores():
    """With c_puct_log the weight grows with the node's visits N: c_puct + c_puct_log ln((N + base) / base).
    At N = 400, base 100, c_puct 1, c_puct_log 0.5 it is 1 + 0.5 ln 5 = 1.804719; the core's pick agrees with
    selection_scores on random nodes, and pruning keeps more of a child's visits than at the constant 1."""
    grow = Selection("puct", c_puct=1.0, c_puct_log=0.5, c_puct_base=100.0)
    assert abs(grow.c_puct_at(400) - (1 + 0.5 * math.log(5))) < 1e-12
    assert Selection("puct", c_puct=1.0).c_puct_at(400) == 1.0
    # the pruning example above with c = 1.804719: 0.6 + 0.5 * 1.804719 * 20 / 301 = 0.659958 is the bar, and
    # 0.55 + 0.2 * 1.804719 * 20 / (1 + m) < 0.659958: m > 64.68 -> 65 (48 at the constant weight)
    assert pruned_visits([300, 150], [0.6, 0.55], 400, grow, prior=[0.5, 0.2]).tolist() == [300, 65]
    _assert_core_agrees(grow, seed=9)
    # a SearchConfig's knobs come through
    from concordia_ai.ai.search import SearchConfig
    sel = Selection.of(SearchConfig(iterations=10, c_puct_log=0.45, c_puct_base=300.0), 3)
    assert (sel.kind, sel.c_puct, sel.c_puct_log, sel.c_puct_base) == ("puct", 0.25, 0.45, 300.0)
    # the default "auto" resolves by the player count, as the core's search does (SearchConfig.core_dict)
    assert Selection.of(SearchConfig(iterations=10), 2).c_puct_log == 0.0
    assert Selection.of(SearchConfig(iterations=10), 4).c_puct_log == 0.45


def test_the_best_is_the_most_visited_child_and_ties_go_to_the_better_mean():
    # two children of 50 visits: the one of mean 0.6 is the best and keeps its visits whatever its place
    assert pruned_visits([50, 50], [0.5, 0.6], 100, Selection(c=0.1)).tolist()[1] == 50
    assert pruned_visits([50, 50], [0.6, 0.5], 100, Selection(c=0.1)).tolist()[0] == 50


# ---------------------------------------------------------------- the improved policy

def test_the_improved_policy_is_a_softmax_of_the_scaled_means_under_a_uniform_prior():
    # sigma(q) = (50 + 10) q: logits 30 and 29.4
    p = improved_policy([10, 10], [0.5, 0.49])
    assert p == pytest.approx([1 / (1 + math.exp(-0.6)), 1 / (1 + math.exp(0.6))], rel=1e-12)


def test_an_unvisited_move_is_completed_with_the_mixed_value():
    # visits 30, 10, 0 with means 0.6, 0.4 and a uniform prior: the root value 0.55, the prior-weighted mean
    # of the visited 0.5; v_mix = (0.55 + 40 * 0.5) / 41; sigma = 80 q
    v_mix = (0.55 + 40 * 0.5) / 41
    z = np.array([0.6, 0.4, v_mix]) * 80
    assert improved_policy([30, 10, 0], [0.6, 0.4, 0.0]) == pytest.approx(np.exp(z) / np.exp(z).sum(), rel=1e-12)
    # equal completed values leave the prior as it was
    assert improved_policy([10, 0], [0.5, 0.0], prior=[0.8, 0.2]) == pytest.approx([0.8, 0.2], rel=1e-12)


# ---------------------------------------------------------------- how sharp the targets are

def test_the_entropy_report_on_a_constructed_distribution():
    # decisions: [1, 0] (entropy 0, KL ln 2), uniform over 4 (ln 4, 0), [3, 1] (0.562335, ln 2 - 0.562335)
    # and one with no weight at all (left out)
    target = np.array([1, 0, 1, 1, 1, 1, 3, 1, 0, 0], np.float64)
    first, size = np.array([0, 2, 6, 8]), np.array([2, 4, 2, 2])
    r = entropy_report(target, first, size)
    h31 = -(0.75 * math.log(0.75) + 0.25 * math.log(0.25))
    assert r["decisions"] == 3
    assert r["mean_entropy"] == round((0 + math.log(4) + h31) / 3, 4) == 0.6495
    assert r["mean_kl_uniform"] == round((math.log(2) + 0 + math.log(2) - h31) / 3, 4) == 0.2747
    assert r["mean_uniform_entropy"] == round((2 * math.log(2) + math.log(4)) / 3, 4)


# ---------------------------------------------------------------- playout cap randomization

def test_the_playout_cap_draws_its_share_from_the_seat_seed():
    def draws(seed, share, n=4000):
        bot = policy_data.RecordingSearch(seed, dict(iterations=40), [], policy_data.PlayoutCap(share, 8))
        return [bot.full_budget() for _ in range(n)]
    quarter = draws(11, 0.25)
    assert 900 < sum(quarter) < 1100              # binomial(4000, 1/4): sd 27
    assert draws(11, 0.25) == quarter and draws(12, 0.25) != quarter
    assert all(draws(11, 1.0, 200))
    no_cap = policy_data.RecordingSearch(11, dict(iterations=40), [])
    assert all(no_cap.full_budget() for _ in range(50))


def test_only_full_budget_decisions_are_recorded_and_a_game_replays(tmp_path):
    search = dict(iterations=40, rollout_turns=2)
    cap = policy_data.PlayoutCap(share=0.3, fast=8)
    info = policy_data.generate(search, "italia", [2, 3], games=2, seed=4, out=str(tmp_path / "a.npz"), cap=cap)
    full, fast = info["searched"]["full"], info["searched"]["fast"]
    assert info["decisions"] == full and fast > full > 10
    assert 0.2 < full / (full + fast) < 0.4
    with np.load(tmp_path / "a.npz") as z:
        d = {k: z[k] for k in z.files}
    # every recorded decision was searched at the full budget: its root visits sum to 40, never to 8
    assert (np.add.reduceat(d["visits"], d["dec_first"]) == 40).all()
    assert (np.add.reduceat(d["pruned"], d["dec_first"]) <= 40).all()
    assert np.allclose(np.add.reduceat(d["improved"], d["dec_first"]), 1, atol=1e-5)
    # the player counts of the two games, and the feature n/5 the trainer reads from older files
    assert sorted(set(d["dec_players"].tolist())) == [2, 3]
    assert np.array_equal(np.rint(d["feats"][d["dec_first"], train_policy.PLAYERS_FEATURE] * 5), d["dec_players"])
    assert set(info["targets"]) == set(policy_targets.TARGETS)
    # the same seed replays the same games, draws and records
    again = policy_data.generate(search, "italia", [2, 3], games=2, seed=4, out=str(tmp_path / "b.npz"), cap=cap)
    assert again["searched"] == info["searched"]
    with np.load(tmp_path / "b.npz") as z:
        assert all(np.array_equal(d[k], z[k]) for k in d)


def test_the_value_data_comes_from_the_same_games(tmp_path):
    out = str(tmp_path / "a.npz")
    # 100 iterations (fast 20), not 20 (5): with generation 5's weights the 20-iteration game of this deal does
    # not end before the turn cap and is dropped (a tiny budget's stall: results/gen5-default/README.md)
    info = policy_data.generate(dict(iterations=100, rollout_turns=2), "italia", 3, games=1, seed=4, out=out,
                                cap=policy_data.PlayoutCap(0.25, 20), value=True)
    with np.load(info["value"]) as z:
        assert z["rows"].shape[1] == core.VALUE_FEATURES and (z["pos_players"] == 3).all()
        assert len(z["pos_first"]) > 10 and len(z["row_final"]) == len(z["rows"])


def test_the_value_data_holds_the_estimate_of_the_search_made_at_each_turn_start(tmp_path):
    out = str(tmp_path / "a.npz")
    # seed 5: games with turn starts of one legal move (seed 4's had none once c_puct_log became "auto")
    info = policy_data.generate(dict(iterations=20, rollout_turns=2), "italia", [2, 3], games=2, seed=5, out=out,
                                cap=policy_data.PlayoutCap(0.25, 5), value=True)
    with np.load(info["value"]) as z:
        d = {k: z[k] for k in z.files}
    it = d["pos_search_iters"]
    assert d["row_search_win"].shape == d["row_search_vp"].shape == d["row_final"].shape
    assert it.shape == d["pos_turn"].shape
    # searched at the full budget or the cap's fast one, or not at all (one legal move: no search)
    assert set(it.tolist()) == {0, 5, 20}
    for n in (2, 3):
        sel = np.nonzero(d["pos_players"] == n)[0]
        idx = d["pos_first"][sel][:, None] + np.arange(n)
        win, vp, searched = d["row_search_win"][idx], d["row_search_vp"][idx], it[sel] > 0
        assert np.isnan(win[~searched]).all() and np.isnan(vp[~searched]).all()
        assert ((win[searched] >= 0) & (win[searched] <= 1)).all()
        assert np.allclose(win[searched].sum(axis=1), 1, atol=1e-5)
        # the value model (eval auto, 2 and 3 players) backs up a final-VP estimate
        assert (vp[searched] > 20).all()
    # the hand formula backs up none (its VP is not on the final score's scale), only the win share
    hand = policy_data.generate(dict(iterations=20, rollout_turns=2, eval="hand"), "italia", [2], games=1, seed=5,
                                out=str(tmp_path / "h.npz"), cap=policy_data.PlayoutCap(0.25, 5), value=True)
    with np.load(hand["value"]) as z:
        searched = z["pos_search_iters"] > 0
        idx = z["pos_first"][searched][:, None] + np.arange(2)
        assert searched.any() and np.isnan(z["row_search_vp"][idx]).all()
        assert np.allclose(z["row_search_win"][idx].sum(axis=1), 1, atol=1e-5)
    # a log record from before the estimates (a resumed chunk) reads as having none
    records = [json.loads(line) for line in open(info["log"])]
    for k in ("value_search_win", "value_search_vp", "value_search_iters"):
        del records[0][k]
    old = policy_data.value_arrays(records)
    first = old["pos_game"] == records[0]["game_id"]
    assert (old["pos_search_iters"][first] == 0).all() and np.array_equal(old["pos_search_iters"][~first],
                                                                          it[d["pos_game"] != records[0]["game_id"]])


def test_a_bad_cap_is_refused(tmp_path):
    out = str(tmp_path / "a.npz")
    with pytest.raises(policy_data.PolicyDataError, match="^--cap-fast: 80 must be 1..the full budget"):
        policy_data.generate(dict(iterations=40), "italia", 2, games=1, seed=1, out=out,
                             cap=policy_data.PlayoutCap(0.25, 80))
    with pytest.raises(policy_data.PolicyDataError, match="^--cap-share: 0 must be in"):
        policy_data.generate(dict(iterations=40), "italia", 2, games=1, seed=1, out=out,
                             cap=policy_data.PlayoutCap(0, 8))
