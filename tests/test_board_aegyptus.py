"""Aegyptus (expansion rule text 003, RULINGS 25, 29-36): start city Memphis, sea lines without a limit,
the separate Red Sea, the FRANKINCENSE and GOLD squares, the Nile flood, frankincense income.
Exact numbers on constructed positions, including the three worked examples of the rule text."""

import pytest

from concordia_ai.engine import vocabulary
from concordia_ai import core
from concordia_ai.engine import game as game_mod
from concordia_ai.engine.game import Game

GOODS = ("brick", "food", "tool", "wine", "cloth")
NO_GOODS = {g: 0 for g in GOODS}
STORE3 = ["storehouse"] * 3
RED_SEA = {"Aila", "Leuke Kome", "Berenice", "Myos Hormos", "Klysma", "Rhaithou", "FRANKINCENSE"}


def position(players=3, cities=None, seed=1, names=None):
    """A fresh Aegyptus position (turn of the first player, phase play), city goods set, markers matching,
    no goods, no coins, every colonist in the storehouse, starting hands; the Praefectus Magnus is the
    last player."""
    g0 = Game.new("aegyptus", players, seed=seed, names=names)
    pos = g0.to_json()
    if cities:
        pos["cities"].update(cities)
    pos["provinces"] = game_mod._markers(g0.board, pos["cities"], GOODS)
    pos["praefectus_magnus"] = pos["players"][-1]["name"]
    for p in pos["players"]:
        p["goods"] = dict(NO_GOODS)
        p["coins"] = 0
        p["colonists"] = {"land": list(STORE3), "sea": list(STORE3)}
    return pos


def legal_texts(g):
    return sorted(g.text(m) for m in g.legal_moves())


def player(g, i):
    return g.to_json()["players"][i]


def board():
    return vocabulary.board("aegyptus")


# ------------------------------------------------------------------------------------------ setup


def test_setup_memphis_and_nile_marker_in_kush():
    g = Game.new("aegyptus", 5, seed=4)
    pos = g.to_json()
    for p in pos["players"]:
        assert p["colonists"] == {"land": ["Memphis", "storehouse", "storehouse"],
                                  "sea": ["Memphis", "storehouse", "storehouse"]}
    assert "Memphis" not in pos["cities"] and "GOLD" not in pos["cities"] and "FRANKINCENSE" not in pos["cities"]
    assert len(pos["cities"]) == 22
    assert pos["nile_marker"] == "Kush"


def test_tribune_and_colonist_use_memphis():
    pos = position()
    me = pos["players"][0]
    me["goods"].update(food=2, tool=2)
    me["hand"].update({"Tribune": 1, "Colonist": 1})
    me["colonists"]["land"][0] = "Memphis"
    g = Game.from_json(pos)
    g.apply("play Tribune")
    g.apply("colonist land")
    assert player(g, 0)["colonists"]["land"] == ["Memphis", "Memphis", "storehouse"]
    pos = g.to_json()
    pos["turn"].update(player="P1", decider="P1")
    g = Game.from_json(pos)
    g.apply("play Colonist")
    assert legal_texts(g) == ["cash", "done", "place land Memphis", "place sea Memphis"]


def test_no_house_in_memphis():
    pos = position()
    pos["players"][0]["houses"] = ["Memphis"]
    with pytest.raises(Exception, match="house"):
        Game.from_json(pos)
    pos = position(cities={"Oxyrhynchus": "brick"})
    me = pos["players"][0]
    me["coins"] = 20
    me["goods"] = dict(NO_GOODS, food=3, brick=3)
    me["hand"].update({"Architect": 1})
    me["colonists"]["land"][0] = "Memphis-Oxyrhynchus"
    g = Game.from_json(pos)
    g.apply("play Architect")
    assert [t for t in legal_texts(g) if t.startswith("build")] == ["build Oxyrhynchus"]


# ------------------------------------------------------------------------------------------ sea lines


