"""The loader accepts only positions that play can continue from and save again (issue 11, classes 8
and 10): dead ends, values that would overflow later, names that would not read back, and broken
route capacity are refused with their JSON path; the Python entry points raise GameError only."""
import copy
import json

import pytest

from concordia_ai import core
from concordia_ai.engine.game import Game, GameError
from concordia_ai.engine.position import MAX_COINS, MAX_TURN, PositionError
from positions import base, load, moves, ok, set_player, set_turn


def start_pos(players=3):
    pos = base(players)
    set_turn(pos, 0)
    return pos


def refused(pos, path, words, strict=False):
    with pytest.raises(PositionError) as e:
        Game.from_json(copy.deepcopy(pos), strict=strict)
    assert e.value.path == path, e.value
    assert words in e.value.message, e.value.message


# ------------------------------------------------------------ dead ends

@pytest.mark.parametrize("hand, discard", [
    ({"Architect": 1, "Prefect": 2}, {}),
    ({"Architect": 1}, {"Tribune": 1, "Prefect": 1}),      # a Tribune played but not taken back: impossible
])
def test_a_player_without_a_tribune_in_hand_is_refused(hand, discard):
    # without a Tribune in hand, once the hand is played out nothing is legal: a dead end ahead
    pos = start_pos()
    set_player(pos, 1, hand=hand, discard=discard, top=next(iter(discard), None))
    refused(pos, "$.players[1].hand", "holds no Tribune")


def test_a_second_tribune_in_a_constructed_hand_is_fine():
    pos = start_pos()
    set_player(pos, 1, extra={"Tribune": 1})
    g = load(pos)
    assert g.to_json()["players"][1]["hand"]["Tribune"] == 2


# ------------------------------------------------------------ numbers with headroom

@pytest.mark.parametrize("value", [MAX_COINS + 1, 2 ** 30 - 1, 2 ** 31, 2 ** 70])
def test_coins_beyond_the_limit_are_refused(value):
    pos = start_pos()
    pos["players"][2]["coins"] = value
    refused(pos, "$.players[2].coins", f"more than {MAX_COINS}")


@pytest.mark.parametrize("value", [MAX_TURN + 1, 2 ** 30, 2 ** 31])
def test_a_turn_number_beyond_the_limit_is_refused_at_its_own_path(value):
    pos = start_pos()
    pos["turn"]["number"] = value
    refused(pos, "$.turn.number", f"more than {MAX_TURN}")


def test_a_position_at_the_limits_plays_on_and_reads_back():
    pos = start_pos()
    pos["players"][0]["coins"] = MAX_COINS - 10
    pos["turn"]["number"] = MAX_TURN - 10
    g = load(pos)
    g.apply("play Mercator")
    g.apply("done")
    again = Game.from_json(json.dumps(g.to_json()))
    assert again.to_json()["players"][0]["coins"] == MAX_COINS - 10 + 3
    assert again.to_json()["turn"]["number"] == MAX_TURN - 9


# ------------------------------------------------------------ names

@pytest.mark.parametrize("name", [" Ann", "Ann ", "\tAnn"])
def test_names_with_outer_spaces_are_refused(name):
    pos = start_pos()
    pos["players"][1]["name"] = name
    refused(pos, "$.players[1].name", "spaces at an end")


# ------------------------------------------------------------ route capacity mid-Architect

def mid_move():
    """Seat 0 has land colonists in Roma and on Novaria-Roma, and has moved the Roma one to Aquileia-Roma."""
    pos = base(3)
    set_player(pos, 0, land=["Roma", "Novaria-Roma"])
    set_turn(pos, 0)
    g = load(pos)
    g.apply("play Architect")
    # the canonical movement never puts a colonist onto a route an own colonist still holds
    assert "move land Roma > Novaria-Roma" not in moves(g)
    g.apply("move land Roma > Aquileia-Roma")
    return g


def test_a_mid_move_state_reads_back_and_the_movement_goes_on():
    g = Game.from_json(mid_move().to_json())       # a reachable state reads back
    assert g.phase == "architect-move" and g.state == mid_move().state
    assert "done" in moves(g)                       # nothing shares a route: the movement may end now
    land = [m for m in moves(g) if m.startswith("move land")]
    assert land and all(m.startswith("move land Novaria-Roma >") for m in land)   # the moved one stays
    assert "move land Novaria-Roma > Aquileia-Roma" not in land                    # never onto a held route
    g.apply("move land Novaria-Roma > Aquileia-Novaria")
    g.apply("done")
    assert sorted(g.to_json()["players"][0]["colonists"]["land"]) == ["Aquileia-Novaria", "Aquileia-Roma",
                                                                       "storehouse"]
    ok(g)


