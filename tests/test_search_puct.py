"""Selection that lets a prior prune (issue 25, deliverable 1): SearchConfig(select="puct") makes a node's
children at once with their prior (computed once per node) and selects by PUCT with first-play urgency, so a
move with a tiny prior is never tried. It is the default since 2026-12-04 (with the learned prior, c_puct 0.25);
select="ucb" (search.UCB_DEFAULT, the default before) is that search, bit for bit."""
import hashlib
import json
import math

import numpy as np
import pytest

from concordia_ai import core
from concordia_ai.ai import policy
from concordia_ai.ai.bots import BotSpecError, make_bot, parse_spec
from concordia_ai.ai.search import SearchConfig, SearchConfigError, search, search_raw
from concordia_ai.engine.game import Game

PF_CARD = 30                  # policy.pxi: the card action's one-hot (C_*) starts here


@pytest.fixture(autouse=True)
def shipped_weights_after():
    yield
    policy.unload()           # leave the core as a fresh process finds it


def opening():
    return Game.new("imperium", 4, 1)


def card_action(game, move):
    """The card action (C_*) of a 'play' move: the slot of its one-hot among the policy features."""
    row = core.policy_features_of(game.state)[game.legal_moves().index(move)]
    return int(np.argmax(row[PF_CARD:PF_CARD + 9]))


def load_prior_against(game, move, players=4):
    """Policy weights that give `move` (a card play) a prior of about e^-40 and the other moves an even share."""
    w_lin = np.zeros(core.POLICY_FEATURES, np.float32)
    w_lin[PF_CARD + card_action(game, move)] = -40.0
    core.policy_set_weights(players, w_lin, np.zeros((0, core.POLICY_FEATURES), np.float32),
                            np.zeros(0, np.float32), np.zeros(0, np.float32))


# ---------------------------------------------------------------- the formula on constructed numbers

def reference_pick(children, c_puct, fpu_reduction, fpu_scaled=True, c_puct_log=0.0, c_puct_base=500.0,
                   parent_visits=0):
    """PUCT with first-play urgency in Python: children (visits, summed reward, prior, availability before),
    at a node visited parent_visits times (N of the growing c_puct)."""
    c_puct += c_puct_log * math.log((parent_visits + c_puct_base) / c_puct_base)
    visited = [(n, w, p) for n, w, p, _ in children if n > 0]
    parent_q = sum(w for _, w, _ in visited) / sum(n for n, _, _ in visited) if visited else 0.0
    fpu_q = parent_q - fpu_reduction * (math.sqrt(sum(p for _, _, p in visited)) if fpu_scaled else 1.0)
    scores = [(w / n if n > 0 else fpu_q) + c_puct * p * math.sqrt(a + 1) / (1 + n) for n, w, p, a in children]
    return max(range(len(children)), key=lambda i: scores[i]), sorted(scores)


def test_puct_picks_what_the_formula_says_on_constructed_numbers():
    # two visited moves and a third unvisited: Q 0.6 and 0.5, parent mean 0.55; the unvisited one's value is
    # 0.55 - 0.5 * sqrt(0.9) = 0.076, plus its prior term 1.0 * 0.1 * sqrt(21) = 0.458: 0.534, below the first
    # move's 0.6 + 1.0 * 0.5 * sqrt(21) / 11 = 0.808
    kids = [(10, 6.0, 0.5, 20), (10, 5.0, 0.4, 20), (0, 0.0, 0.1, 20)]
    assert core.puct_pick(kids, 1.0, 0.5) == reference_pick(kids, 1.0, 0.5)[0] == 0
    # ... and without the reduction the unvisited move's value is the parent's mean: it is tried
    assert core.puct_pick(kids, 1.0, 0.0) == reference_pick(kids, 1.0, 0.0)[0] == 2
    # scaled, the reduction is small while the visited moves hold little prior: 0.5 - 1.0 * sqrt(0.05) +
    # 0.2 * 0.9 * sqrt(6) = 0.717 beats 0.5 + 0.2 * 0.05 * sqrt(6) / 5 = 0.505; unscaled it is -0.059
    kids = [(4, 2.0, 0.05, 5), (0, 0.0, 0.9, 5), (0, 0.0, 0.05, 5)]
    assert core.puct_pick(kids, 0.2, 1.0, fpu_scaled=True) == reference_pick(kids, 0.2, 1.0, True)[0] == 1
    assert core.puct_pick(kids, 0.2, 1.0, fpu_scaled=False) == reference_pick(kids, 0.2, 1.0, False)[0] == 0
    # nothing visited yet: the largest prior term
    assert core.puct_pick([(0, 0.0, 0.2, 0), (0, 0.0, 0.7, 0), (0, 0.0, 0.1, 0)], 1.0, 0.2) == 1
    # a move with a prior of 1e-9 stays unvisited after a million visits of its parent
    kids = [(600_000, 300_000.0, 0.5, 10**6), (399_999, 190_000.0, 0.5, 10**6), (0, 0.0, 1e-9, 10**6)]
    assert core.puct_pick(kids, 5.0, 0.2) != 2