def test_sea_lines_hold_any_number_land_routes_one():
    pos = position()
    pos["players"][0]["hand"].update({"Architect": 1})
    pos["players"][0]["colonists"] = {"land": ["Memphis", "storehouse", "storehouse"],
                                      "sea": ["Memphis", "storehouse", "storehouse"]}
    pos["players"][1]["colonists"] = {"land": ["Memphis-Oxyrhynchus", "storehouse", "storehouse"],
                                      "sea": ["Memphis-Oxyrhynchus", "storehouse", "storehouse"]}
    pos["players"][2]["colonists"]["sea"][0] = "Memphis-Oxyrhynchus"     # already two on that Nile line
    g = Game.from_json(pos)
    g.apply("play Architect")
    texts = legal_texts(g)
    assert "move sea Memphis > Memphis-Oxyrhynchus" in texts
    assert "move land Memphis > Memphis-Oxyrhynchus" not in texts        # land route held by P2
    g.apply("move sea Memphis > Memphis-Oxyrhynchus")
    g.apply("done")
    assert g.state.invariant_errors() == []
    seas = [p["colonists"]["sea"][0] for p in g.to_json()["players"]]
    assert seas == ["Memphis-Oxyrhynchus"] * 3
    # the Mediterranean lines too
    r = [i for i, (a, b, sea, cap) in enumerate(board().routes) if sea]
    assert all(board().routes[i][3] == 0 for i in r)
    assert all(cap == 1 for a, b, sea, cap in board().routes if not sea)


def test_red_sea_not_reachable_from_the_nile_network():
    b = board()
    rr, cr = core.board_distances(b.id)
    memphis = b.cities.index("Memphis")
    for r, (a, e, sea, cap) in enumerate(b.routes):
        if not sea:
            continue
        red = b.cities[a] in RED_SEA
        assert (b.cities[e] in RED_SEA) == red
        if red:
            assert cr[memphis][r] == 255
        else:
            assert cr[memphis][r] < 255
    pos = position()
    pos["players"][0]["hand"].update({"Architect": 1})
    pos["players"][0]["colonists"]["sea"] = ["Memphis", "Memphis", "Memphis"]
    pos["players"][0]["colonists"]["land"] = ["Memphis", "Memphis", "Memphis"]
    g = Game.from_json(pos)
    g.apply("play Architect")
    assert g.to_json()["turn"]["scratch"]["steps"] == 6
    moves = [t for t in legal_texts(g) if t.startswith("move sea")]
    assert moves and not any(c in t for t in moves for c in RED_SEA)


def test_colonist_card_places_into_the_red_sea_then_frankincense():
    pos = position(cities={"Myos Hormos": "wine"})
    me = pos["players"][0]
    me["houses"] = ["Myos Hormos"]
    me["goods"] = dict(NO_GOODS, food=1, tool=1)
    me["hand"].update({"Colonist": 1, "Architect": 1})
    g = Game.from_json(pos)
    g.apply("play Colonist")
    assert "place sea Myos Hormos" in legal_texts(g)
    g.apply("place sea Myos Hormos")
    g.apply("done")
    assert player(g, 0)["colonists"]["sea"] == ["Myos Hormos", "storehouse", "storehouse"]
    pos = g.to_json()
    pos["turn"].update(player="P1", decider="P1")
    g = Game.from_json(pos)
    g.apply("play Architect")
    assert g.to_json()["turn"]["scratch"]["steps"] == 1
    assert sorted(t for t in legal_texts(g) if t.startswith("move")) == [
        "move sea Myos Hormos > Berenice-Myos Hormos", "move sea Myos Hormos > FRANKINCENSE-Myos Hormos",
        "move sea Myos Hormos > Leuke Kome-Myos Hormos", "move sea Myos Hormos > Myos Hormos-Rhaithou"]
    g.apply("move sea Myos Hormos > FRANKINCENSE-Myos Hormos")
    g.apply("done")
    assert player(g, 0)["colonists"]["sea"] == ["FRANKINCENSE", "storehouse", "storehouse"]
    assert g.scores()[0]["Squares"] == 7


# ------------------------------------------------------------------------------------------ special squares


