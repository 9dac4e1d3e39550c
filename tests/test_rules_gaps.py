"""Parts of rulings that had no pinning test (docs/rulings.md, closing list): a Senator that buys nothing (1),
Mars for a sea colonist in an inland city (12), a second end trigger (21), special squares not passable (36),
special squares left out of the intermediate score (37), the forced move after a copied Architect and of an
unmoved colonist (E2), the Nile food under a full storehouse (E4), a duplicate Diplomat copy target offered once.
Exact numbers on constructed positions."""
import copy

from concordia_ai.engine import vocabulary
from concordia_ai import core
from concordia_ai.engine import game as game_mod
from concordia_ai.engine.game import Game

import positions as P

GOODS = ("brick", "food", "tool", "wine", "cloth")
NO_GOODS = {g: 0 for g in GOODS}
STORE3 = ["storehouse"] * 3


def texts(g):
    return sorted(g.text(m) for m in g.legal_moves())


def aegyptus(players=3, cities=None, intermediate_scoring=False):
    """A fresh Aegyptus position, turn of P1 (phase play): city goods set, markers matching, no goods, no coins,
    every colonist in the storehouse, starting hands, the Praefectus Magnus with the last player."""
    g0 = Game.new("aegyptus", players, seed=1, intermediate_scoring=intermediate_scoring)
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


def seat(g, i):
    return g.to_json()["players"][i]


# ------------------------------------------------------------------------------------------ ruling 1


def test_senator_buying_nothing_changes_nothing():
    """Ruling 1: every part is optional. A Senator played and closed with `done` buys nothing: the display, the
    stack, goods and coins stay as they were; the Senator lies on the pile and the turn passes."""
    pos = P.base(3)
    P.set_player(pos, 0, coins=9, goods=dict(brick=2, food=2, tool=2, wine=1, cloth=1), hand=dict(P.START_HAND),
                 discard={}, top=None)
    g = P.start(pos, 0)
    before = g.to_json()
    g.apply("play Senator")
    assert g.phase == "senator" and g.decider == 0
    offered = texts(g)
    assert "done" in offered and "buy Farmer/I" in offered         # purchases were possible
    g.apply("done")
    after = g.to_json()
    assert after["display"] == before["display"]
    assert after["stack_order"] == before["stack_order"]
    assert after["unseen"] == before["unseen"]
    me = after["players"][0]
    assert me["coins"] == 9
    assert me["goods"] == dict(brick=2, food=2, tool=2, wine=1, cloth=1)
    hand = dict(P.START_HAND)
    del hand["Senator"]
    assert me["hand"] == hand
    assert me["discard"] == {"Senator": 1} and me["top"] == "Senator"
    assert [p["coins"] for p in after["players"][1:]] == [6, 7]
    assert g.phase == "play" and g.decider == 1
    P.ok(g)


# ------------------------------------------------------------------------------------------ ruling 12


def test_mars_counts_sea_colonist_placed_in_inland_city():
    """Ruling 12: a sea colonist placed by the Colonist card in Sirmium (no sea route) counts for Mars.
    Mars cards: Tribune + Colonist = 2. Before: 1 colonist on the board (land, Roma) -> 2 * 1 * 2 = 4.
    After placing the sea colonist in Sirmium: 2 colonists -> 2 * 2 * 2 = 8."""
    pos = P.base(3)
    P.set_player(pos, 0, coins=0, goods=P.gds(food=1, tool=1), houses=["Sirmium"], land=["Roma"], sea=[],
                 extra={"Colonist": 1})
    P.set_turn(pos, 0)
    g = P.load(pos)
    assert g.scores()[0]["Mars"] == 4
    g.apply("play Colonist")
    g.apply("place sea Sirmium")
    g.apply("done")
    assert P.colonists(g, 0)["sea"] == ["Sirmium", "storehouse", "storehouse"]
    assert P.goods(g, 0) == P.gds()
    assert g.scores()[0]["Mars"] == 8
    P.ok(g)


# ------------------------------------------------------------------------------------------ ruling 21

# 14 cities, neither Roma nor Novaria nor Aquileia (the cities where the 15th houses go)
FOURTEEN = ["Isca Dumnoniorum", "Londinium", "Burdigala", "Lutetia", "Massilia", "Brigantium", "Olisipo",
            "Valentia", "Colonia Agrippina", "Vindobona", "Syracusae", "Carthago", "Rusadir", "Napoca"]


