"""Storehouse (rulings 11, 13, 38): 12 slots shared with stored colonists; overflow choices; Mercator limits."""
import pytest

from concordia_ai.engine.position import PositionError
from positions import base, coins, colonists, gds, goods, load, moves, ok, set_player, set_pm, set_turn

# Italia: Aquileia food, Novaria tool, Syracusae brick -> tool marker (fixed layout of positions.py)


def free_space(g, seat):
    cols = colonists(g, seat)
    stored = cols["land"].count("storehouse") + cols["sea"].count("storehouse")
    return 12 - stored - sum(goods(g, seat).values())


def pos3(pm=2, turn=0):
    pos = base(3)
    for seat in range(3):
        set_player(pos, seat, goods=gds())
    set_pm(pos, pm)
    set_turn(pos, turn)
    return pos


# ------------------------------------------------------------------ capacity

def test_four_stored_colonists_and_eight_goods_is_full():
    pos = pos3()
    set_player(pos, 0, goods=gds(brick=2, food=2, tool=2, wine=1, cloth=1))
    g = load(pos)
    assert free_space(g, 0) == 0
    g.apply("play Mercator/3")
    assert coins(g, 0) == 5 + 3
    assert not any(m.startswith("buy") for m in moves(g))      # nothing fits
    ok(g)


def test_nine_goods_beside_four_stored_colonists_is_rejected():
    pos = pos3()
    set_player(pos, 0, goods=gds(brick=2, food=2, tool=2, wine=2, cloth=1))
    with pytest.raises(PositionError):
        load(pos)


def test_colonists_on_board_free_space():
    pos = pos3()
    set_player(pos, 0, goods=gds(brick=2, food=2, tool=2, wine=2, cloth=2),
                land=["Roma", "Roma"], sea=["Roma", "Roma"])             # 2 stored + 10 goods
    g = load(pos)
    assert free_space(g, 0) == 0
    ok(g)


# ------------------------------------------------------------------ production overflow

def test_one_kind_overflow_is_taken_automatically():
    pos = pos3(pm=2, turn=0)
    set_player(pos, 0, goods=gds(brick=4, cloth=3), houses=["Novaria"])     # 1 free; gets 2 tools
    g = load(pos)
    g.apply("play Prefect")
    g.apply("produce Italia")
    assert g.phase == "play" and g.decider == 1                            # no keep decision
    assert goods(g, 0) == gds(brick=4, tool=1, cloth=3)
    assert g.to_json()["provinces"]["Italia"]["side"] == "coins"
    ok(g)


def test_full_storehouse_gets_nothing_and_keeps_everything():
    pos = pos3(pm=2, turn=0)
    set_player(pos, 0, goods=gds(brick=4, food=1, cloth=3), houses=["Novaria", "Aquileia"])   # full
    g = load(pos)
    g.apply("play Prefect")
    g.apply("produce Italia")
    assert g.phase == "play" and g.decider == 1
    assert goods(g, 0) == gds(brick=4, food=1, cloth=3)
    assert g.to_json()["provinces"]["Italia"]["side"] == "coins"
    ok(g)


def test_several_kinds_turn_player_decides():
    pos = pos3(pm=2, turn=0)
    set_player(pos, 0, goods=gds(brick=4, cloth=3), houses=["Aquileia"])    # 1 free; gets tool + food
    g = load(pos)
    g.apply("play Prefect")
    g.apply("produce Italia")
    assert g.phase == "keep" and g.decider == 0
    assert sorted(moves(g)) == ["keep food", "keep tool"]
    g.apply("keep tool")
    assert goods(g, 0) == gds(brick=4, tool=1, cloth=3)
    assert g.phase == "play" and g.decider == 1
    ok(g)


def test_player_not_on_turn_decides_own_overflow():
    pos = pos3(pm=2, turn=0)
    set_player(pos, 1, goods=gds(wine=7), houses=["Aquileia", "Syracusae"])  # 1 free; gets food + brick
    g = load(pos)
    g.apply("play Prefect")
    g.apply("produce Italia")
    assert goods(g, 0) == gds(tool=1)                                      # P1's bonus is stored first
    assert g.phase == "keep" and g.decider == 1
    assert g.to_json()["turn"]["player"] == "P1"
    assert sorted(moves(g)) == ["keep brick", "keep food"]
    g.apply("keep food")
    assert goods(g, 1) == gds(food=1, wine=7)
    assert free_space(g, 1) == 0
    assert g.phase == "play" and g.decider == 1 and g.to_json()["turn"]["player"] == "P2"
    ok(g)