def test_example_1_build_in_the_line_city_then_gold():
    """Green plays the Architect, builds in the cloth city (Meroe), and its sea colonist ends on GOLD: 7 VP."""
    pos = position(cities={"Meroe": "cloth", "Napata": "brick"}, names=["Green", "Red", "Yellow"])
    green = pos["players"][0]
    green["coins"] = 5
    green["goods"] = dict(NO_GOODS, brick=1, cloth=1)
    green["hand"].update({"Architect": 1})
    green["colonists"]["sea"][0] = "Napata-Meroe"
    g = Game.from_json(pos)
    g.apply("play Architect")
    g.apply("move sea Napata-Meroe > GOLD-Meroe")
    assert "build Meroe" in legal_texts(g)          # ruling 36: the line to GOLD gives the right to build
    g.apply("build Meroe")
    assert player(g, 0)["colonists"]["sea"][0] == "GOLD-Meroe"     # not yet: the move comes at the end
    g.apply("done")
    after = g.to_json()
    assert after["players"][0]["colonists"]["sea"] == ["GOLD", "storehouse", "storehouse"]
    assert after["players"][0]["houses"] == ["Meroe"]
    assert after["players"][0]["coins"] == 0 and after["players"][0]["goods"] == NO_GOODS
    assert g.scores()[0]["Squares"] == 7
    assert g.state.invariant_errors() == []


def test_square_colonist_is_frozen_and_gives_no_build_right():
    pos = position(cities={"Meroe": "brick", "Berenice": "brick", "Leuke Kome": "brick", "Myos Hormos": "brick"})
    me = pos["players"][0]
    me["coins"] = 30
    me["goods"] = dict(NO_GOODS, food=5)
    me["hand"].update({"Architect": 1})
    me["colonists"]["sea"] = ["GOLD", "FRANKINCENSE", "storehouse"]
    me["colonists"]["land"] = ["Memphis", "storehouse", "storehouse"]
    g = Game.from_json(pos)
    g.apply("play Architect")
    assert g.to_json()["turn"]["scratch"]["steps"] == 3         # both square colonists count
    texts = legal_texts(g)
    assert not [t for t in texts if t.startswith("build")]
    assert not [t for t in texts if t.startswith("move sea")]
    assert [t for t in texts if t.startswith("move land")]
    g.apply("done")
    assert player(g, 0)["colonists"]["sea"] == ["GOLD", "FRANKINCENSE", "storehouse"]


def _two_lines_to_frankincense():
    """P1's sea colonists end an Architect on two different lines to FRANKINCENSE."""
    pos = position()
    me = pos["players"][0]
    me["hand"].update({"Architect": 2})
    me["colonists"]["sea"] = ["Berenice-Myos Hormos", "Leuke Kome-Myos Hormos", "storehouse"]
    pos["players"][1]["colonists"]["sea"][0] = "FRANKINCENSE"       # another player's does not matter
    g = Game.from_json(pos)
    g.apply("play Architect")
    g.apply("move sea Berenice-Myos Hormos > Berenice-FRANKINCENSE")
    g.apply("move sea Leuke Kome-Myos Hormos > FRANKINCENSE-Leuke Kome")
    g.apply("done")
    return g


@pytest.mark.parametrize("line, stays", [("Berenice-FRANKINCENSE", "FRANKINCENSE-Leuke Kome"),
                                         ("FRANKINCENSE-Leuke Kome", "Berenice-FRANKINCENSE")])
def test_one_colonist_per_player_per_square(line, stays):
    """Ruling E1: the player chooses which line's colonist enters the square; the other stays on its line."""
    g = _two_lines_to_frankincense()
    assert g.phase == "square" and g.decider == 0
    assert legal_texts(g) == ["enter Berenice-FRANKINCENSE", "enter FRANKINCENSE-Leuke Kome"]
    assert g.parse("enter Leuke Kome-FRANKINCENSE") == g.parse("enter FRANKINCENSE-Leuke Kome")
    g.apply(f"enter {line}")
    assert g.phase == "play" and g.decider == 1
    after = g.to_json()["players"][0]["colonists"]["sea"]
    assert sorted(after) == sorted(["FRANKINCENSE", stays, "storehouse"])
    assert g.scores()[0]["Squares"] == 7 and g.scores()[1]["Squares"] == 7
    assert g.state.invariant_errors() == []
    # next Architect: the one left on the line can move on, or stays there
    pos = g.to_json()
    pos["turn"].update(player="P1", decider="P1")
    g = Game.from_json(pos)
    g.apply("play Architect")
    assert [t for t in legal_texts(g) if t.startswith("move sea")]
    g.apply("done")
    assert sorted(player(g, 0)["colonists"]["sea"]) == sorted(["FRANKINCENSE", stays, "storehouse"])


