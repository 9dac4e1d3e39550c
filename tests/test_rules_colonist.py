"""Colonist card (ruling 12): (a) place colonists for 1 food + 1 tool each in Roma or own-house cities; (b) cash."""
import pytest

from positions import base, coins, colonists, gds, goods, load, moves, ok, set_player, set_turn


def colonist_game(goods_, coins_=0, houses_=(), land=("Roma",), sea=("Roma",), others=None):
    pos = base(3)
    set_player(pos, 0, coins=coins_, goods=goods_, houses=list(houses_), land=list(land), sea=list(sea),
               extra={"Colonist": 1})
    for seat, kw in (others or {}).items():
        set_player(pos, seat, **kw)
    set_turn(pos, 0)
    g = load(pos)
    g.apply("play Colonist")
    return g


def test_places_offered_roma_and_own_house_cities_only():
    # P1 houses: Sirmium (inland, no sea route) and Novaria; P2 has a house in Aquileia;
    # P1 has a colonist on Aquileia-Novaria -- that does not make Aquileia a place
    g = colonist_game(gds(food=2, tool=2), houses_=["Sirmium", "Novaria"], land=["Roma", "Aquileia-Novaria"],
                      others={1: dict(houses=["Aquileia"])})
    assert g.phase == "colonist"
    assert sorted(moves(g)) == sorted([
        "done", "cash",
        "place land Novaria", "place land Sirmium", "place land Roma",
        "place sea Novaria", "place sea Sirmium", "place sea Roma"])


def test_no_house_only_roma():
    g = colonist_game(gds(food=1, tool=1))
    assert sorted(moves(g)) == sorted(["done", "cash", "place land Roma", "place sea Roma"])


def test_place_several_each_costs_food_and_tool():
    g = colonist_game(gds(food=3, tool=4, wine=1), houses_=["Sirmium", "Novaria"])
    g.apply("place land Novaria")
    g.apply("place land Sirmium")
    g.apply("place sea Sirmium")                   # sea colonist in an inland city
    assert goods(g, 0) == gds(food=0, tool=1, wine=1)
    # food is gone: no further placement, and no cash after placing
    assert moves(g) == ["done"]
    g.apply("done")
    assert sorted(colonists(g, 0)["land"]) == ["Novaria", "Roma", "Sirmium"]
    assert sorted(colonists(g, 0)["sea"]) == ["Roma", "Sirmium", "storehouse"]
    assert coins(g, 0) == 0
    assert g.phase == "play" and g.decider == 1
    ok(g)


def test_no_cash_after_placing_one():
    g = colonist_game(gds(food=2, tool=2))
    assert "cash" in moves(g)
    g.apply("place land Roma")
    assert "cash" not in moves(g)
    assert sorted(moves(g)) == sorted(["done", "place land Roma", "place sea Roma"])


def test_unaffordable_no_place():
    g = colonist_game(gds(food=3, wine=2), houses_=["Novaria"])
    assert sorted(moves(g)) == ["cash", "done"]
    g = colonist_game(gds(tool=3), houses_=["Novaria"])
    assert sorted(moves(g)) == ["cash", "done"]


def test_only_stored_types_can_be_placed():
    g = colonist_game(gds(food=2, tool=2), land=["Roma", "Novaria-Roma", "Aquileia-Roma"], sea=["Roma"])
    assert sorted(moves(g)) == sorted(["done", "cash", "place sea Roma"])


def test_placed_sea_colonist_in_inland_city_cannot_move():
    g = colonist_game(gds(food=1, tool=1), houses_=["Sirmium"], land=[], sea=[])
    g.apply("place sea Sirmium")
    g.apply("done")
    assert colonists(g, 0)["sea"].count("Sirmium") == 1
    # next turn of P1 (after P2 and P3 play a Prefect cash each): an Architect has 1 step but no sea move
    g.apply("play Prefect"); g.apply("cash")
    g.apply("play Prefect"); g.apply("cash")
    g.apply("play Architect")
    assert g.to_json()["turn"]["scratch"]["steps"] == 1
    assert not any(m.startswith("move") for m in moves(g))
    ok(g)


@pytest.mark.parametrize("land, sea, expected", [
    ([], [], 5),
    (["Roma"], ["Roma"], 7),
    (["Roma", "Novaria-Roma", "Aquileia-Sirmium"], ["Massilia-Roma"], 9),
    (["Roma", "Novaria", "Aquileia-Sirmium"], ["Massilia-Roma", "Carthago-Roma", "Novaria"], 11),
])
def test_cash_five_plus_own_colonists_on_board(land, sea, expected):
    others = {1: dict(land=["Roma", "Roma", "Aquileia-Roma"], sea=["Roma", "Roma", "Roma"])}
    g = colonist_game(gds(food=1, tool=1), coins_=3, houses_=["Novaria"], land=land, sea=sea, others=others)
    g.apply("cash")
    assert coins(g, 0) == 3 + expected
    assert goods(g, 0) == gds(food=1, tool=1)
    assert g.phase == "play" and g.decider == 1
    ok(g)


def test_placing_frees_storehouse_space():
    # 4 stored colonists + 8 goods = full; placing 2 leaves 2 free spaces
    g = colonist_game(gds(food=2, tool=2, wine=4), land=["Roma"], sea=["Roma"])
    g.apply("place land Roma")
    g.apply("place sea Roma")
    g.apply("done")
    cols = colonists(g, 0)
    stored = cols["land"].count("storehouse") + cols["sea"].count("storehouse")
    assert stored == 2
    assert sum(goods(g, 0).values()) == 4
    ok(g)