def test_keeps_exactly_as_many_as_fit():
    # P2 holds the Praefectus Magnus: 2 tools bonus + Aquileia food + Syracusae brick = 4 units, 2 free spaces
    pos = pos3(pm=1, turn=1)
    set_player(pos, 1, goods=gds(wine=4, cloth=2), houses=["Aquileia", "Syracusae"])
    g = load(pos)
    assert free_space(g, 1) == 2
    g.apply("play Prefect")
    g.apply("produce Italia")
    assert g.phase == "keep" and g.decider == 1
    assert sorted(moves(g)) == ["keep brick", "keep food", "keep tool"]
    g.apply("keep brick")
    assert g.phase == "keep" and g.decider == 1
    assert sorted(moves(g)) == ["keep food", "keep tool"]
    g.apply("keep food")
    assert goods(g, 1) == gds(brick=1, food=1, wine=4, cloth=2)
    assert free_space(g, 1) == 0
    assert g.phase == "play" and g.decider == 2
    assert g.to_json()["praefectus_magnus"] == "P1"
    ok(g)


def test_keeping_the_higher_good_first_fills_with_it():
    pos = pos3(pm=1, turn=1)
    set_player(pos, 1, goods=gds(wine=4, cloth=2), houses=["Aquileia", "Syracusae"])
    g = load(pos)
    g.apply("play Prefect")
    g.apply("produce Italia")
    g.apply("keep tool")                         # then only tool can fill the last space
    assert goods(g, 1) == gds(tool=2, wine=4, cloth=2)
    assert g.phase == "play" and g.decider == 2
    ok(g)


def test_two_receivers_decide_in_turn_order_from_the_turn_player():
    pos = pos3(pm=2, turn=1)
    set_player(pos, 1, goods=gds(wine=7), houses=["Aquileia"])                # tool bonus + food, 1 free
    set_player(pos, 0, goods=gds(cloth=7), houses=["Syracusae", "Novaria"])   # brick + tool, 1 free
    g = load(pos)
    g.apply("play Prefect")
    g.apply("produce Italia")
    assert g.phase == "keep" and g.decider == 1
    assert sorted(moves(g)) == ["keep food", "keep tool"]
    g.apply("keep food")
    assert g.phase == "keep" and g.decider == 0
    assert sorted(moves(g)) == ["keep brick", "keep tool"]
    g.apply("keep tool")
    assert goods(g, 1) == gds(food=1, wine=7)
    assert goods(g, 0) == gds(tool=1, cloth=7)
    assert g.phase == "play" and g.decider == 2
    ok(g)


# ------------------------------------------------------------------ Mercator

def test_mercator_buy_amounts_capped_by_space_and_coins():
    pos = pos3()
    set_player(pos, 0, coins=4, goods=gds(wine=3, cloth=2))        # 3 free; 7 coins after the Mercator
    g = load(pos)
    g.apply("play Mercator/3")
    assert coins(g, 0) == 7
    buys = sorted(m for m in moves(g) if m.startswith("buy"))
    assert buys == sorted(["buy 1 brick", "buy 2 brick", "buy 1 food", "buy 1 tool", "buy 1 wine", "buy 1 cloth"])
    g.apply("sell 2 wine")                                           # 19 coins, 5 free
    assert coins(g, 0) == 19
    buys = sorted(m for m in moves(g) if m.startswith("buy"))
    assert buys == sorted([f"buy {n} brick" for n in range(1, 6)] + [f"buy {n} food" for n in range(1, 5)] +
                          [f"buy {n} tool" for n in range(1, 4)] + [f"buy {n} cloth" for n in range(1, 3)])
    g.apply("buy 5 brick")
    assert coins(g, 0) == 4
    assert goods(g, 0) == gds(brick=5, wine=1, cloth=2)
    assert free_space(g, 0) == 0
    assert moves(g) == ["done"]                                      # two kinds traded: nothing more
    g.apply("done")
    assert g.phase == "play" and g.decider == 1
    ok(g)


def test_mercator_rich_player_capped_by_space():
    pos = pos3()
    set_player(pos, 0, coins=100, goods=gds(brick=6), land=["Roma", "Roma"], sea=["Roma"])  # 3 stored, 3 free
    g = load(pos)
    g.apply("play Mercator/3")
    buys = sorted(m for m in moves(g) if m.startswith("buy"))
    assert buys == sorted(f"buy {n} {k}" for n in (1, 2, 3) for k in ("brick", "food", "tool", "wine", "cloth"))


def test_specialist_overflow_one_kind_automatic():
    pos = pos3()
    set_player(pos, 0, goods=gds(cloth=7), houses=["Aquileia", "Londinium", "Burdigala"], extra={"Farmer": 1})
    g = load(pos)
    g.apply("play Farmer")                            # 3 food, 1 free space
    assert goods(g, 0) == gds(food=1, cloth=7)
    assert g.phase == "play" and g.decider == 1
    ok(g)
