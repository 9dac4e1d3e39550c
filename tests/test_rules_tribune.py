"""Tribune (rulings 3, 4): recovery pay max(0, N-3) with the Tribune counted; optional colonist in Roma."""
import pytest

from positions import base, coins, colonists, gds, goods, load, moves, ok, player, set_player, set_turn

FULL_HAND = {"Tribune": 1, "Architect": 1, "Prefect": 2, "Mercator/3": 1, "Diplomat/Jupiter": 1, "Senator": 1}


def tribune_game(played, goods_=None, coins_=5, land=None, sea=None, extra=None):
    pos = base(3)
    set_player(pos, 0, coins=coins_, goods=goods_ if goods_ is not None else gds(), played=played,
               land=land, sea=sea, extra=extra)
    set_turn(pos, 0)
    return load(pos)


@pytest.mark.parametrize("played, paid", [
    ([], 0),                                                    # 1 card (the Tribune alone)
    (["Prefect"], 0),                                           # 2
    (["Prefect", "Senator"], 0),                                # 3 -> 0
    (["Prefect", "Prefect", "Senator"], 1),                     # 4 -> +1
    (["Prefect", "Prefect", "Senator", "Architect"], 2),        # 5 -> +2
    (["Prefect", "Prefect", "Senator", "Architect", "Mercator/3", "Diplomat/Jupiter"], 4),   # 7 -> +4
])
def test_recovery_pay_counts_the_tribune(played, paid):
    g = tribune_game(played)            # no food/tool: no colonist option, the turn ends by itself
    g.apply("play Tribune")
    assert coins(g, 0) == 5 + paid
    p = player(g, 0)
    assert p["discard"] == {}
    assert p["top"] is None
    assert p["hand"] == FULL_HAND
    assert g.phase == "play" and g.decider == 1
    ok(g)


def test_recovery_with_a_bought_card_eight_cards():
    # 7 played + Tribune = 8 recovered -> +5; the bought Colonist returns to hand as well
    g = tribune_game(["Prefect", "Prefect", "Senator", "Architect", "Mercator/3", "Diplomat/Jupiter", "Colonist"],
                     extra={"Colonist": 1})
    g.apply("play Tribune")
    assert coins(g, 0) == 10
    assert player(g, 0)["hand"] == dict(FULL_HAND, Colonist=1)
    assert player(g, 0)["discard"] == {}
    ok(g)


def test_colonist_option_offered_land_and_sea():
    g = tribune_game(["Prefect", "Prefect", "Senator"], goods_=gds(food=1, tool=1, wine=2))
    g.apply("play Tribune")
    assert g.phase == "tribune" and g.decider == 0
    assert sorted(moves(g)) == ["colonist land", "colonist sea", "done"]
    assert coins(g, 0) == 6                     # the recovery is paid before the choice


@pytest.mark.parametrize("kind", ["land", "sea"])
def test_colonist_costs_food_and_tool_and_goes_to_roma(kind):
    g = tribune_game(["Prefect", "Prefect", "Senator"], goods_=gds(food=2, tool=1, wine=2),
                     land=["Novaria-Roma"], sea=["Massilia-Roma"])
    g.apply("play Tribune")
    g.apply(f"colonist {kind}")
    assert goods(g, 0) == gds(food=1, tool=0, wine=2)
    assert coins(g, 0) == 6
    cols = colonists(g, 0)
    other = "sea" if kind == "land" else "land"
    assert sorted(cols[kind]) == sorted(["Roma", "storehouse"] + (["Novaria-Roma"] if kind == "land" else
                                                                  ["Massilia-Roma"]))
    assert cols[other].count("Roma") == 0 and cols[other].count("storehouse") == 2
    assert g.phase == "play" and g.decider == 1
    ok(g)


def test_colonist_option_declined_changes_nothing():
    g = tribune_game(["Prefect", "Prefect", "Senator"], goods_=gds(food=1, tool=1))
    g.apply("play Tribune")
    g.apply("done")
    assert goods(g, 0) == gds(food=1, tool=1)
    assert colonists(g, 0) == {"land": ["Roma", "storehouse", "storehouse"], "sea": ["Roma", "storehouse", "storehouse"]}
    assert g.phase == "play" and g.decider == 1
    ok(g)


def test_only_types_still_in_storehouse_are_offered():
    # all three land colonists are on the board: only sea
    g = tribune_game(["Prefect"], goods_=gds(food=1, tool=1),
                     land=["Roma", "Novaria-Roma", "Aquileia-Roma"], sea=["Roma"])
    g.apply("play Tribune")
    assert sorted(moves(g)) == ["colonist sea", "done"]
    # and all three sea colonists on the board: only land
    g = tribune_game(["Prefect"], goods_=gds(food=1, tool=1),
                     land=["Roma"], sea=["Roma", "Massilia-Roma", "Carthago-Roma"])
    g.apply("play Tribune")
    assert sorted(moves(g)) == ["colonist land", "done"]


def test_no_colonist_left_turn_ends_by_itself():
    g = tribune_game(["Prefect", "Prefect", "Senator"], goods_=gds(food=1, tool=1),
                     land=["Roma", "Novaria-Roma", "Aquileia-Roma"], sea=["Roma", "Massilia-Roma", "Carthago-Roma"])
    g.apply("play Tribune")
    assert g.phase == "play" and g.decider == 1
    assert goods(g, 0) == gds(food=1, tool=1)
    assert coins(g, 0) == 6
    ok(g)


@pytest.mark.parametrize("have", [gds(food=1), gds(tool=1), gds(wine=3, cloth=2)])
def test_unaffordable_colonist_turn_ends_by_itself(have):
    g = tribune_game(["Prefect", "Prefect", "Senator", "Architect"], goods_=have)
    g.apply("play Tribune")
    assert g.phase == "play" and g.decider == 1
    assert coins(g, 0) == 7
    assert goods(g, 0) == have
    assert colonists(g, 0)["land"].count("storehouse") == 2
    assert colonists(g, 0)["sea"].count("storehouse") == 2
    ok(g)
