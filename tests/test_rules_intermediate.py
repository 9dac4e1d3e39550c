"""Intermediate scoring (rulings 24, 37): option, off by default; scored at the end of the first Tribune (after
its optional colonist), cards only; when all have been, 2 / 1 sestertii with competition ranking."""
from positions import Game, base, coins, moves, ok, played, player, set_player, start


def three(p1=None, p2=None, **kw):
    pos = base(3, intermediate_scoring=True, **kw)
    pos["players"][0]["intermediate_vp"] = p1
    pos["players"][1]["intermediate_vp"] = p2
    played(pos, 2, "Architect", "Prefect")          # P3 will recover 3 cards: no Tribune coins
    return pos


def test_off_by_default():
    g = Game.new("imperium", 3, seed=1)
    assert g.to_json()["options"]["intermediate_scoring"] is False
    g.apply("play Tribune")
    if g.phase == "tribune":
        g.apply("done")
    assert player(g, 0)["intermediate_vp"] is None
    assert coins(g, 0) == 5
    ok(g)


def test_scored_at_first_tribune_without_colonist():
    pos = three(None, None)
    g = start(pos, 2)
    g.apply("play Tribune")
    assert player(g, 2)["intermediate_vp"] is None    # not before the colonist decision
    g.apply("done")
    # 7 coins + 29 goods -> Vesta 3; Mars 2 colonists * 2 = 4
    assert player(g, 2)["intermediate_vp"] == 7
    assert [coins(g, i) for i in range(3)] == [5, 6, 7]   # not everybody has been scored: nothing paid
    assert g.to_json()["intermediate_paid"] is False
    ok(g)


def test_scored_after_the_optional_colonist():
    pos = three(None, None)
    g = start(pos, 2)
    g.apply("play Tribune")
    g.apply("colonist land")
    # 7 coins + 20 goods -> Vesta 2; Mars 3 colonists * 2 = 6
    assert player(g, 2)["intermediate_vp"] == 8
    ok(g)


def test_payout_tie_for_first():
    pos = three(8, 8)
    g = start(pos, 2)
    g.apply("play Tribune")
    g.apply("done")                                  # P3: 7
    assert [coins(g, i) for i in range(3)] == [5 + 2, 6 + 2, 7 + 0]
    assert g.to_json()["intermediate_paid"] is True
    ok(g)


def test_payout_first_and_second():
    pos = three(9, 7)
    g = start(pos, 2)
    g.apply("play Tribune")
    g.apply("colonist sea")                          # P3: 8
    assert [coins(g, i) for i in range(3)] == [5 + 2, 6 + 0, 7 + 1]
    ok(g)


def test_payout_tie_for_second():
    pos = three(9, 7)
    g = start(pos, 2)
    g.apply("play Tribune")
    g.apply("done")                                  # P3: 7, tied with P2 for second
    assert [coins(g, i) for i in range(3)] == [5 + 2, 6 + 1, 7 + 1]
    ok(g)


def test_payout_three_way_tie():
    pos = three(8, 8)
    g = start(pos, 2)
    g.apply("play Tribune")
    g.apply("colonist land")                         # P3: 8
    assert [coins(g, i) for i in range(3)] == [5 + 2, 6 + 2, 7 + 2]
    ok(g)


def test_cards_only_no_concordia():
    pos = three(8, 8)
    pos["end"] = {"concordia": "P3", "trigger_this_turn": False, "final_turns_left": 2}
    g = start(pos, 2)
    g.apply("play Tribune")
    g.apply("done")
    assert player(g, 2)["intermediate_vp"] == 7
    assert [coins(g, i) for i in range(3)] == [7, 8, 7]
    ok(g)


def test_tribune_coins_count_in_the_score():
    # P3 recovers 5 cards (Tribune included): +2 coins -> 9 + 29 = 38 -> Vesta 3
    pos = base(3, intermediate_scoring=True)
    played(pos, 2, "Architect", "Prefect", "Prefect", "Mercator/3")
    set_player(pos, 2, coins=9)                      # 11 + 29 = 40 -> Vesta 4
    g = start(pos, 2)
    g.apply("play Tribune")
    g.apply("done")
    assert coins(g, 2) == 11
    assert player(g, 2)["intermediate_vp"] == 8
    ok(g)


def test_second_tribune_does_not_score_again():
    pos = three(8, 8)
    pos["players"][2]["intermediate_vp"] = 5
    pos["intermediate_paid"] = True
    set_player(pos, 2, coins=40)
    g = start(pos, 2)
    g.apply("play Tribune")
    g.apply("done")
    assert player(g, 2)["intermediate_vp"] == 5
    assert [coins(g, i) for i in range(3)] == [5, 6, 40]
    ok(g)


def test_nothing_paid_if_the_game_ends_first():
    pos = three(8, 8)
    pos["players"][2]["intermediate_vp"] = None
    pos["display"] = ["Colonist/I"] + [None] * 6
    pos["unseen"] = {}
    pos["stack_order"] = []
    played(pos, 2, "Architect")
    g = start(pos, 0)
    g.apply("play Senator")
    g.apply("buy Colonist/I")
    if g.phase == "senator":
        g.apply("done")
    assert g.to_json()["end"]["concordia"] == "P1"
    g.apply("play Mercator/3")                       # P2's last turn
    g.apply("done")
    g.apply("play Mercator/3")                       # P3's last turn: no Tribune
    g.apply("done")
    assert g.is_over
    assert [coins(g, i) for i in range(3)] == [5, 9, 10]
    assert g.to_json()["intermediate_paid"] is False
    ok(g)


def test_two_players_scored_in_turn_order():
    pos = base(2, intermediate_scoring=True)
    played(pos, 0, "Architect", "Prefect")
    played(pos, 1, "Architect", "Prefect")
    g = start(pos, 0)
    g.apply("play Tribune")
    g.apply("colonist land")                         # P1: 5 + 20 -> 2, Mars 6 -> 8
    assert player(g, 0)["intermediate_vp"] == 8
    assert coins(g, 0) == 5
    g.apply("play Tribune")
    g.apply("done")                                  # P2: 6 + 29 -> 3, Mars 4 -> 7
    assert player(g, 1)["intermediate_vp"] == 7
    assert [coins(g, i) for i in range(2)] == [5 + 2, 6 + 1]
    assert moves(g)
    ok(g)