def agreed_on_random_nodes(seed, knobs):
    """How many of 400 random constructed nodes puct_pick picks as the reference does (it must on all but near
    ties, which are skipped); knobs(rng) draws each node's settings, keyword arguments of both."""
    rng = np.random.default_rng(seed)
    checked = 0
    for _ in range(400):
        k = int(rng.integers(2, 9))
        prior = rng.dirichlet(np.ones(k))
        avail = int(rng.integers(1, 500))
        kids = []
        for i in range(k):
            n = int(rng.integers(0, avail + 1)) if rng.random() < 0.7 else 0
            kids.append((n, float(np.float32(n * rng.random())), float(np.float32(prior[i])), avail))
        kw = knobs(rng)
        want, scores = reference_pick(kids, **kw)
        if scores[-1] - scores[-2] < 1e-4:
            continue                  # a near tie: float32 in the core may break it the other way
        assert core.puct_pick(kids, **kw) == want, (kids, kw)
        checked += 1
    return checked


def test_puct_agrees_with_the_reference_on_random_constructed_nodes():
    assert agreed_on_random_nodes(4, lambda rng: dict(c_puct=float(rng.uniform(0, 3)),
                                                      fpu_reduction=float(rng.uniform(0, 1)),
                                                      fpu_scaled=bool(rng.random() < 0.5))) > 300


def test_c_puct_grows_with_the_nodes_visits_and_flips_the_pick_where_the_formula_says():
    # Q 0.5 with prior 0.2 and 9 visits against Q 0.25 with prior 0.5 and 4 visits, sqrt(avail) = sqrt(16) = 4:
    # the prior terms are c * 0.08 and c * 0.4, so the second move is picked once c * 0.32 > 0.25, c > 0.78125
    kids = [(9, 4.5, 0.2, 15), (4, 1.0, 0.5, 15)]
    for n in (0, 350, 351, 10**6):    # the constant 0.25 never gets there
        assert core.puct_pick(kids, 0.25, 0.2, parent_visits=n) == 0
        assert core.puct_pick(kids, 0.25, 0.2, parent_visits=n, c_puct_log=0.0, c_puct_base=1.0) == 0
    assert core.puct_pick(kids, 0.79, 0.2) == 1 and core.puct_pick(kids, 0.77, 0.2) == 0
    # c(N) = 0.25 + ln((N + 500) / 500) passes 0.78125 at N = 500 * (e^0.53125 - 1) = 350.53
    crossing = 500 * (math.exp(0.78125 - 0.25) - 1)
    assert 350.5 < crossing < 350.6
    for n, want in ((0, 0), (350, 0), (351, 1), (10**6, 1)):
        assert core.puct_pick(kids, 0.25, 0.2, parent_visits=n, c_puct_log=1.0) == want, n
        assert reference_pick(kids, 0.25, 0.2, c_puct_log=1.0, parent_visits=n)[0] == want, n
    # the base scales N: with 200 the crossing is at 200 * (e^0.53125 - 1) = 140.21
    assert core.puct_pick(kids, 0.25, 0.2, parent_visits=140, c_puct_log=1.0, c_puct_base=200.0) == 0
    assert core.puct_pick(kids, 0.25, 0.2, parent_visits=141, c_puct_log=1.0, c_puct_base=200.0) == 1
    # ... and the unvisited moves': one of prior 0.1 is worth the first-play urgency 0.5 - 0.2 * sqrt(0.2) =
    # 0.4106 plus c * 0.4, against the visited move's 0.5 + c * 0.08: tried once c > 0.2795, at
    # N > 500 * (e^((0.2795 - 0.25) / 0.5) - 1) = 30.40
    kids = [(9, 4.5, 0.2, 15), (0, 0.0, 0.1, 15)]
    crossing = 500 * (math.exp((0.2 * math.sqrt(0.2) / 0.32 - 0.25) / 0.5) - 1)
    assert 30.3 < crossing < 30.5
    for n, want in ((0, 0), (30, 0), (31, 1), (10**6, 1)):
        assert core.puct_pick(kids, 0.25, 0.2, parent_visits=n, c_puct_log=0.5) == want, n
        assert core.puct_pick(kids, 0.25, 0.2, parent_visits=n) == 0, n


