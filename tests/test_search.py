"""ISMCTS: no clairvoyance, clearly best moves in constructed positions, result structure, every knob,
bad configs, and a small match against the random bot."""
from __future__ import annotations

import pytest

from concordia_ai import core
from concordia_ai.ai.bots import make_bot, play_game
from concordia_ai.engine.game import CHANCE, Game, GameError
from concordia_ai.ai.search import SearchConfig, search
from positions_search import (fifteenth_house_game, keep_game, last_card_game, prefect_game, small_deck_game,
                              useless_card_game)

SEEDS = (1, 2, 3)


def _summary(r):
    return [(c.move, c.text, c.visits, round(c.mean, 9), round(c.win, 9), round(c.vp, 6), round(c.margin, 6),
             c.pv) for c in r.candidates]


# ---------------------------------------------------------------- no clairvoyance

ORDER_A = ["Colonist/I", "Farmer/I", "Smith/I", "Colonist/II", "Mercator/II", "Prefect/II", "Vintner/II"]
ORDER_B = ["Smith/I", "Colonist/I", "Farmer/I", "Vintner/II", "Prefect/II", "Colonist/II", "Mercator/II"]


@pytest.mark.parametrize("senator", [False, True])
def test_true_stack_order_does_not_change_the_search(senator):
    results = []
    for order in (ORDER_A, ORDER_B, "null"):
        g = small_deck_game(order)
        if senator:
            g.apply("play Senator")         # every buy now reveals a card from the 3-card deck I
        r = search(g, SearchConfig(iterations=2000, seed=11, rollout_turns=4))
        results.append(_summary(r))
        assert r.iterations == 2000
    assert results[0] == results[1] == results[2]


def test_true_stack_order_does_not_change_flat_mc_or_heuristics():
    games = [small_deck_game(o) for o in (ORDER_A, ORDER_B, "null")]
    cfg = SearchConfig(iterations=600, seed=4, eval="net").core_dict(players=games[0].n_players)
    flat = [core.flat_monte_carlo(g.state, cfg) for g in games]
    assert flat[0] == flat[1] == flat[2]
    for plan in (False, True):
        assert len({core.choose_greedy(g.state, 9, plan) for g in games}) == 1


# ---------------------------------------------------------------- clearly best moves

def _best(g, seed, **kw):
    return search(g, SearchConfig(iterations=3000, seed=seed, **kw)).best


@pytest.mark.parametrize("seed", SEEDS)
def test_buys_the_last_card_to_end_a_game_it_leads(seed):
    g = last_card_game()
    best = _best(g, seed)
    assert best.text == "play Senator"
    assert best.win > 0.95
    g.apply("play Senator")
    assert _best(g, seed).text == "buy Mason/I"


@pytest.mark.parametrize("seed", SEEDS)
def test_builds_the_15th_house_while_ahead(seed):
    g = fifteenth_house_game()
    best = _best(g, seed)
    assert best.text == "build Carthago"
    assert best.win == 1.0


@pytest.mark.parametrize("seed", SEEDS)
def test_prefect_produces_the_province_that_pays_most(seed):
    # the hand evaluation: the value model misjudges this constructed position (turn 0 with five houses
    # each, far from any self-play position) and spreads its visits over every province
    assert _best(prefect_game(), seed, eval="hand").text == "produce Aegyptus"


@pytest.mark.parametrize("seed", SEEDS)
def test_does_not_buy_a_card_that_costs_more_than_it_brings(seed):
    g = useless_card_game()
    r = search(g, SearchConfig(iterations=3000, seed=seed))
    assert r.best.text == "done"
    done = r.best
    for c in r.candidates[1:]:
        assert c.mean < done.mean


@pytest.mark.parametrize("seed", SEEDS)
def test_keep_prefers_cloth_when_bricks_are_plentiful(seed):
    # 3 bricks already stored: the brick is worth no more than its price, the cloth is worth 7
    # (the hand formula's judgement, the 2-player evaluation when this was written: with the value model, the
    # 2-player default since 2026-12-04, cloth shows the higher win share but brick takes more of the visits,
    # 0.456 against 0.443 on 925 against 2,075 at seed 1, an expected VP within 0.2: a near tie). The search's
    # judgement is its mean reward (final="mean"): the visits of so near a tie follow the prior (with generation
    # 5's, brick took more of the 3,000 visits at seeds 3 and 5 while cloth kept the higher mean at every seed 1-6)
    g = keep_game(bricks=3, food=4)
    assert sorted(g.text(m) for m in g.legal_moves()) == ["keep brick", "keep cloth"]
    assert _best(g, seed, eval="hand", final="mean").text == "keep cloth"


def test_keep_prefers_the_brick_when_it_is_the_only_one():
    # with no brick in store no house can be built: the search values the brick over the cloth (checked:
    # it is the better move, not a search error)
    g = keep_game(bricks=0, food=7)
    assert _best(g, 1, eval="hand").text == "keep brick"    # the value model prefers the cloth here


# ---------------------------------------------------------------- result structure