def test_two_colonists_on_one_line_to_a_square_ask_nothing():
    """Both on the same line: either one entering is the same outcome, so the engine sends one (index order)."""
    pos = position()
    me = pos["players"][0]
    me["colonists"]["sea"] = ["Berenice-FRANKINCENSE", "Berenice-FRANKINCENSE", "storehouse"]
    g = Game.from_json(pos)
    g.apply("play Architect")
    g.apply("done")
    assert g.phase == "play" and g.decider == 1
    assert player(g, 0)["colonists"]["sea"] == ["FRANKINCENSE", "Berenice-FRANKINCENSE", "storehouse"]


def test_square_choice_in_position_round_trip():
    g = _two_lines_to_frankincense()
    h = Game.from_json(g.to_json())
    assert h.phase == "square" and legal_texts(h) == legal_texts(g)


def test_forced_move_only_at_the_end_of_the_owners_architect():
    pos = position()
    pos["players"][0]["hand"].update({"Architect": 1})
    pos["players"][0]["colonists"]["land"][0] = "Memphis"
    pos["players"][1]["colonists"]["sea"][0] = "GOLD-Meroe"
    g = Game.from_json(pos)
    g.apply("play Architect")
    g.apply("done")
    assert player(g, 1)["colonists"]["sea"][0] == "GOLD-Meroe"
    assert g.scores()[1]["Squares"] == 0


def test_gold_and_frankincense_on_one_player():
    pos = position()
    me = pos["players"][0]
    me["hand"].update({"Architect": 1})
    me["colonists"]["sea"] = ["Napata-Meroe", "Berenice-Myos Hormos", "storehouse"]
    g = Game.from_json(pos)
    g.apply("play Architect")
    g.apply("move sea Napata-Meroe > GOLD-Meroe")
    g.apply("move sea Berenice-Myos Hormos > FRANKINCENSE-Myos Hormos")
    g.apply("done")
    assert player(g, 0)["colonists"]["sea"] == ["GOLD", "FRANKINCENSE", "storehouse"]
    assert g.scores()[0]["Squares"] == 14


def test_square_colonists_count_for_mars_and_colonist_cash():
    pos = position()
    me = pos["players"][0]
    me["hand"].update({"Colonist": 1, "Diplomat/Mars": 1})
    me["colonists"]["sea"] = ["GOLD", "FRANKINCENSE", "storehouse"]
    me["colonists"]["land"] = ["Memphis", "storehouse", "storehouse"]
    g = Game.from_json(pos)
    row = g.scores()[0]
    # Mars: 2 VP per colonist on the board (3, both square colonists count) per Mars card
    # (Tribune, Colonist, Diplomat/Mars: 3)
    assert row["Mars"] == 2 * 3 * 3
    assert row["Squares"] == 14
    g.apply("play Colonist")
    g.apply("cash")
    assert player(g, 0)["coins"] == 5 + 3


# ------------------------------------------------------------------------------------------ Nile flood


def test_example_2_produce_in_kush():
    """Red produces in Kush: 1 brick (house), 1 cloth (bonus), 1 extra food; Green 1 cloth; marker to Nubia."""
    pos = position(cities={"Meroe": "cloth", "Napata": "brick"}, names=["Red", "Green", "Yellow"])
    pos["players"][0]["hand"].update({"Prefect": 1})
    pos["players"][0]["houses"] = ["Napata"]
    pos["players"][1]["houses"] = ["Meroe"]
    g = Game.from_json(pos)
    assert g.to_json()["nile_marker"] == "Kush"
    g.apply("play Prefect")
    g.apply("produce Kush")
    after = g.to_json()
    assert after["players"][0]["goods"] == dict(NO_GOODS, brick=1, cloth=1, food=1)
    assert after["players"][1]["goods"] == dict(NO_GOODS, cloth=1)
    assert after["players"][2]["goods"] == NO_GOODS
    assert after["nile_marker"] == "Nubia"
    assert after["provinces"]["Kush"] == {"marker": "cloth", "side": "coins"}