def test_second_end_trigger_has_no_effect():
    """Ruling 21: P1 builds its 15th house (Concordia card, 3 final turns for P2, P3, P4). P2 then also builds its
    15th house: P1 keeps the Concordia card, P2 gets no 7 VP, and the count of final turns is not reset: the game
    ends right after P4's turn."""
    pos = P.base(4)
    P.set_cities(pos, {"Novaria": "tool", "Aquileia": "food"})
    assert len(set(FOURTEEN)) == 14
    P.set_player(pos, 0, coins=10, goods=P.gds(brick=1, tool=1), houses=FOURTEEN, land=["Novaria-Roma"], sea=[])
    P.set_player(pos, 1, coins=10, goods=P.gds(brick=1, food=1), houses=FOURTEEN, land=["Aquileia-Novaria"],
                 sea=[])
    P.set_turn(pos, 0)
    g = P.load(pos)
    assert g.to_json()["end"] == {"concordia": None, "trigger_this_turn": False, "final_turns_left": 0}

    # P1: the 15th house (Novaria, tool city, first house there: 1 brick + 1 tool + 3 coins)
    g.apply("play Architect")
    g.apply("build Novaria")
    assert g.phase == "architect-build" and P.moves(g) == ["done"]
    g.apply("done")
    assert len(P.houses(g, 0)) == 15 and P.coins(g, 0) == 7 and P.goods(g, 0) == P.gds()
    assert g.to_json()["end"] == {"concordia": "P1", "trigger_this_turn": False, "final_turns_left": 3}
    assert g.decider == 1 and g.phase == "play"

    # P2: its 15th house too (Aquileia, food city, first house there: 1 brick + 1 food + 2 coins)
    g.apply("play Architect")
    g.apply("build Aquileia")
    assert g.phase == "architect-build" and P.moves(g) == ["done"]
    g.apply("done")
    assert len(P.houses(g, 1)) == 15 and P.coins(g, 1) == 8 and P.goods(g, 1) == P.gds()
    assert g.to_json()["end"] == {"concordia": "P1", "trigger_this_turn": False, "final_turns_left": 2}
    assert [row["Concordia"] for row in g.scores()] == [7, 0, 0, 0]
    assert g.decider == 2 and g.phase == "play" and not g.is_over

    g.apply("play Prefect")
    g.apply("cash")
    assert g.to_json()["end"]["final_turns_left"] == 1
    assert g.decider == 3 and not g.is_over

    g.apply("play Prefect")
    g.apply("cash")
    assert g.is_over and g.decider is None and g.legal_moves() == []
    assert [row["Concordia"] for row in g.scores()] == [7, 0, 0, 0]
    P.ok(g)


# ------------------------------------------------------------------------------------------ ruling 36


def _route(b, a, e):
    for r, (x, y, _sea, _cap) in enumerate(b.routes):
        if {b.cities[x], b.cities[y]} == {a, e}:
            return r
    raise KeyError((a, e))


def test_special_square_cannot_be_passed_through():
    """Ruling 36: FRANKINCENSE is not a city. Berenice-FRANKINCENSE -> FRANKINCENSE-Leuke Kome costs 3 steps
    (Berenice, Myos Hormos, Leuke Kome), not 1 through the square."""
    b = vocabulary.board("aegyptus")
    rr, _cr = core.board_distances(b.id)
    src = _route(b, "Berenice", "FRANKINCENSE")
    dst = _route(b, "FRANKINCENSE", "Leuke Kome")
    via = _route(b, "FRANKINCENSE", "Myos Hormos")
    assert rr[src][dst] == 3 and rr[dst][src] == 3
    assert rr[src][via] == 2
    assert rr[dst][via] == 2

    def sea_moves(sea):
        pos = aegyptus()
        pos["players"][0]["hand"].update({"Architect": 1})
        pos["players"][0]["colonists"]["sea"] = sea
        g = Game.from_json(pos)
        g.apply("play Architect")
        return g, [t for t in texts(g) if t.startswith("move sea Berenice-FRANKINCENSE >")]

    # one colonist on the board: 1 step, only the Berenice routes
    g, moves = sea_moves(["Berenice-FRANKINCENSE", "storehouse", "storehouse"])
    assert g.to_json()["turn"]["scratch"]["steps"] == 1
    assert moves == ["move sea Berenice-FRANKINCENSE > Berenice-Myos Hormos"]
    # two: still not FRANKINCENSE-Leuke Kome
    g, moves = sea_moves(["Berenice-FRANKINCENSE", "Memphis", "storehouse"])
    assert g.to_json()["turn"]["scratch"]["steps"] == 2
    assert "move sea Berenice-FRANKINCENSE > FRANKINCENSE-Leuke Kome" not in moves
    # three: reachable
    g, moves = sea_moves(["Berenice-FRANKINCENSE", "Memphis", "Memphis"])
    assert g.to_json()["turn"]["scratch"]["steps"] == 3
    assert "move sea Berenice-FRANKINCENSE > FRANKINCENSE-Leuke Kome" in moves


