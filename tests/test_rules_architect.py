"""Architect (rulings 5, 6, 7, 21, 35): steps, distances, occupancy, route types, building and its cost, the end."""
import pytest

from positions import (CITY_GOODS, base, coins, colonists, gds, goods, houses, load, moves, ok, places,
                       set_cities, set_player, set_turn)

LAND_ROUTES_AT_ROMA = ["Aquileia-Roma", "Novaria-Roma", "Roma-Syracusae"]
SEA_ROUTES_AT_ROMA = ["Carthago-Roma", "Massilia-Roma", "Roma-Syracusae"]


def arch(land=(), sea=(), goods_=None, coins_=0, houses_=(), others=None, cities=None):
    """Seat 0 to play an Architect; others: {seat: dict(land=..., sea=..., houses=...)}."""
    pos = base(3)
    if cities:
        set_cities(pos, cities)
    set_player(pos, 0, coins=coins_, goods=goods_ if goods_ is not None else gds(), land=list(land),
               sea=list(sea), houses=list(houses_))
    for seat, kw in (others or {}).items():
        set_player(pos, seat, **kw)
    set_turn(pos, 0)
    g = load(pos)
    g.apply("play Architect")
    return g


def steps(g):
    return g.to_json()["turn"]["scratch"]["steps"]


def move_targets(g, prefix):
    """Normalised target routes of the legal moves whose text starts with `prefix`."""
    out = []
    for m in moves(g):
        if m.startswith(prefix):
            a, b = m.split(" > ")[1].split("-")
            out.append("-".join(sorted((a, b))))
    return sorted(out)


# ------------------------------------------------------------------ steps

def test_steps_equal_colonists_on_board():
    g = arch(land=["Roma", "Aquileia-Novaria"], sea=["Roma"])          # 3 on board, 3 in the storehouse
    assert steps(g) == 3
    g = arch(land=["Roma", "Aquileia-Novaria", "Sirmium-Tomis"], sea=["Roma", "Massilia-Roma"])
    assert steps(g) == 5


def test_one_land_colonist_one_step_exact_moves():
    g = arch(land=["Roma"])
    assert steps(g) == 1
    assert move_targets(g, "move land Roma") == LAND_ROUTES_AT_ROMA
    assert sorted(moves(g)) == sorted(["done"] + [f"move land Roma > {r}" for r in
                                                  ["Aquileia-Roma", "Novaria-Roma", "Roma-Syracusae"]])


def test_one_sea_colonist_one_step_exact_moves():
    g = arch(sea=["Roma"])
    assert steps(g) == 1
    assert sorted(moves(g)) == sorted(["done"] + [f"move sea Roma > {r}" for r in
                                                  ["Carthago-Roma", "Massilia-Roma", "Roma-Syracusae"]])


def test_two_steps_reach_through_a_city():
    g = arch(land=["Roma"], sea=["Carthago-Leptis Magna"])            # 2 steps
    assert steps(g) == 2
    assert move_targets(g, "move land Roma") == sorted(
        LAND_ROUTES_AT_ROMA + ["Aquileia-Novaria", "Aquileia-Sirmium", "Aquileia-Vindobona",
                               "Colonia Agrippina-Novaria", "Massilia-Novaria"])


def test_step_costs_city_to_route_1_then_2_route_to_route_1():
    g = arch(land=["Roma", "Aquileia-Vindobona"], sea=["Roma"])        # 3 steps
    g.apply("move land Roma > Aquileia-Sirmium")                       # Roma -> Aquileia-Roma -> Aquileia-Sirmium
    assert steps(g) == 1
    g.apply("move land Aquileia-Vindobona > Colonia Agrippina-Vindobona")   # through Vindobona: 1
    assert steps(g) == 0
    assert move_targets(g, "move") == []
    g.apply("done")
    assert places(g, 0, "land") == ["Aquileia-Sirmium", "Colonia Agrippina-Vindobona", "storehouse"]
    ok(g)


def test_step_budget_is_a_hard_limit():
    # 3 steps: Napoca-Tomis is 4 steps from Roma, Sirmium-Tomis 3
    g = arch(land=["Roma"], sea=["Roma", "Carthago-Leptis Magna"])
    targets = move_targets(g, "move land Roma")
    assert "Sirmium-Tomis" in targets
    assert "Napoca-Tomis" not in targets
    assert "Dyrrhachium-Athenae" not in targets and "Athenae-Dyrrhachium" not in targets