def test_growing_c_puct_agrees_with_the_reference_on_random_constructed_nodes():
    # in about a quarter of these nodes the log term changes the pick
    assert agreed_on_random_nodes(9, lambda rng: dict(c_puct=float(rng.uniform(0, 1)),
                                                      fpu_reduction=float(rng.uniform(0, 1)),
                                                      c_puct_log=float(np.float32(rng.uniform(0, 2))),
                                                      c_puct_base=float(np.float32(rng.uniform(1, 1000))),
                                                      parent_visits=int(rng.integers(0, 10**5)))) > 300


def test_the_root_floor_applies_to_the_moves_puct_has_tried():
    kids = [(90, 60.0, 0.6, 99), (2, 0.5, 0.3, 99), (0, 0.0, 0.1, 99)]
    # 0.2 of an even split of 100 visits over the 2 tried moves is 10: the starved tried move comes next
    assert core.puct_pick(kids, 0.1, 0.5, root_floor=0.2, parent_visits=100) == 1
    # the untried move gets no floor: without one the search goes on with the best move
    assert core.puct_pick(kids, 0.1, 0.5, root_floor=0.0, parent_visits=100) == reference_pick(kids, 0.1, 0.5)[0] == 0


# ---------------------------------------------------------------- the search: pruning, the prior once per node

def test_a_move_the_prior_rules_out_is_never_visited_under_puct_and_visited_under_ucb():
    g = opening()
    legal = g.legal_moves()
    pruned = legal[2]
    load_prior_against(g, pruned)
    pr = dict(zip(legal, core.policy_priors(g.state)))
    assert pr[pruned] < 1e-15 and all(abs(p - 1 / (len(legal) - 1)) < 1e-6 for m, p in pr.items() if m != pruned)
    puct = search_raw(g, SearchConfig(iterations=3000, seed=5, select="puct", policy=1.0, fpu_reduction=1.0))
    visits = {c["action"]: c["visits"] for c in puct["children"]}
    assert pruned not in visits and set(visits) == set(legal) - {pruned}
    assert sum(visits.values()) == 3000
    # today's selection tries every legal move, the prior only ordering the tries
    ucb = search_raw(g, SearchConfig(iterations=3000, seed=5, select="ucb", policy=1.0))
    assert {c["action"] for c in ucb["children"] if c["visits"] > 0} == set(legal)
    default = search_raw(g, SearchConfig(iterations=3000, seed=5, select="ucb", policy=0.0))["children"]
    assert len(default) == len(legal) and min(c["visits"] for c in default) > 0


def test_the_prior_is_computed_once_per_node():
    g = opening()
    load_prior_against(g, g.legal_moves()[0])
    r = search_raw(g, SearchConfig(iterations=2000, seed=2, select="puct", policy=1.0, c_puct=1.0))
    # one evaluation per decision node with children; a node's first visit is a leaf (no prior), so fewer
    # evaluations than iterations
    assert r["prior_calls"] == r["expanded"] and 0 < r["prior_calls"] < r["iterations"] * 0.75
    # the heuristic's prior likewise; the uniform prior needs no evaluation
    h = search_raw(g, SearchConfig(iterations=2000, seed=2, select="puct", policy=0.0, prior=True))
    assert h["prior_calls"] == h["expanded"] > 0
    u = search_raw(g, SearchConfig(iterations=2000, seed=2, select="puct", policy=0.0))
    assert u["prior_calls"] == 0 and u["expanded"] > 0
    # today's selection evaluates the parent's prior at every expansion (about once per iteration)
    old = search_raw(g, SearchConfig(iterations=2000, seed=2, select="ucb", policy=1.0))
    assert old["prior_calls"] > max(1900, old["expanded"], 2 * r["prior_calls"])


def test_puct_is_reproducible_and_differs_by_prior():
    g = Game.new("italia", 3, 7)
    runs = {}
    for name, kw in (("uniform", {}), ("heuristic", dict(prior=True))):
        a = search(g, SearchConfig(iterations=1500, seed=3, select="puct", policy=0.0, **kw))
        b = search(g, SearchConfig(iterations=1500, seed=3, select="puct", policy=0.0, **kw))
        runs[name] = [(c.move, c.visits) for c in a.candidates]
        assert runs[name] == [(c.move, c.visits) for c in b.candidates]
        assert all(c.visits > 0 for c in a.candidates) and a.turns
    assert runs["uniform"] != runs["heuristic"]


