"""The determinization sampler: CoreState.shuffle_hidden and the in-search sampling of refills
(order forgotten, chance drawn from the state's RNG). Decks never mix, orders are uniform, samples vary."""
from __future__ import annotations

import itertools
from collections import Counter

from concordia_ai.engine.game import CHANCE, Game
from concordia_ai.ai.search import SearchConfig, search
from positions_search import (DECK_I_UNSEEN, chi2_critical, chi_square, small_deck_game, small_deck_pos)

from positions import load


def _labels(g: Game) -> list[str]:
    """The stack top first as labels ('Colonist/I'), read through the position layer (order known)."""
    order = g.to_json()["stack_order"]
    assert order is not None
    return order


def _decks(labels):
    return [lab.split("/")[1] for lab in labels]


# ---------------------------------------------------------------- shuffle_hidden

def test_shuffle_hidden_keeps_every_card_in_its_deck():
    g = Game.new("imperium", 5, seed=3)          # five decks I..V in the stack
    before = _labels(g)
    assert len(set(_decks(before))) == 5
    for seed in range(200):
        h = g.clone()
        h.state.shuffle_hidden(seed)
        after = _labels(h)
        assert _decks(after) == _decks(before), seed          # deck boundaries unchanged
        for deck in set(_decks(before)):
            assert sorted(x for x in after if x.endswith("/" + deck)) == \
                sorted(x for x in before if x.endswith("/" + deck))
        assert h.state.invariant_errors() == []
        assert h.state.export()["display"] == g.state.export()["display"]


def test_shuffle_hidden_orders_inside_a_deck_are_uniform():
    """Deck I holds 3 unseen cards: each of the 6 orders appears equally often (chi-square, p = 0.001)."""
    pos = small_deck_pos(["Colonist/I", "Farmer/I", "Smith/I", "Colonist/II", "Mercator/II", "Prefect/II",
                          "Vintner/II"])
    g = load(pos)
    counts = Counter()
    n = 6000
    for seed in range(n):
        h = g.clone()
        h.state.shuffle_hidden(seed)
        top = _labels(h)
        counts[tuple(top[:3])] += 1
        assert _decks(top) == ["I"] * 3 + ["II"] * 4
    orders = list(itertools.permutations(f"{c}/I" for c in DECK_I_UNSEEN))
    assert set(counts) == set(orders)
    stat = chi_square([counts[o] for o in orders])
    assert stat < chi2_critical(5), (stat, counts)


def test_100_consecutive_shuffles_are_not_all_the_same():
    g = Game.new("imperium", 4, seed=2)
    seen = set()
    for seed in range(100):
        h = g.clone()
        h.state.shuffle_hidden(seed)
        seen.add(tuple(_labels(h)))
    assert len(seen) >= 90
    # repeated shuffles of one evolving state also move on
    h = g.clone()
    seen = set()
    for _ in range(100):
        h.state.shuffle_hidden(7)
        seen.add(tuple(_labels(h)))
    assert len(seen) > 1


# ---------------------------------------------------------------- in-search sampling (order forgotten)

def _forgotten(g: Game, seed: int) -> Game:
    h = g.clone()
    h.state.set_chance(False, False)
    h.state.reseed(seed)
    return h


def _display(g: Game) -> list:
    return g.to_json()["display"]


def test_refill_draws_only_from_the_top_deck():
    g = small_deck_game(["Smith/I", "Farmer/I", "Colonist/I", "Colonist/II", "Mercator/II", "Prefect/II",
                         "Vintner/II"])
    for seed in range(300):
        h = _forgotten(g, seed)
        h.apply("play Senator")
        h.apply("buy Architect/II")                 # second-to-last display card: a gap to refill
        h.apply("done")
        new = [c for c in _display(h) if c not in _display(g)]
        assert len(new) == 1 and new[0] in {f"{c}/I" for c in DECK_I_UNSEEN}, (seed, _display(h))
        unseen = h.to_json()["unseen"]
        assert sorted(unseen["II"]) == sorted(g.to_json()["unseen"]["II"])
        assert len(unseen["I"]) == 2
        assert h.state.invariant_errors() == []


def test_external_chance_offers_exactly_the_unseen_cards_of_the_top_deck():
    for order in ("null", ["Farmer/I", "Smith/I", "Colonist/I", "Colonist/II", "Mercator/II", "Prefect/II",
                           "Vintner/II"]):
        g = small_deck_game(order)
        g.state.set_chance(False, True)
        g.apply("play Senator")
        g.apply("buy Mason/I paying brick")
        g.apply("done")
        assert g.decider == CHANCE
        assert sorted(g.text(m) for m in g.legal_moves()) == sorted(f"reveal {c}/I" for c in DECK_I_UNSEEN)


def test_refill_draws_are_uniform_over_the_unseen_cards():
    """One draw (3 outcomes) and the ordered pair of two draws (6 outcomes) are uniform (chi-square)."""
    g = small_deck_game("null")
    first, pairs = Counter(), Counter()
    n = 3000
    before = set(_display(g))
    for seed in range(n):
        h = _forgotten(g, seed)
        h.apply("play Senator")
        h.apply("buy Mercator/I")
        h.apply("buy Mason/I paying brick")            # Senator ends itself after the 2nd purchase: 2 draws
        disp = _display(h)
        drawn = [c for c in disp if c not in before]
        assert len(drawn) == 2 and all(c.endswith("/I") for c in drawn), disp
        # refills close the gaps and append: the draw order is the display order of the new cards
        pairs[tuple(drawn)] += 1
        first[drawn[0]] += 1
    cards = [f"{c}/I" for c in DECK_I_UNSEEN]
    assert chi_square([first[c] for c in cards]) < chi2_critical(2), first
    orders = list(itertools.permutations(cards, 2))
    assert set(pairs) == set(orders)
    assert chi_square([pairs[o] for o in orders]) < chi2_critical(5), pairs


def test_100_consecutive_refill_samples_are_not_all_the_same():
    g = small_deck_game("null")
    seen = Counter()
    for seed in range(100):
        h = _forgotten(g, seed)
        h.apply("play Senator")
        h.apply("buy Mason/I paying brick")
        h.apply("done")
        seen[_display(h)[-1]] += 1
    assert len(seen) == 3, seen
    # the same RNG state gives the same sample (reproducible), a clone does not re-draw by itself
    a, b = _forgotten(g, 5), _forgotten(g, 5)
    for h in (a, b):
        h.apply("play Senator"); h.apply("buy Mason/I paying brick"); h.apply("done")
    assert _display(a) == _display(b)


def test_search_grows_chance_nodes_from_the_top_deck():
    """Sanity check of the in-search chance nodes: buys at the root are followed by reveals, the tree holds
    many chance nodes (nodes beyond one expansion per iteration), and the reveals in a PV are deck-I cards.
    (The core does not expose per-node children, so "every iteration re-samples" is checked through the
    sampler tests above and the clairvoyance tests in test_search.py.)"""
    g = small_deck_game("null")
    g.apply("play Senator")
    r = search(g, SearchConfig(iterations=400, seed=3, rollout_turns=1))
    chance_nodes = r.nodes - 1 - r.iterations
    assert chance_nodes > 100
    reveals = [m for c in r.candidates for m in c.pv if m.startswith("reveal")]
    assert reveals
    assert all(m[len("reveal "):] in {f"{x}/I" for x in DECK_I_UNSEEN} for m in reveals[:2])