# ------------------------------------------------------------------------------------------ ruling 37


def test_intermediate_score_leaves_out_special_squares():
    """Ruling 37: cards only, no special squares. P1 (10 coins, a sea colonist on GOLD) plays its first Tribune
    (nothing to recover but the Tribune, no food or tool for a colonist): Vesta 10 // 10 = 1, Mars 2 * 1 colonist
    * 1 Mars card (Tribune) = 2: intermediate 3. The final table shows Squares 7 (total 10)."""
    pos = aegyptus(intermediate_scoring=True)
    me = pos["players"][0]
    me["coins"] = 10
    me["colonists"]["sea"] = ["GOLD", "storehouse", "storehouse"]
    g = Game.from_json(pos)
    assert g.to_json()["options"]["intermediate_scoring"] is True
    row = g.scores()[0]
    assert (row["Vesta"], row["Mars"], row["Squares"], row["Concordia"], row["total"]) == (1, 2, 7, 0, 10)
    g.apply("play Tribune")
    assert g.decider == 1 and g.phase == "play"
    assert seat(g, 0)["intermediate_vp"] == 3
    assert seat(g, 0)["coins"] == 10
    assert g.to_json()["intermediate_paid"] is False
    assert g.state.invariant_errors() == []


# ------------------------------------------------------------------------------------------ reading E2


def test_forced_move_after_a_copied_architect():
    """E2: an Architect copied through a Diplomat is the copier's Architect: at its end the copier's sea colonist
    on GOLD-Meroe moves onto GOLD (7 VP). The card owner's colonist on a line to FRANKINCENSE stays."""
    pos = aegyptus()
    me = pos["players"][0]
    me["colonists"]["sea"] = ["Napata-Meroe", "storehouse", "storehouse"]
    other = pos["players"][1]
    other["hand"]["Architect"] -= 1
    other["discard"] = {"Architect": 1}
    other["top"] = "Architect"
    other["colonists"]["sea"] = ["Berenice-FRANKINCENSE", "storehouse", "storehouse"]
    g = Game.from_json(pos)
    g.apply("play Diplomat")
    assert texts(g) == ["copy Architect", "done"]
    g.apply("copy Architect")
    assert g.phase == "architect-move" and g.decider == 0
    assert g.to_json()["turn"]["scratch"]["steps"] == 1
    g.apply("move sea Napata-Meroe > GOLD-Meroe")
    assert seat(g, 0)["colonists"]["sea"][0] == "GOLD-Meroe"
    g.apply("done")
    assert seat(g, 0)["colonists"]["sea"] == ["GOLD", "storehouse", "storehouse"]
    assert seat(g, 1)["colonists"]["sea"] == ["Berenice-FRANKINCENSE", "storehouse", "storehouse"]
    assert [row["Squares"] for row in g.scores()] == [7, 0, 0]
    assert seat(g, 0)["top"] == "Diplomat/Jupiter" and seat(g, 1)["top"] == "Architect"
    assert g.decider == 1 and g.phase == "play"
    assert g.state.invariant_errors() == []