def test_puct_runs_with_every_search_feature():
    g = Game.new("italia", 3, 7)
    # the final choice over whole turns, with a named turn (forced paths through made but unvisited children)
    named = [g.legal_moves()[-1]]
    st = g.state.copy()
    st.set_chance(False, True)
    st.apply(named[0])
    while st.decider == g.decider and st.turns == g.state.turns and not st.is_over:
        named.append(st.legal_actions()[0])
        st.apply(named[-1])
    r = search(g, SearchConfig(iterations=1200, seed=1, select="puct", focus=0.25), named=[named])
    assert any(t.named and t.visits > 0 for t in r.turns) and r.turns[0].chosen
    # one iteration: the root is expanded at its first visit, so there is a move to play
    assert search_raw(g, SearchConfig(iterations=1, seed=1, select="puct"))["children"][0]["visits"] == 1
    # open loop through chance (legal sets change between samples), threads, 2 players
    assert search(g, SearchConfig(iterations=800, seed=1, select="puct", chance="merge")).iterations == 800
    assert search(g, SearchConfig(iterations=400, seed=1, select="puct", jobs=2)).searches == 2
    g2 = Game.new("creta", 2, 5)
    assert search(g2, SearchConfig(iterations=600, seed=1, select="puct", prior=True)).best.visits > 0
    bot = make_bot("ismcts:iterations=200,select=puct,c_puct=1.5,fpu_reduction=0.3", seed=1)
    assert bot.choose(g) in g.legal_moves()


# ---------------------------------------------------------------- the default stays today's

def test_the_default_is_puct_and_the_ucb_default_spec_plays_the_old_search_bit_for_bit():
    from test_policy import TODAYS_DIGEST, search_digest
    from concordia_ai.ai.search import UCB_DEFAULT, UCB_DEFAULT_2P
    assert (SearchConfig().select, SearchConfig().policy) == ("puct", 1.0) and make_bot("ismcts").options == {}
    _, ucb = parse_spec(UCB_DEFAULT)
    assert ucb == dict(select="ucb", policy=0.0)
    assert parse_spec(UCB_DEFAULT_2P)[1] == dict(ucb, eval="hand")      # the digest's 2-player searches
    assert search_digest(ucb) == TODAYS_DIGEST
    # the PUCT knobs mean nothing to ucb
    assert search_digest(dict(ucb, c_puct=3.0, c_puct_log=1.0, c_puct_base=50.0, fpu_reduction=0.9,
                              fpu_scaled=False, prior_temp=5.0)) == TODAYS_DIGEST


def puct_digest(extra):
    """The play of PUCT searches (the hand evaluation: no weights that may be retrained) over 3 positions and 3
    settings each: moves, visits, mean rewards, the tree's size and its prior evaluations."""
    rows = []
    for g in (Game.new("imperium", 4, 1), Game.new("italia", 3, 7), Game.new("creta", 2, 5)):
        for kw in (dict(), dict(prior=True, c_puct=0.25), dict(chance="merge", fpu_scaled=False, root_floor=0.0)):
            knobs = {**dict(c_puct=1.0, policy=0.0, c_puct_log=0.0, rollout_turns=8), **kw, **extra}  # as recorded:
                                                                                        # before the defaults moved
            r = search_raw(g, SearchConfig(iterations=1500, seed=3, select="puct", eval="hand", **knobs))
            rows.append([[c["action"], c["visits"], round(c["mean"], 5)] for c in r["children"]])
            rows.append([r["iterations"], r["nodes"], r["expanded"], r["prior_calls"]])
    return hashlib.sha256(json.dumps(rows).encode()).hexdigest()


# puct_digest({}) on 9dec35d, before c_puct_log and c_puct_base
PUCT_DIGEST = "744ac907ab69c1b3749e1ce0302318cbfc7d806fd23ed2532a9d493fd985cad3"


def test_a_constant_c_puct_plays_the_puct_search_of_before_the_log_term_bit_for_bit():
    assert SearchConfig().c_puct_base == 500.0
    assert puct_digest({}) == PUCT_DIGEST
    # with c_puct_log = 0 the base means nothing
    assert puct_digest(dict(c_puct_log=0.0, c_puct_base=50.0)) == PUCT_DIGEST
    # ... and a log term changes the search
    assert puct_digest(dict(c_puct_log=0.5)) != PUCT_DIGEST


