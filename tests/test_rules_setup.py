"""Setup (rulings 18-20): seats and coins, Praefectus Magnus, starting goods and colonists, decks, city tokens,
province markers, determinism by seed."""
from collections import Counter

import pytest

from concordia_ai.engine import vocabulary
from positions import START_HAND, Game

GOODS = ("brick", "food", "tool", "wine", "cloth")
DECK_SIZES = {"I": 8, "II": 7, "III": 6, "IV": 5, "V": 4}
TOKENS = {"A": dict(brick=2, food=2, tool=1, wine=1, cloth=1),
          "B": dict(brick=2, food=2, tool=2, wine=1, cloth=1),
          "C": dict(brick=3, food=2, tool=2, wine=2, cloth=1),
          "D": dict(brick=1, food=1, tool=1, wine=1, cloth=1)}


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_players(n):
    g = Game.new("imperium", n, seed=7)
    pos = g.to_json()
    assert [p["coins"] for p in pos["players"]] == [5, 6, 7, 8, 9][:n]
    assert pos["praefectus_magnus"] == pos["players"][n - 1]["name"]
    for p in pos["players"]:
        assert p["goods"] == dict(brick=1, food=2, tool=1, wine=1, cloth=1)
        assert p["colonists"] == {"land": ["Roma", "storehouse", "storehouse"],
                                  "sea": ["Roma", "storehouse", "storehouse"]}
        assert p["hand"] == START_HAND
        assert p["discard"] == {} and p["top"] is None and p["houses"] == []
    assert pos["turn"]["player"] == "P1" and pos["turn"]["phase"] == "play"
    assert g.decider == 0
    assert g.state.invariant_errors() == []


@pytest.mark.parametrize("n,unseen", [(2, 8), (3, 14), (4, 19), (5, 23)])
def test_decks(n, unseen):
    used = list(DECK_SIZES)[:n]
    assert sum(DECK_SIZES[d] for d in used) == unseen + 7
    for seed in (1, 2, 3):
        pos = Game.new("imperium", n, seed=seed).to_json()
        display = pos["display"]
        assert len(display) == 7 and None not in display
        assert all(c.endswith("/I") for c in display)          # deck I on top: the display is all deck I
        order = pos["stack_order"]
        assert len(order) == unseen
        numerals = [c.split("/")[1] for c in order]
        assert numerals == sorted(numerals, key=used.index)     # I, then II, ...: decks never mix
        assert set(numerals) == set(used)
        every = Counter(display + order)
        assert sum(every.values()) == sum(DECK_SIZES[d] for d in used)
        assert max(every.values()) == 1
        assert {d: len(v) for d, v in pos["unseen"].items()} == Counter(numerals)
        per_deck = Counter(c.split("/")[1] for c in display + order)
        assert dict(per_deck) == {d: DECK_SIZES[d] for d in used}


def test_two_players_15_cards():
    pos = Game.new("imperium", 2, seed=3).to_json()
    assert len(pos["display"]) + len(pos["stack_order"]) == 15
    assert sum(len(v) for v in pos["unseen"].values()) == 8


def test_five_players_30_cards():
    pos = Game.new("imperium", 5, seed=3).to_json()
    assert len(pos["display"]) + len(pos["stack_order"]) == 30


@pytest.mark.parametrize("board,letters", [("imperium", "ABCD"), ("italia", "ABC")])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_city_tokens(board, letters, seed):
    g = Game.new(board, 3, seed=seed)
    pos = g.to_json()
    b = vocabulary.board(board)
    by_letter: dict = {}
    for c, name in enumerate(b.cities):
        if b.city_letter[c] < 0:
            assert name not in pos["cities"]                  # Roma has no token
            continue
        by_letter.setdefault("ABCD"[b.city_letter[c]], Counter())[pos["cities"][name]] += 1
    assert "".join(sorted(by_letter)) == letters
    for letter, counts in by_letter.items():
        assert dict(counts) == {k: v for k, v in TOKENS[letter].items() if v}, letter


def test_italia_has_no_d_cities():
    b = vocabulary.board("italia")
    assert 3 not in b.city_letter                              # letter index 3 = D


@pytest.mark.parametrize("board", ["imperium", "italia"])
@pytest.mark.parametrize("seed", [1, 5])
def test_province_markers(board, seed):
    pos = Game.new(board, 4, seed=seed).to_json()
    b = vocabulary.board(board)
    for v, prov in enumerate(b.provinces):
        goods = [pos["cities"][c] for i, c in enumerate(b.cities) if b.city_province[i] == v]
        best = max(goods, key=GOODS.index)
        assert pos["provinces"][prov] == {"marker": best, "side": "goods"}, prov


def test_same_seed_same_game():
    a = Game.new("imperium", 4, seed=11)
    b = Game.new("imperium", 4, seed=11)
    assert a.to_json() == b.to_json()
    for _ in range(40):
        ma = a.legal_moves()
        assert ma == b.legal_moves()
        if not ma:
            break
        m = ma[len(ma) // 2]
        a.apply(m)
        b.apply(m)
    assert a.to_json() == b.to_json()


def test_different_seeds_different_layouts():
    layouts = [Game.new("imperium", 4, seed=s).to_json() for s in (1, 2, 3)]
    assert len({tuple(sorted(p["cities"].items())) for p in layouts}) == 3
    assert len({tuple(p["stack_order"]) for p in layouts}) == 3