def test_forced_move_after_a_copied_architect_unmoved_colonist():
    """E2: the forced move also takes a colonist that did not move: copy an Architect, move nothing, `done`."""
    pos = aegyptus()
    pos["players"][0]["colonists"]["sea"] = ["GOLD-Meroe", "storehouse", "storehouse"]
    other = pos["players"][2]
    other["hand"]["Architect"] -= 1
    other["discard"] = {"Architect": 1}
    other["top"] = "Architect"
    g = Game.from_json(pos)
    g.apply("play Diplomat")
    g.apply("copy Architect")
    g.apply("done")
    assert seat(g, 0)["colonists"]["sea"] == ["GOLD", "storehouse", "storehouse"]
    assert g.scores()[0]["Squares"] == 7
    assert g.state.invariant_errors() == []


def test_forced_move_of_an_unmoved_colonist():
    """E2: an own colonist already on GOLD-Meroe that does not move goes onto GOLD at the end of the Architect."""
    pos = aegyptus()
    pos["players"][0]["colonists"]["sea"] = ["GOLD-Meroe", "storehouse", "storehouse"]
    g = Game.from_json(pos)
    g.apply("play Architect")
    assert g.to_json()["turn"]["scratch"]["steps"] == 1
    g.apply("done")
    assert seat(g, 0)["colonists"]["sea"] == ["GOLD", "storehouse", "storehouse"]
    assert g.scores()[0]["Squares"] == 7
    assert g.decider == 1
    assert g.state.invariant_errors() == []


# ------------------------------------------------------------------------------------------ reading E4

KUSH = {"Meroe": "cloth", "Napata": "brick"}


def test_nile_food_with_a_full_storehouse_marker_still_moves():
    """E4: six colonists stored leave room for 6 goods; with 6 goods stored, producing in Kush (cloth bonus +
    Nile food) keeps nothing, yet the Nile marker moves Kush -> Nubia and Kush turns coin side up."""
    pos = aegyptus(cities=KUSH)
    full = dict(brick=2, food=1, tool=1, wine=1, cloth=1)
    pos["players"][0]["goods"] = dict(full)
    g = Game.from_json(pos)
    assert g.to_json()["nile_marker"] == "Kush"
    g.apply("play Prefect")
    g.apply("produce Kush")
    after = g.to_json()
    assert after["players"][0]["goods"] == full
    assert after["nile_marker"] == "Nubia"
    assert after["provinces"]["Kush"] == {"marker": "cloth", "side": "coins"}
    assert g.decider == 1 and g.phase == "play"
    assert g.state.invariant_errors() == []


def test_nile_food_with_one_free_space_is_a_keep_choice():
    """E4: with one free space, the cloth bonus and the Nile food compete: the producer chooses `keep cloth` or
    `keep food`; the marker moves Kush -> Nubia either way."""
    pos = aegyptus(cities=KUSH)
    five = dict(NO_GOODS, brick=2, tool=1, wine=1, cloth=1)
    pos["players"][0]["goods"] = dict(five)
    for keep, gained in (("food", dict(food=1)), ("cloth", dict(cloth=1))):
        g = Game.from_json(copy.deepcopy(pos))
        g.apply("play Prefect")
        g.apply("produce Kush")
        assert g.phase == "keep" and g.decider == 0
        assert texts(g) == ["keep cloth", "keep food"]
        g.apply(f"keep {keep}")
        expect = dict(five)
        for k, v in gained.items():
            expect[k] += v
        after = g.to_json()
        assert after["players"][0]["goods"] == expect
        assert after["nile_marker"] == "Nubia"
        assert g.decider == 1 and g.phase == "play"
        assert g.state.invariant_errors() == []


# ------------------------------------------------------------------------------------------ Diplomat reading


def test_same_card_on_several_piles_offered_once():
    """The same card on top of several piles is one copy target: P2 and P3 show an Architect, P4 a Senator."""
    pos = P.base(4)
    P.played(pos, 1, "Architect")
    P.played(pos, 2, "Prefect", "Architect")
    P.played(pos, 3, "Senator")
    g = P.start(pos, 0)
    g.apply("play Diplomat")
    assert g.phase == "diplomat"
    moves = [g.text(m) for m in g.legal_moves()]
    assert sorted(moves) == ["copy Architect", "copy Senator", "done"]
    assert len(moves) == 3
    # also with every other pile showing the same card
    pos = P.base(4)
    for i in (1, 2, 3):
        P.played(pos, i, "Mercator/3")
    g = P.start(pos, 0)
    g.apply("play Diplomat")
    assert sorted(g.text(m) for m in g.legal_moves()) == ["copy Mercator/3", "done"]
    P.ok(g)