def test_passing_over_occupied_route_is_allowed_and_counted():
    # P2 stands on Aquileia-Roma; P1's land colonist passes over it to Aquileia-Sirmium for 2 steps
    g = arch(land=["Roma"], sea=["Carthago-Leptis Magna"], others={1: dict(land=["Aquileia-Roma"])})
    assert steps(g) == 2
    targets = move_targets(g, "move land Roma")
    assert "Aquileia-Roma" not in targets                  # cannot end on the occupied route
    assert "Aquileia-Sirmium" in targets and "Aquileia-Vindobona" in targets
    g.apply("move land Roma > Aquileia-Sirmium")
    assert steps(g) == 0
    g.apply("done")
    assert places(g, 0, "land") == ["Aquileia-Sirmium", "storehouse", "storehouse"]
    assert places(g, 1, "land") == ["Aquileia-Roma", "storehouse", "storehouse"]
    ok(g)


def test_cannot_end_on_route_of_another_player():
    g = arch(land=["Roma"], others={1: dict(land=["Novaria-Roma"]), 2: dict(land=["Roma-Syracusae"])})
    assert sorted(moves(g)) == ["done", "move land Roma > Aquileia-Roma"]


def test_cannot_end_on_own_occupied_route_when_that_colonist_does_not_move():
    g = arch(land=["Roma", "Aquileia-Roma"])                       # 2 steps
    # onto the own colonist's route would force that one to leave: a chain, offered as one direct move
    assert "Aquileia-Roma" not in move_targets(g, "move land Roma")
    g.apply("move land Roma > Aquileia-Novaria")                   # Roma > Aquileia-Roma > Aquileia-Novaria
    assert steps(g) == 0
    g.apply("done")
    assert places(g, 0, "land") == ["Aquileia-Novaria", "Aquileia-Roma", "storehouse"]
    ok(g)


def test_swap_two_own_colonists_in_one_action():
    # a swap leaves the same routes occupied as no move at all (ruling 35 allows it; the canonical order
    # offers that outcome once, as `done`)
    g = arch(land=["Aquileia-Roma", "Novaria-Roma"], sea=["Roma", "Massilia-Roma"])   # 4 steps
    assert steps(g) == 4
    assert "Novaria-Roma" not in move_targets(g, "move land Aquileia-Roma")
    assert "Aquileia-Roma" not in move_targets(g, "move land Novaria-Roma")
    before = colonists(g, 0)
    g.apply("done")
    assert colonists(g, 0) == before
    assert g.phase == "play" and g.decider == 1
    ok(g)


def test_each_colonist_moves_at_most_once():
    g = arch(land=["Roma"], sea=["Roma", "Carthago-Leptis Magna"])     # 3 steps
    g.apply("move land Roma > Aquileia-Roma")
    assert steps(g) == 2
    assert move_targets(g, "move land") == []


def test_moved_colonist_ends_on_a_route_of_its_kind():
    land_routes, sea_routes = set(), set()
    g0 = arch()
    for a, b, sea, _ in g0.board.routes:
        name = "-".join(sorted((g0.board.cities[a], g0.board.cities[b])))
        (sea_routes if sea else land_routes).add(name)
    g = arch(land=["Roma", "Aquileia-Novaria"], sea=["Roma", "Carthago-Leptis Magna"])
    land_t = move_targets(g, "move land")
    sea_t = move_targets(g, "move sea")
    assert land_t and sea_t
    assert set(land_t) <= land_routes
    assert set(sea_t) <= sea_routes
    # routes that exist only as sea (Carthago-Roma) are never a land target and vice versa
    assert "Carthago-Roma" not in land_t and "Aquileia-Roma" not in sea_t
    for m in moves(g):
        if m.startswith("move"):
            assert "-" in m.split(" > ")[1]                    # never a city


# ------------------------------------------------------------------ building

FULL = dict(brick=2, food=1, tool=1, wine=1, cloth=1)     # 6 goods: fits beside up to 6 stored colonists


def test_build_only_at_ends_of_routes_with_own_colonists_never_roma():
    g = arch(land=["Novaria-Roma", "Roma"], sea=["Dyrrhachium-Syracusae"], goods_=gds(**FULL), coins_=50)
    builds = sorted(m for m in moves(g) if m.startswith("build"))
    assert builds == ["build Dyrrhachium", "build Novaria", "build Syracusae"]