def test_the_movers_own_colonists_sharing_a_route_mid_move_are_refused():
    # not even halfway through the movement: the canonical order never leaves two on one route
    pos = mid_move().to_json()
    pos["players"][0]["colonists"]["land"][1] = "Aquileia-Roma"     # the unmoved one onto the moved one's route
    refused(pos, "$.players[0].colonists.land[1]", "Aquileia-Roma already holds a colonist of P1")


def test_another_players_colonist_on_a_full_route_mid_move_is_refused():
    pos = mid_move().to_json()
    pos["players"][1]["colonists"]["land"][0] = "Massilia-Novaria"
    pos["players"][2]["colonists"]["land"][0] = "Massilia-Novaria"
    refused(pos, "$.players[2].colonists.land[0]", "Massilia-Novaria already holds a colonist of P2")


def test_another_player_sharing_the_movers_route_mid_move_is_refused():
    pos = mid_move().to_json()
    pos["players"][1]["colonists"]["land"][0] = "Aquileia-Roma"     # where the moved colonist stands
    refused(pos, "$.players[1].colonists.land[0]", "Aquileia-Roma already holds a colonist of P1")


def test_two_moved_colonists_on_one_route_are_refused():
    pos = mid_move().to_json()
    pos["players"][0]["colonists"]["land"][1] = "Aquileia-Roma"
    pos["turn"]["scratch"]["moved"] = 0b11                          # both have moved: neither can go on
    refused(pos, "$.players[0].colonists.land[1]", "already holds a colonist of P1")


def test_the_core_itself_refuses_any_sharing_of_a_route_mid_move():
    # the core's own load check (behind the Python one) judges the same way, the mover's own included
    raw = mid_move().state.export()
    route = raw["players"][0]["colonists"][0]
    assert route >= core.ROUTE_OFFSET
    assert core.CoreState.load(raw).phase_name == "architect-move"   # as reached: accepted
    unmoved = raw["players"][0]["colonists"][1]
    raw["players"][1]["colonists"][0] = route                       # another player's colonist
    with pytest.raises(ValueError, match="holds 2 colonists"):
        core.CoreState.load(raw)
    raw["players"][1]["colonists"][0] = core.STORE
    raw["players"][0]["colonists"][1] = route                       # the mover's unmoved one: refused too
    with pytest.raises(ValueError, match="holds 2 colonists"):
        core.CoreState.load(raw)
    raw["players"][0]["colonists"][1] = unmoved
    assert core.CoreState.load(raw).phase_name == "architect-move"


# ------------------------------------------------------------ entry points raise GameError

@pytest.mark.parametrize("call, words", [
    (lambda g: g.apply(2 ** 40), "illegal move"),
    (lambda g: g.apply(-1), "illegal move"),
    (lambda g: g.apply(True), "illegal move"),
    (lambda g: g.apply(1.0), "illegal move"),
    (lambda g: g.text("x"), "not a move code"),
    (lambda g: g.text(2 ** 40), "not a move code"),
    (lambda g: g.text(None), "not a move code"),
    (lambda g: g.parse(5), "text in notation"),
])
def test_bad_moves_raise_game_error(call, words):
    g = Game.new("imperium", 2, seed=1)
    before = g.to_json()
    with pytest.raises(GameError, match=words):
        call(g)
    assert g.to_json() == before


@pytest.mark.parametrize("text, words", [
    ("{", r"not valid JSON \(line 1, column 2"),
    ("", "not valid JSON"),
    (b"\xff\xfe", "not valid JSON"),
    ("[" * 100000, "nested too deeply"),
    ("[]", "a position is a JSON object"),
    ('{"format": "concordia-position", "version": 1}', "missing"),
])
def test_bad_text_raises_game_error(text, words):
    with pytest.raises(GameError, match=words):
        Game.from_json(text)


def test_position_errors_are_game_errors_with_a_path():
    with pytest.raises(GameError) as e:
        Game.from_json({"format": "concordia-position", "version": 1, "board": "atlantis"})
    assert isinstance(e.value, PositionError) and e.value.path == "$.board"


def test_more_cards_of_a_kind_than_play_can_hold_are_refused():
    # 5 Prefects are in the market: owning 26 would let a Senator and a Tribune push the hand past 30
    pos = start_pos()
    set_player(pos, 0, hand={"Tribune": 1, "Prefect": 20}, discard={"Prefect": 6}, top="Prefect")
    refused(pos, "$.players[0].hand.Prefect", "26 Prefect cards in hand and discard; at most 25")
    set_player(pos, 0, hand={"Tribune": 1, "Prefect": 20}, discard={"Prefect": 5}, top="Prefect")
    assert load(pos).to_json()["players"][0]["discard"] == {"Prefect": 5}
