"""Diplomat (ruling 14): resolve, for oneself, the top card of another player's discard pile exactly as if
played. Bought Mercator gives 5; copied Prefect uses the copier's Praefectus Magnus; copied specialist produces
from the copier's houses; a Diplomat on top cannot be copied; an empty pile offers nothing."""
from positions import base, coins, goods, moves, ok, played, player, set_cities, set_player, start

GALLIA = {"Burdigala": "food", "Lutetia": "cloth", "Massilia": "tool"}


def gallia_position():
    pos = base(3)
    set_cities(pos, GALLIA, markers=False)
    pos["provinces"]["Gallia"] = {"marker": "cloth", "side": "goods"}
    return pos


def test_copy_bought_mercator_gives_5():
    pos = base(3)
    played(pos, 1, "Mercator/5")
    played(pos, 2, "Senator")
    set_player(pos, 0, coins=2)
    g = start(pos, 0)
    g.apply("play Diplomat")
    assert g.phase == "diplomat"
    assert sorted(moves(g)) == ["copy Mercator/5", "copy Senator", "done"]
    g.apply("copy Mercator/5")
    assert coins(g, 0) == 7
    assert g.phase == "mercator"
    g.apply("sell 1 cloth")
    assert coins(g, 0) == 14
    g.apply("done")
    # the copier's Diplomat is on its pile; the copied card stays with its owner
    assert player(g, 0)["top"] == "Diplomat/Jupiter"
    assert player(g, 1)["top"] == "Mercator/5" and player(g, 1)["discard"] == {"Mercator/5": 1}
    assert coins(g, 1) == 6
    assert g.decider == 1 and g.phase == "play"
    ok(g)


def test_copied_prefect_uses_copiers_praefectus_magnus():
    pos = gallia_position()
    pos["praefectus_magnus"] = "P1"
    played(pos, 1, "Prefect")
    set_player(pos, 0, houses=["Lutetia", "Massilia"], goods=dict(brick=1))
    set_player(pos, 1, houses=["Burdigala", "Lutetia"], goods=dict(brick=1))
    g = start(pos, 0)
    g.apply("play Diplomat")
    g.apply("copy Prefect")
    assert g.phase == "prefect"
    g.apply("produce Gallia")
    assert g.phase == "play" and g.decider == 1          # the action ends by itself
    # copier: 2 cloth bonus (PM) + Lutetia cloth + Massilia tool
    assert goods(g, 0) == dict(brick=1, food=0, tool=1, wine=0, cloth=3)
    # the owner of the copied Prefect: only its houses produce (Burdigala food, Lutetia cloth)
    assert goods(g, 1) == dict(brick=1, food=1, tool=0, wine=0, cloth=1)
    assert g.to_json()["provinces"]["Gallia"]["side"] == "coins"
    # the PM passes to the right of P1: the last seat
    assert g.to_json()["praefectus_magnus"] == "P3"
    ok(g)


def test_copied_prefect_does_not_use_the_card_owners_pm():
    pos = gallia_position()
    pos["praefectus_magnus"] = "P2"
    played(pos, 1, "Prefect")
    set_player(pos, 0, houses=["Lutetia"], goods={})
    g = start(pos, 0)
    g.apply("play Diplomat")
    g.apply("copy Prefect")
    g.apply("produce Gallia")
    assert g.phase == "play" and g.decider == 1          # the action ends by itself
    assert goods(g, 0) == dict(brick=0, food=0, tool=0, wine=0, cloth=2)     # 1 bonus + Lutetia
    assert g.to_json()["praefectus_magnus"] == "P2"
    ok(g)