def test_one_own_house_per_city():
    g = arch(land=["Aquileia-Novaria"], goods_=gds(**FULL), coins_=50, houses_=["Novaria"])
    assert sorted(m for m in moves(g) if m.startswith("build")) == ["build Aquileia"]


def test_build_ends_movement():
    g = arch(land=["Aquileia-Novaria", "Roma"], sea=["Roma"], goods_=gds(**FULL), coins_=50)
    assert any(m.startswith("move") for m in moves(g))
    g.apply("build Aquileia")
    assert g.phase == "architect-build"
    assert not any(m.startswith("move") for m in moves(g))
    assert sorted(moves(g)) == ["build Novaria", "done"]
    g.apply("build Novaria")
    assert moves(g) == ["done"]     # builds go in city order (Aquileia before Novaria), so nothing is left
    g.apply("done")
    assert houses(g, 0) == ["Aquileia", "Novaria"]
    ok(g)


def test_build_after_moves_uses_new_position():
    g = arch(land=["Roma"], sea=["Carthago-Leptis Magna"], goods_=gds(**FULL), coins_=50)
    assert sorted(m for m in moves(g) if m.startswith("build")) == ["build Carthago", "build Leptis Magna"]
    g.apply("move land Roma > Aquileia-Sirmium")
    assert sorted(m for m in moves(g) if m.startswith("build")) == [
        "build Aquileia", "build Carthago", "build Leptis Magna", "build Sirmium"]


# (city, its good, houses of others there, route of P1's land colonist, goods paid, coins paid)
COSTS = [
    ("Burdigala", "food", 0, "Brigantium-Burdigala", gds(brick=1, food=1), 2),
    ("Valentia", "tool", 1, "Brigantium-Valentia", gds(brick=1, tool=1), 6),
    ("Brigantium", "wine", 2, "Brigantium-Olisipo", gds(brick=1, wine=1), 12),
    ("Lutetia", "cloth", 0, "Burdigala-Lutetia", gds(brick=1, cloth=1), 5),
    ("Lutetia", "cloth", 2, "Burdigala-Lutetia", gds(brick=1, cloth=1), 15),
    ("Olisipo", "brick", 0, "Olisipo-Rusadir", gds(food=1), 1),
    ("Olisipo", "brick", 2, "Olisipo-Rusadir", gds(food=1), 3),
]


@pytest.mark.parametrize("city, good, before, route, paid_goods, paid_coins", COSTS)
def test_house_cost(city, good, before, route, paid_goods, paid_coins):
    others = {}
    for seat in range(1, before + 1):
        others[seat] = dict(houses=[city])
    start = gds(brick=2, food=1, tool=1, wine=1, cloth=1)
    g = arch(land=[route], goods_=start, coins_=20, others=others, cities={city: good})
    g.apply(f"build {city}")
    g.apply("done")
    assert coins(g, 0) == 20 - paid_coins
    assert goods(g, 0) == {k: start[k] - paid_goods[k] for k in start}
    assert city in houses(g, 0)
    for seat in range(1, before + 1):
        assert houses(g, seat) == [city]
    ok(g)


def test_third_house_in_wine_city_needs_12_coins():
    others = {1: dict(houses=["Brigantium"]), 2: dict(houses=["Brigantium"])}
    have = gds(brick=1, wine=1)
    g = arch(land=["Brigantium-Olisipo"], goods_=have, coins_=11, others=others, cities={"Brigantium": "wine"})
    assert "build Brigantium" not in moves(g)
    g = arch(land=["Brigantium-Olisipo"], goods_=have, coins_=12, others=others, cities={"Brigantium": "wine"})
    assert "build Brigantium" in moves(g)
    g.apply("build Brigantium")
    assert coins(g, 0) == 0 and goods(g, 0) == gds()


def test_house_needs_the_goods():
    # a wine city: brick + wine; no wine -> no build; brick city: food only
    g = arch(land=["Brigantium-Olisipo"], goods_=gds(brick=2, cloth=3), coins_=50,
             cities={"Brigantium": "wine", "Olisipo": "brick"})
    assert sorted(m for m in moves(g) if m.startswith("build")) == []
    g = arch(land=["Brigantium-Olisipo"], goods_=gds(food=1, wine=1), coins_=50,
             cities={"Brigantium": "wine", "Olisipo": "brick"})
    assert sorted(m for m in moves(g) if m.startswith("build")) == ["build Olisipo"]