def _replay_pv(game, pv):
    g = game.clone()
    g.state.set_chance(False, True)
    for text in pv:
        assert g.parse(text) in g.legal_moves(), (text, pv)
        g.apply(text)


@pytest.mark.parametrize("final", ["visits", "mean"])
def test_candidates_sorted_and_visits_sum(final):
    g = small_deck_game("null")
    r = search(g, SearchConfig(iterations=3000, seed=2, final=final))
    key = (lambda c: (c.visits, c.mean)) if final == "visits" else (lambda c: (c.mean, c.visits))
    assert [key(c) for c in r.candidates] == sorted((key(c) for c in r.candidates), reverse=True)
    assert r.best is r.candidates[0]
    assert r.iterations == 3000
    assert 2990 <= sum(c.visits for c in r.candidates) <= 3000
    legal = set(g.legal_moves())
    assert {c.move for c in r.candidates} <= legal
    for c in r.candidates:
        assert c.text == g.text(c.move)
        assert 0.0 <= c.mean <= 1.0 and 0.0 <= c.win <= 1.0
        assert c.pv and c.pv[0] == c.text
        _replay_pv(g, c.pv)
    assert r.nodes > r.iterations and r.bytes > 0 and r.seconds >= 0
    d = r.to_dict()
    assert d["config"]["final"] == final and len(d["candidates"]) == len(r.candidates)


def test_pv_through_reveals_is_legal():
    g = small_deck_game("null")
    g.apply("play Senator")
    r = search(g, SearchConfig(iterations=3000, seed=5))
    assert any(any(m.startswith("reveal") for m in c.pv) for c in r.candidates)
    for c in r.candidates:
        _replay_pv(g, c.pv)


def test_search_does_not_change_the_game():
    g = Game.new("italia", 3, seed=4)
    before = g.to_json()
    search(g, SearchConfig(iterations=500, seed=1))
    assert g.to_json() == before


def test_same_seed_same_result_other_seed_differs():
    g = Game.new("imperium", 3, seed=8)
    a = search(g, SearchConfig(iterations=1500, seed=1))
    b = search(g, SearchConfig(iterations=1500, seed=1))
    c = search(g, SearchConfig(iterations=1500, seed=2))
    assert _summary(a) == _summary(b)
    assert _summary(a) != _summary(c)


def test_jobs_take_any_bot_seed():
    # a bot's seeds use the whole range of seeds (Bot.next_seed): the jobs' own seeds stay in the core's range, so a bot spec
    # with jobs > 1 plays in a tournament instead of stopping at its first move
    from concordia_ai.ai.bots import make_bot
    g = Game.new("imperium", 4, seed=5)
    r = search(g, SearchConfig(iterations=100, seed=2 ** 63 - 1, jobs=2))
    assert r.searches == 2 and r.iterations == 200
    assert make_bot("ismcts:iterations=60,jobs=3", seed=11).choose(g) in g.legal_moves()


@pytest.mark.parametrize("final", ["visits", "mean"])
def test_a_root_parallel_bot_plays_the_merged_search_best(final):
    # best_move merges the jobs' roots itself (no figures, no notation): the move search() puts first
    from concordia_ai.ai.search import best_move
    for board, players, seed in (("imperium", 4, 1), ("italia", 3, 2), ("creta", 2, 3)):
        g = Game.new(board, players, seed)
        for _ in range(3 * players):      # a few turns in, away from the opening
            g.state.apply(g.legal_moves()[seed % len(g.legal_moves())])
        cfg = SearchConfig(iterations=150, seed=seed, jobs=3, final=final)
        assert best_move(g, cfg) == search(g, cfg).best.move


def test_jobs_two_merges_root_statistics():
    g = Game.new("imperium", 2, seed=5)
    r = search(g, SearchConfig(iterations=800, seed=3, jobs=2))
    assert r.iterations == 1600
    assert 1590 <= sum(c.visits for c in r.candidates) <= 1600
    assert len({c.move for c in r.candidates}) == len(r.candidates)
    for c in r.candidates:
        assert c.move in g.legal_moves()
    assert r.candidates == sorted(r.candidates, key=lambda c: (c.visits, c.mean), reverse=True)
    # each job is an independent search with its own seed: the merge is their sum
    from concordia_ai import core
    cfg = SearchConfig(iterations=800, seed=3)
    singles = [core.search(g.state.copy(), dict(cfg.core_dict(3 * 1000003 + j, players=g.n_players), turns=0))
               for j in range(2)]
    for c in r.candidates:
        assert c.visits == sum(ch["visits"] for s in singles for ch in s["children"] if ch["action"] == c.move)


def test_seconds_budget_stops():
    g = Game.new("imperium", 4, seed=1)
    r = search(g, SearchConfig(iterations=0, seconds=0.2, seed=1, rollout_turns=0))
    assert 0.15 <= r.seconds < 1.0
    assert r.iterations > 10
    assert r.best.move in g.legal_moves()