def test_nile_food_not_doubled_by_the_praefectus_magnus():
    pos = position(cities={"Meroe": "cloth", "Napata": "brick"})
    pos["praefectus_magnus"] = "P1"
    pos["players"][0]["hand"].update({"Prefect": 1})
    g = Game.from_json(pos)
    g.apply("play Prefect")
    g.apply("produce Kush")
    assert player(g, 0)["goods"] == dict(NO_GOODS, cloth=2, food=1)


def test_nile_marker_moves_only_when_its_province_produces():
    pos = position(cities={"Abu Simbel": "wine", "Kerma": "brick"})
    pos["players"][0]["hand"].update({"Prefect": 1})
    g = Game.from_json(pos)
    g.apply("play Prefect")
    g.apply("produce Nubia")                 # marker is in Kush
    assert player(g, 0)["goods"] == dict(NO_GOODS, wine=1)
    assert g.to_json()["nile_marker"] == "Kush"


@pytest.mark.parametrize("marker,province,cities,nxt", [
    ("Nubia", "Nubia", {"Abu Simbel": "wine", "Kerma": "brick"}, "Aegyptus Superior"),
    ("Aegyptus Superior", "Aegyptus Superior", {"Syene": "tool", "Thebae": "brick"}, "Arcadia"),
    ("Arcadia", "Arcadia", {"Lyopolis": "food", "Oxyrhynchus": "brick"}, "Aegyptus Inferior"),
    ("Aegyptus Inferior", "Aegyptus Inferior", {"Alexandria": "tool", "Tamiathis": "food"}, "Kush"),
])
def test_nile_marker_moves_downstream(marker, province, cities, nxt):
    pos = position(cities=cities)
    pos["nile_marker"] = marker
    pos["players"][0]["hand"].update({"Prefect": 1})
    g = Game.from_json(pos)
    g.apply("play Prefect")
    g.apply(f"produce {province}")
    bonus = max(cities.values(), key=GOODS.index)
    expect = dict(NO_GOODS)
    expect[bonus] += 1
    expect["food"] += 1
    assert player(g, 0)["goods"] == expect
    assert g.to_json()["nile_marker"] == nxt


def test_nile_through_diplomat():
    pos = position(cities={"Meroe": "cloth", "Napata": "brick"})
    pos["players"][0]["hand"].update({"Diplomat/Jupiter": 1})
    pos["players"][1]["discard"] = {"Prefect": 1}
    pos["players"][1]["top"] = "Prefect"
    g = Game.from_json(pos)
    g.apply("play Diplomat")
    g.apply("copy Prefect")
    g.apply("produce Kush")
    assert player(g, 0)["goods"] == dict(NO_GOODS, cloth=1, food=1)
    assert g.to_json()["nile_marker"] == "Nubia"


# ------------------------------------------------------------------------------------------ frankincense


def test_example_3_produce_in_litus():
    """Red produces in Litus: 1 food and 1 wine; Yellow and Red on FRANKINCENSE get 5 each (and 7 VP)."""
    pos = position(players=3, cities={"Berenice": "food", "Myos Hormos": "wine"}, names=["Red", "Green", "Yellow"])
    pos["players"][0]["hand"].update({"Prefect": 1})
    pos["players"][0]["houses"] = ["Berenice"]
    pos["players"][0]["colonists"]["sea"][0] = "FRANKINCENSE"
    pos["players"][2]["colonists"]["sea"][0] = "FRANKINCENSE"
    pos["players"][1]["colonists"]["sea"][0] = "Berenice-FRANKINCENSE"   # on the line only: no income
    g = Game.from_json(pos)
    g.apply("play Prefect")
    g.apply("produce Litus")
    after = g.to_json()
    assert after["players"][0]["goods"] == dict(NO_GOODS, food=1, wine=1)
    assert [p["coins"] for p in after["players"]] == [5, 0, 5]
    assert after["nile_marker"] == "Kush"
    assert [row["Squares"] for row in g.scores()] == [7, 0, 7]