def test_copied_prefect_cash_does_not_move_pm():
    pos = gallia_position()
    pos["praefectus_magnus"] = "P1"
    for name in pos["provinces"]:
        pos["provinces"][name]["side"] = "goods"
    pos["provinces"]["Gallia"] = {"marker": "cloth", "side": "coins"}       # 1 coin
    pos["provinces"]["Hispania"] = {"marker": "wine", "side": "coins"}      # 2 coins
    played(pos, 1, "Prefect")
    set_player(pos, 0, coins=0)
    g = start(pos, 0)
    g.apply("play Diplomat")
    g.apply("copy Prefect")
    g.apply("cash")
    assert g.phase == "play" and g.decider == 1          # the action ends by itself
    assert coins(g, 0) == 3
    assert g.to_json()["praefectus_magnus"] == "P1"
    assert g.to_json()["provinces"]["Gallia"]["side"] == "goods"
    assert g.to_json()["provinces"]["Hispania"]["side"] == "goods"
    ok(g)


def test_copied_specialist_produces_from_copiers_houses():
    pos = base(3)
    set_cities(pos, {"Lutetia": "cloth", "Colonia Agrippina": "cloth", "Memphis": "cloth", "Olisipo": "brick"},
               markers=False)
    played(pos, 1, "Weaver")
    set_player(pos, 0, houses=["Lutetia", "Colonia Agrippina", "Olisipo"], goods={})
    set_player(pos, 1, houses=["Memphis"], goods={})
    pm_before = pos["praefectus_magnus"]
    g = start(pos, 0)
    g.apply("play Diplomat")
    assert "copy Weaver" in moves(g)
    g.apply("copy Weaver")
    assert g.phase == "play" and g.decider == 1          # the action ends by itself
    assert goods(g, 0) == dict(brick=0, food=0, tool=0, wine=0, cloth=2)
    assert goods(g, 1) == dict(brick=0, food=0, tool=0, wine=0, cloth=0)
    assert g.to_json()["praefectus_magnus"] == pm_before
    assert g.decider == 1
    ok(g)


def test_diplomat_on_top_cannot_be_copied():
    pos = base(3)
    played(pos, 1, "Mercator/3", "Diplomat/Jupiter")
    played(pos, 2, "Architect")
    g = start(pos, 0)
    g.apply("play Diplomat")
    assert sorted(moves(g)) == ["copy Architect", "done"]
    ok(g)


def test_empty_pile_after_tribune_offers_nothing():
    pos = base(3)
    played(pos, 1)                      # P2 played a Tribune: pile empty
    played(pos, 2, "Senator")
    g = start(pos, 0)
    g.apply("play Diplomat")
    assert sorted(moves(g)) == ["copy Senator", "done"]
    ok(g)


def test_own_pile_is_not_offered():
    pos = base(3)
    played(pos, 0, "Mercator/3")
    set_player(pos, 0, coins=5)
    g = start(pos, 0)
    g.apply("play Diplomat")
    # the other piles are empty: nothing to copy, the turn ends (the own Mercator is never offered)
    assert g.decider == 1 and g.phase == "play"
    assert coins(g, 0) == 5
    ok(g)


def test_diplomat_with_nothing_to_copy_ends_turn():
    pos = base(3)
    played(pos, 1, "Diplomat/Jupiter")
    played(pos, 2)
    before = pos["players"][0]
    g = start(pos, 0)
    g.apply("play Diplomat")
    assert g.decider == 1 and g.phase == "play"
    after = player(g, 0)
    assert after["coins"] == before["coins"] and after["goods"] == before["goods"]
    assert after["top"] == "Diplomat/Jupiter" and after["discard"] == {"Diplomat/Jupiter": 1}
    ok(g)


def test_copied_architect_moves_copiers_colonists():
    # copying an Architect moves the copier's colonists (steps = copier's colonists on the board)
    pos = base(3)
    played(pos, 1, "Architect")
    set_player(pos, 0, land=["Lutetia"], sea=["Roma"])
    set_player(pos, 1, land=["Roma", "Roma", "Roma"], sea=["Roma", "Roma", "Roma"])
    g = start(pos, 0)
    g.apply("play Diplomat")
    g.apply("copy Architect")
    assert g.phase == "architect-move" and g.decider == 0
    assert g.to_json()["turn"]["scratch"]["steps"] == 2
    arch_moves = [t for t in moves(g) if t.startswith("move")]
    assert any(m.startswith("move land Lutetia >") for m in arch_moves)
    assert not any(m.startswith("move land Roma") for m in arch_moves)
    ok(g)