def test_the_growing_weight_is_on_by_default_with_3_to_5_players_and_off_with_2():
    """c_puct_log "auto" (the bots' default) plays exactly the search of 0.45 with 3-5 players and of a
    constant c_puct with 2 (results/puct/README.md: measured per player count)."""
    from concordia_ai.ai.search import effective_c_puct_log
    assert SearchConfig().c_puct_log == "auto" and make_bot("ismcts:c_puct_log=auto").options == {"c_puct_log": "auto"}
    assert [effective_c_puct_log("auto", n) for n in (2, 3, 4, 5)] == [0.0, 0.45, 0.45, 0.45]
    assert effective_c_puct_log(0.3, 2) == 0.3 and effective_c_puct_log(0, 4) == 0.0

    def play(g, **knobs):
        r = search_raw(g, SearchConfig(iterations=600, seed=5, eval="hand", policy=0.0, **knobs))
        return [[c["action"], c["visits"], round(c["mean"], 6)] for c in r["children"]]
    four, two = Game.new("imperium", 4, 2), Game.new("italia", 2, 2)
    assert play(four) == play(four, c_puct_log=0.45) != play(four, c_puct_log=0.0)
    assert play(two) == play(two, c_puct_log=0.0) != play(two, c_puct_log=0.45)
    assert SearchConfig().core_dict(players=3)["c_puct_log"] == 0.45


# ---------------------------------------------------------------- the knobs are checked

@pytest.mark.parametrize("knobs,message", [
    (dict(c_puct=-1.0), "search config: c_puct: -1.0 is out of range for the PUCT constant; give a number in 0..100"),
    (dict(fpu_reduction=1.5), "search config: fpu_reduction: 1.5 is out of range for the first-play urgency's "
                              "reduction; give a number in 0..1"),
    (dict(c_puct_log=-0.5), "search config: c_puct_log: -0.5 is out of range for the PUCT constant's log term; "
                            "give a number in 0..100"),
    (dict(c_puct_base=0.0), "search config: c_puct_base: 0.0 is out of range for the PUCT log term's base (visits); "
                            "give a number in 1..1,000,000,000"),
    (dict(c_puct_log="big"), "search config: c_puct_log: 'big' is not a number or auto"),
    (dict(prior_temp=0.0), "search config: prior_temp: 0.0 is out of range for the heuristic prior's "
                           "temperature; give a number in 0.001..1,000"),
    (dict(select="alphazero"), "search config: select must be one of ucb, puct"),
    (dict(fpu_scaled=1), "search config: fpu_scaled: 1 is not true or false"),
])
def test_bad_puct_knobs_are_refused_with_one_line(knobs, message):
    with pytest.raises(SearchConfigError) as e:
        SearchConfig(**knobs)
    assert str(e.value) == message and "\n" not in message
    assert e.value.field == next(iter(knobs))


def test_bad_puct_knobs_in_a_bot_spec_and_in_the_core():
    with pytest.raises(BotSpecError, match=r"^bot ismcts: c_puct_log='banana' is not a number or auto$"):
        parse_spec("ismcts:c_puct_log=banana")
    with pytest.raises(BotSpecError, match=r"^bot ismcts: search config: c_puct: -0.5 is out of range"):
        parse_spec("ismcts:select=puct,c_puct=-0.5")
    with pytest.raises(BotSpecError, match=r"^bot ismcts: search config: select must be one of ucb, puct$"):
        parse_spec("ismcts:select=pucb")
    whole = dict(SearchConfig(eval="hand").core_dict(players=4), turns=0)
    for change, message in ((dict(select="x"), "select: 'x' is not one of ucb, puct"),
                            (dict(c_puct=-1.0), "c_puct: -1.0 is not in 0..100"),
                            (dict(c_puct_log=float("nan")), "c_puct_log: nan is not in 0..100"),
                            (dict(c_puct_base=0.5), "c_puct_base: 0.5 is not in 1..1e+09"),
                            (dict(fpu_scaled="yes"), "fpu_scaled: 'yes' is not true or false"),
                            (dict(prior_temp=0.0), "prior_temp: 0.0 is not in 0.001..1000")):
        with pytest.raises(ValueError) as e:
            core.search(opening().state, dict(whole, **change))
        assert str(e.value) == message
