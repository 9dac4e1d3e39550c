"""Prefect and Praefectus Magnus (rulings 8, 9, 10, 14, 34)."""
from positions import PROVINCES, all_markers, base, coins, gds, goods, load, moves, ok, set_markers, set_player, \
    set_pm, set_turn

# Italia: Aquileia food, Novaria tool, Syracusae brick -> tool marker.  Lybia: Cyrene wine, Leptis Magna tool.


def prefect_pos(pm=0, turn=1, houses=None, markers=None, coins_=(5, 6, 7)):
    pos = base(3)
    for seat in range(3):
        set_player(pos, seat, coins=coins_[seat], goods=gds(), houses=(houses or {}).get(seat, []))
    if markers:
        set_markers(pos, markers)
    set_pm(pos, pm)
    set_turn(pos, turn)
    return pos


def state(g):
    return g.to_json()


def test_production_bonus_and_every_house_produces_for_its_owner():
    g = load(prefect_pos(pm=0, turn=1, houses={0: ["Novaria"], 1: ["Aquileia", "Syracusae"]}))
    g.apply("play Prefect")
    g.apply("produce Italia")
    assert goods(g, 1) == gds(tool=1, food=1, brick=1)       # bonus tool + Aquileia food + Syracusae brick
    assert goods(g, 0) == gds(tool=1)                        # Novaria, for P1 who is not on turn
    assert goods(g, 2) == gds()
    assert state(g)["provinces"]["Italia"] == {"marker": "tool", "side": "coins"}
    assert state(g)["praefectus_magnus"] == "P1"             # not the producer's: does not move
    assert [coins(g, i) for i in range(3)] == [5, 6, 7]
    assert g.phase == "play" and g.decider == 2
    ok(g)


def test_production_in_a_province_without_houses():
    g = load(prefect_pos(pm=0, turn=1))
    g.apply("play Prefect")
    g.apply("produce Lybia")
    assert goods(g, 1) == gds(wine=1)
    assert goods(g, 0) == gds() and goods(g, 2) == gds()
    assert state(g)["provinces"]["Lybia"]["side"] == "coins"
    others = {p: v["side"] for p, v in state(g)["provinces"].items() if p != "Lybia"}
    assert set(others.values()) == {"goods"}
    ok(g)


def test_flipped_province_cannot_produce():
    g = load(prefect_pos(markers={"Italia": "coins", "Gallia": "coins", "Aegyptus": "coins"}))
    g.apply("play Prefect")
    expected = ["cash"] + [f"produce {p}" for p in PROVINCES if p not in ("Italia", "Gallia", "Aegyptus")]
    assert sorted(moves(g)) == sorted(expected)


def test_all_flipped_only_cash():
    pos = prefect_pos()
    all_markers(pos, "coins")
    g = load(pos)
    g.apply("play Prefect")
    assert moves(g) == ["cash"]


def test_praefectus_magnus_doubles_the_bonus_only_then_passes_right():
    g = load(prefect_pos(pm=1, turn=1, houses={0: ["Novaria"], 1: ["Aquileia"]}))
    g.apply("play Prefect")
    g.apply("produce Italia")
    assert goods(g, 1) == gds(tool=2, food=1)                 # 2 bonus tools, Aquileia still 1 food
    assert goods(g, 0) == gds(tool=1)                         # other players' houses are not doubled
    assert state(g)["praefectus_magnus"] == "P1"              # to the right: the previous seat
    ok(g)


def test_praefectus_magnus_own_house_not_doubled():
    g = load(prefect_pos(pm=1, turn=1, houses={1: ["Novaria"]}))
    g.apply("play Prefect")
    g.apply("produce Italia")
    assert goods(g, 1) == gds(tool=3)                         # 2 bonus + 1 from the house (not 4)


def test_praefectus_magnus_passes_from_first_seat_to_last():
    g = load(prefect_pos(pm=0, turn=0))
    g.apply("play Prefect")
    g.apply("produce Lybia")
    assert goods(g, 0) == gds(wine=2)
    assert state(g)["praefectus_magnus"] == "P3"
    ok(g)


def test_praefectus_magnus_used_through_diplomat():
    pos = prefect_pos(pm=1, turn=1)
    set_player(pos, 0, played=["Prefect"])                    # P1's top card: Prefect
    g = load(pos)
    g.apply("play Diplomat")
    g.apply("copy Prefect")
    g.apply("produce Lybia")
    assert goods(g, 1) == gds(wine=2)
    assert state(g)["praefectus_magnus"] == "P1"
    ok(g)


def test_cash_pays_flipped_markers_and_flips_all_back():
    # flipped: Gallia cloth (1), Hellas cloth (1), Italia tool (2), Syria wine (2), Hispania wine (2) -> 8
    flipped = ["Gallia", "Hellas", "Italia", "Syria", "Hispania"]
    pos = prefect_pos(pm=1, turn=1, markers={p: "coins" for p in flipped})
    g = load(pos)
    assert {p: state(g)["provinces"][p]["marker"] for p in flipped} == {
        "Gallia": "cloth", "Hellas": "cloth", "Italia": "tool", "Syria": "wine", "Hispania": "wine"}
    g.apply("play Prefect")
    g.apply("cash")
    assert coins(g, 1) == 6 + 8
    assert [coins(g, 0), coins(g, 2)] == [5, 7]
    assert {v["side"] for v in state(g)["provinces"].values()} == {"goods"}
    assert state(g)["praefectus_magnus"] == "P2"              # not used on cash: stays put
    assert goods(g, 1) == gds()
    ok(g)


def test_cash_all_twelve_flipped():
    pos = prefect_pos(pm=0, turn=0)
    all_markers(pos, "coins")
    g = load(pos)
    markers = [v["marker"] for v in state(g)["provinces"].values()]
    expected = sum(1 if m == "cloth" else 2 for m in markers)
    assert expected == 20                                    # 4 cloth markers, 8 others in the fixed layout
    g.apply("play Prefect")
    g.apply("cash")
    assert coins(g, 0) == 5 + 20
    assert state(g)["praefectus_magnus"] == "P1"
    ok(g)


def test_cash_with_nothing_flipped_pays_nothing():
    g = load(prefect_pos(pm=1, turn=1))
    g.apply("play Prefect")
    assert "cash" in moves(g)
    g.apply("cash")
    assert coins(g, 1) == 6
    assert state(g)["praefectus_magnus"] == "P2"
    assert g.phase == "play" and g.decider == 2
    ok(g)


def test_markers_flipped_by_a_production_are_cashed_later():
    g = load(prefect_pos(pm=2, turn=0))
    g.apply("play Prefect")
    g.apply("produce Gallia")                                 # cloth marker
    assert goods(g, 0) == gds(cloth=1)
    g.apply("play Prefect")                                   # P2
    g.apply("produce Italia")                                 # tool marker
    assert goods(g, 1) == gds(tool=1)
    g.apply("play Prefect")                                   # P3 cashes 1 + 2
    g.apply("cash")
    assert coins(g, 2) == 7 + 3
    assert state(g)["praefectus_magnus"] == "P3"
    assert {v["side"] for v in state(g)["provinces"].values()} == {"goods"}
    ok(g)