# ------------------------------------------------------------------ the 15th house ends the game

def fifteenth_house_game():
    pos = base(3)
    fourteen = [c for c in CITY_GOODS if c != "Novaria"][:14]
    set_player(pos, 0, coins=20, goods=gds(brick=1, tool=1), land=["Novaria-Roma"], houses=fourteen)
    set_cities(pos, {"Novaria": "tool"})
    set_turn(pos, 0)
    g = load(pos)
    g.apply("play Architect")
    return g


def test_fifteenth_house_triggers_the_end():
    g = fifteenth_house_game()
    assert g.scores()[0]["Concordia"] == 0
    g.apply("build Novaria")
    assert len(houses(g, 0)) == 15
    assert coins(g, 0) == 20 - 3
    end = g.to_json()["end"]
    assert end["concordia"] == "P1"
    assert g.scores()[0]["Concordia"] == 7
    assert g.scores()[1]["Concordia"] == 0 and g.scores()[2]["Concordia"] == 0
    g.apply("done")
    # P2 and P3 have exactly one more turn each, P1 none
    assert g.decider == 1 and g.phase == "play"
    g.apply("play Prefect")
    g.apply("cash")
    assert not g.is_over and g.decider == 2
    g.apply("play Prefect")
    g.apply("cash")
    assert g.is_over
    assert g.decider is None
    assert g.legal_moves() == []
    assert g.scores()[0]["Concordia"] == 7
    ok(g)


def test_fourteenth_house_does_not_end():
    pos = base(3)
    thirteen = [c for c in CITY_GOODS if c != "Novaria"][:13]
    set_player(pos, 0, coins=20, goods=gds(brick=1, tool=1), land=["Novaria-Roma"], houses=thirteen)
    set_cities(pos, {"Novaria": "tool"})
    set_turn(pos, 0)
    g = load(pos)
    g.apply("play Architect")
    g.apply("build Novaria")
    g.apply("done")
    assert g.to_json()["end"]["concordia"] is None
    assert g.scores()[0]["Concordia"] == 0
    ok(g)


def test_route_to_route_two_cities_away_costs_two():
    g = arch(land=["Aquileia-Vindobona", "Roma"], sea=["Roma"])        # 3 steps
    g.apply("move land Aquileia-Vindobona > Colonia Agrippina-Lutetia")   # via Vindobona, Colonia Agrippina
    assert steps(g) == 1
    g.apply("done")
    assert places(g, 0, "land") == ["Colonia Agrippina-Lutetia", "Roma", "storehouse"]
    ok(g)


def test_colonist_in_a_city_other_than_roma_moves_out():
    g = arch(land=["Sirmium"])
    assert steps(g) == 1
    assert move_targets(g, "move land Sirmium") == [
        "Aquileia-Sirmium", "Dyrrhachium-Sirmium", "Napoca-Sirmium", "Sirmium-Tomis", "Sirmium-Vindobona"]


def test_fifteenth_house_by_last_seat_no_sixteenth_then_two_turns():
    pos = base(3)
    fourteen = [c for c in CITY_GOODS if c not in ("Novaria", "Aquileia")][:14]
    set_player(pos, 2, coins=30, goods=gds(brick=2, tool=1, food=1), land=["Aquileia-Novaria"], sea=[],
               houses=fourteen)
    set_turn(pos, 2)
    g = load(pos)
    g.apply("play Architect")
    assert sorted(m for m in moves(g) if m.startswith("build")) == ["build Aquileia", "build Novaria"]
    g.apply("build Novaria")
    assert moves(g) == ["done"]                      # 15 houses: no 16th
    assert g.to_json()["end"]["concordia"] == "P3"
    g.apply("done")
    assert g.decider == 0
    g.apply("play Prefect")
    g.apply("cash")
    assert g.decider == 1 and not g.is_over
    g.apply("play Prefect")
    g.apply("cash")
    assert g.is_over and g.decider is None
    assert [s["Concordia"] for s in g.scores()] == [0, 0, 7]
    ok(g)