@pytest.mark.parametrize("kw", [
    dict(reward="win"), dict(reward="rank"), dict(reward="margin"), dict(reward="mix", mix=0.3),
    dict(rollout="random"), dict(rollout="greedy", epsilon=0.1), dict(rollout_turns=0), dict(rollout_turns=8),
    dict(prior=True), dict(fpu=0.5), dict(pw_k=2.0, pw_alpha=0.5), dict(c=0.0), dict(final="mean"),
    dict(prior=True, fpu=0.6, pw_k=1.5, rollout="greedy", reward="rank"),
])
def test_every_knob_runs_and_returns_a_legal_move(kw):
    for board, n, seed in (("imperium", 4, 1), ("italia", 3, 2)):
        g = Game.new(board, n, seed=seed)
        for _ in range(25):                 # a little into the game, past the opening
            g.apply(g.legal_moves()[seed % len(g.legal_moves())])
            if g.decider == CHANCE:
                break
        r = search(g, SearchConfig(iterations=300, seed=1, **kw))
        assert r.best.move in g.legal_moves()
        assert r.iterations == 300
        assert all(0.0 <= c.mean <= 1.0 for c in r.candidates)


def test_progressive_widening_limits_root_children():
    g = Game.new("imperium", 2, seed=3)
    g.apply("play Architect")
    n_legal = len(g.legal_moves())
    assert n_legal > 10
    ucb = dict(select="ucb", policy=0.0)      # progressive widening is UCB's (PUCT makes every child at once)
    r = search(g, SearchConfig(iterations=100, seed=1, pw_k=1.0, pw_alpha=0.5, **ucb))
    assert len(r.candidates) <= 11        # at most 1 * sqrt(101) children
    r = search(g, SearchConfig(iterations=100, seed=1, **ucb))
    assert len(r.candidates) == n_legal


@pytest.mark.parametrize("kw, words", [
    (dict(iterations=0), "budget"), (dict(iterations=-1), "iterations"), (dict(seconds=-1.0), "seconds"),
    (dict(c=-0.1), "c: -0.1 is out of range"), (dict(final="best"), "final must be one of visits, mean"),
    (dict(reward="score"), "reward must be one of win, rank, margin, mix"), (dict(mix=1.5), "mix"),
    (dict(margin_scale=0), "margin_scale"), (dict(rollout="smart"), "rollout must be one of random, greedy"),
    (dict(epsilon=2.0), "epsilon"), (dict(rollout_turns=-1), "rollout_turns"), (dict(fpu=1.5), "fpu"),
    (dict(pw_k=-1.0), "pw_k"), (dict(pw_alpha=0.0), "pw_alpha"), (dict(jobs=0), "jobs"),
    (dict(seed=-1), "seed"),
])
def test_bad_config_raises_game_error(kw, words):
    with pytest.raises(GameError) as e:
        SearchConfig(**kw)
    assert "search config" in str(e.value) and words in str(e.value)


@pytest.mark.parametrize("kw, field, words", [
    (dict(iterations=0, seconds=float("nan")), "seconds", "seconds: nan is not a finite number"),
    (dict(iterations=0, seconds=float("inf")), "seconds", "seconds: inf is not a finite number"),
    (dict(iterations=0, seconds=86401.0), "seconds", "give a number in 0.001..86,400"),
    (dict(iterations=3_000_000_000), "iterations", "give an integer in 1..2,147,483,647"),
    (dict(rollout_turns=10 ** 12), "rollout_turns", "give an integer in 0..10,000"),
    (dict(seed=2 ** 70), "seed", "give an integer in 0..9,223,372,036,854,775,807"),
    (dict(jobs=True), "jobs", "jobs: True is not an integer"),
    (dict(c=float("inf")), "c", "c: inf is not a finite number"),
    (dict(mix=float("nan")), "mix", "mix: nan is not a finite number"),
    (dict(iterations="5"), "iterations", "iterations: '5' is not an integer"),
])
def test_unbounded_knobs_are_refused_with_their_field(kw, field, words):
    with pytest.raises(GameError) as e:
        SearchConfig(**kw)
    assert e.value.field == field and words in str(e.value), str(e.value)


def test_float_knobs_take_integers():
    assert SearchConfig(c=1, seconds=2, iterations=0).c == 1.0 and isinstance(SearchConfig(c=1).c, float)


def test_search_refuses_positions_without_a_deciding_player():
    g = small_deck_game("null")
    g.state.set_chance(False, True)
    g.apply("play Senator"); g.apply("buy Mason/I paying brick"); g.apply("done")
    assert g.decider == CHANCE
    with pytest.raises(GameError, match="no player decides"):
        search(g, SearchConfig(iterations=10))
    g = Game.new("imperium", 2, seed=1)
    g.state.random_playout(1)
    assert g.is_over
    with pytest.raises(GameError, match="no player decides"):
        search(g, SearchConfig(iterations=10))


# ---------------------------------------------------------------- strength

def test_ismcts_beats_random():
    wins = 0
    for seed in range(2):
        for seat in (0, 1):
            bots = [make_bot("random", seed=seed), make_bot("random", seed=seed + 100)]
            bots[seat] = make_bot("ismcts:iterations=300", seed=seed)
            g = play_game(bots, board="imperium", seed=seed).game
            wins += g.ranking()[0] == seat
    assert wins >= 3