@pytest.mark.parametrize("province,cities,paid", [
    ("Sinai", {"Klysma": "wine", "Rhaithou": "food"}, True),
    ("Arabia", {"Aila": "brick", "Leuke Kome": "food", "Petra": "brick"}, True),
    ("Iudaea", {"Gaza": "tool", "Jerusalem": "food"}, False),
    ("Oasis", {"Hibis": "tool", "Oasis Parva": "food", "Trimithis": "brick"}, False),
])
def test_frankincense_income_by_province(province, cities, paid):
    pos = position(cities=cities)
    pos["players"][0]["hand"].update({"Prefect": 1})
    pos["players"][1]["colonists"]["sea"][0] = "FRANKINCENSE"
    pos["players"][1]["coins"] = 1
    g = Game.from_json(pos)
    g.apply("play Prefect")
    g.apply(f"produce {province}")
    assert [p["coins"] for p in g.to_json()["players"]] == [0, 6 if paid else 1, 0]


def test_frankincense_income_through_diplomat_and_not_on_cash():
    pos = position(cities={"Klysma": "wine", "Rhaithou": "food"})
    pos["players"][0]["hand"].update({"Diplomat/Jupiter": 1, "Prefect": 1})
    pos["players"][1]["discard"] = {"Prefect": 1}
    pos["players"][1]["top"] = "Prefect"
    pos["players"][2]["colonists"]["sea"][0] = "FRANKINCENSE"
    g = Game.from_json(pos)
    g.apply("play Diplomat")
    g.apply("copy Prefect")
    g.apply("produce Sinai")
    assert [p["coins"] for p in g.to_json()["players"]] == [0, 0, 5]
    pos = g.to_json()
    pos["turn"].update(player="P1", decider="P1")
    g = Game.from_json(pos)
    g.apply("play Prefect")
    g.apply("cash")                         # Sinai wine coin side: 2, no frankincense income
    assert [p["coins"] for p in g.to_json()["players"]] == [2, 0, 5]


# ------------------------------------------------------------------------------------------ positions


def test_position_round_trip_squares_and_nile_marker():
    pos = position(cities={"Meroe": "cloth", "Napata": "brick"})
    pos["nile_marker"] = "Arcadia"
    pos["players"][0]["colonists"]["sea"] = ["FRANKINCENSE", "GOLD", "Leuke Kome-Myos Hormos"]
    pos["players"][1]["colonists"]["sea"] = ["FRANKINCENSE", "Leuke Kome-Myos Hormos", "Memphis-Oxyrhynchus"]
    g = Game.from_json(pos)
    out = g.to_json()
    assert out["nile_marker"] == "Arcadia"
    assert out["players"][0]["colonists"]["sea"] == ["FRANKINCENSE", "GOLD", "Leuke Kome-Myos Hormos"]
    again = Game.from_json(out)
    assert again.to_json() == out
    assert again.state.export() == g.state.export()
    assert g.state.invariant_errors() == []


@pytest.mark.parametrize("change,match", [
    (lambda p: p["players"][0]["colonists"]["land"].__setitem__(0, "GOLD"), "special square"),
    (lambda p: p["players"][0]["colonists"]["sea"].__setitem__(slice(0, 2), ["GOLD", "GOLD"]), "special square"),
    (lambda p: p.__setitem__("nile_marker", "Oasis"), "nile_marker"),
    (lambda p: p.pop("nile_marker"), "nile_marker"),
    (lambda p: p["players"][0]["houses"].append("FRANKINCENSE"), "house"),
])
def test_position_rejects_bad_special_fields(change, match):
    pos = position()
    change(pos)
    with pytest.raises(game_mod.position.PositionError, match=match):
        Game.from_json(pos)
