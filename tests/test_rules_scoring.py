"""Final scoring (rulings 22, 23): each god's score times the player's cards of that god (hand + discard)."""
import pytest

from positions import START_HAND, base, ok, played, set_cities, set_player, start

CITIES = {"Lutetia": "cloth", "Massilia": "tool", "Burdigala": "food", "Olisipo": "brick", "Novaria": "tool"}


def scored(pos, player=0):
    g = start(pos, player)
    ok(g)
    return g, g.scores()


def test_start_hand_scores():
    # P1: 5 coins + goods 3+8+5+6+7 = 34 -> Vesta 3 (Senator); Mars 2 colonists * 2 (Tribune) = 4
    g = start(base(3), 0)
    s = g.scores()
    assert s[0] == dict(Vesta=3, Jupiter=0, Saturnus=0, Mercurius=0, Mars=4, Minerva=0, Concordia=0, Squares=0,
                        total=7)
    assert [x["total"] for x in s] == [7, 7, 7]


def test_full_example():
    pos = base(3)
    set_cities(pos, CITIES, markers=False)
    set_player(pos, 0, coins=19, goods=dict(brick=1),
               houses=["Lutetia", "Massilia", "Olisipo", "Novaria"],
               land=["Roma", "Lutetia", "Massilia"], sea=["Roma"],
               hand={"Tribune": 1, "Architect": 1, "Prefect": 2, "Mercator/3": 1, "Diplomat/Jupiter": 1,
                     "Weaver": 1, "Smith": 1, "Senator": 1},
               discard={"Mercator/5": 1, "Colonist": 1, "Diplomat/Saturnus": 1, "Consul": 1}, top="Consul")
    pos["end"] = {"concordia": "P1", "trigger_this_turn": False, "final_turns_left": 0}
    g, s = scored(pos)
    assert s[0] == dict(
        Vesta=2,            # (19 + 3) // 10 = 2, one Senator
        Jupiter=9,          # 3 houses in non-brick cities * (Architect, Diplomat/Jupiter, Consul)
        Saturnus=9,         # Gallia, Hispania, Italia * (2 Prefect, Diplomat/Saturnus)
        Mercurius=12,       # cloth, tool, brick: 6 * (Mercator/3, Mercator/5)
        Mars=16,            # 4 colonists on the board: 8 * (Tribune, Colonist)
        Minerva=11,         # Weaver 5 * 1 cloth house + Smith 3 * 2 tool houses
        Concordia=7, Squares=0, total=66)
    assert s[1]["Concordia"] == 0


def test_vesta_counts_goods_at_prices_and_rounds_down():
    pos = base(3)
    set_player(pos, 0, coins=19, goods=dict(brick=1))                    # 22 -> 2
    set_player(pos, 1, coins=9, goods={})                                # 9 -> 0
    set_player(pos, 2, coins=0, goods=dict(food=1, tool=1, wine=1, cloth=1, brick=1))   # 25 -> 2
    _, s = scored(pos)
    assert [x["Vesta"] for x in s] == [2, 0, 2]
    pos2 = base(3)
    set_player(pos2, 0, coins=6, goods=dict(food=1))                     # exactly 10 -> 1
    set_player(pos2, 1, coins=19, goods=dict(brick=1),
               hand=dict(START_HAND), discard={}, top=None)              # one Senator
    _, s = scored(pos2)
    assert s[0]["Vesta"] == 1 and s[1]["Vesta"] == 2


def test_jupiter_ignores_brick_cities():
    pos = base(3)
    set_cities(pos, {"Olisipo": "brick", "Vindobona": "brick", "Lutetia": "cloth"}, markers=False)
    set_player(pos, 0, houses=["Olisipo", "Vindobona", "Lutetia"])
    _, s = scored(pos)
    assert s[0]["Jupiter"] == 2      # 1 non-brick house * (Architect + Diplomat/Jupiter)


def test_saturnus_counts_provinces_once():
    pos = base(3)
    set_cities(pos, CITIES, markers=False)
    set_player(pos, 0, houses=["Lutetia", "Massilia", "Burdigala", "Novaria"])   # Gallia x3, Italia
    _, s = scored(pos)
    assert s[0]["Saturnus"] == 4     # 2 provinces * 2 Prefects


def test_mercurius_counts_kinds():
    pos = base(3)
    set_cities(pos, CITIES, markers=False)
    set_player(pos, 0, houses=["Massilia", "Novaria", "Burdigala"])     # tool, tool, food
    _, s = scored(pos)
    assert s[0]["Mercurius"] == 4    # 2 kinds * 2 * one Mercator


def test_mars_counts_colonists_on_board_including_routes():
    pos = base(3)
    g0 = start(pos, 0)
    # a land route from Roma: take it from the legal Architect moves
    g0.apply("play Architect")
    route = next(t.split(" > ")[1] for t in [g0.text(m) for m in g0.legal_moves()]
                 if t.startswith("move land Roma > "))
    set_player(pos, 0, land=[route, "Roma", "Roma"], sea=["Roma"],
               hand={**START_HAND, "Colonist": 1})
    _, s = scored(pos)
    assert s[0]["Mars"] == 16        # 4 colonists * 2 * (Tribune, Colonist)


@pytest.mark.parametrize("card,good,vp", [("Mason", "brick", 3), ("Farmer", "food", 3), ("Smith", "tool", 3),
                                          ("Vintner", "wine", 4), ("Weaver", "cloth", 5)])
def test_minerva_values(card, good, vp):
    pos = base(3)
    set_cities(pos, {"Lutetia": good, "Massilia": good, "Olisipo": "food" if good != "food" else "tool"},
               markers=False)
    set_player(pos, 0, houses=["Lutetia", "Massilia", "Olisipo"], hand={**START_HAND, card: 1})
    _, s = scored(pos)
    assert s[0]["Minerva"] == 2 * vp


def test_cards_in_discard_count():
    pos = base(3)
    set_cities(pos, CITIES, markers=False)
    played(pos, 0, "Prefect", "Prefect", "Architect")
    set_player(pos, 0, houses=["Lutetia", "Olisipo"])
    _, s = scored(pos)
    assert s[0]["Saturnus"] == 4 and s[0]["Jupiter"] == 2


def test_total_is_the_sum():
    pos = base(3)
    set_cities(pos, CITIES, markers=False)
    set_player(pos, 1, coins=31, houses=["Lutetia", "Novaria", "Olisipo"], land=["Roma", "Lutetia"],
               hand={**START_HAND, "Weaver": 1, "Mercator/5": 1})
    _, s = scored(pos)
    row = s[1]
    assert row["total"] == sum(v for k, v in row.items() if k != "total")
    # Vesta (31+29)//10=6; Jupiter 2*2; Saturnus 3*2; Mercurius 3*2*2; Mars 3 colonists*2; Minerva 5
    assert (row["Vesta"], row["Jupiter"], row["Saturnus"], row["Mercurius"], row["Mars"], row["Minerva"]) == \
        (6, 4, 6, 12, 6, 5)
    assert row["total"] == 39


def test_tie_pm_holder_wins():
    pos = base(4)                # all four start with 7 VP
    pos["praefectus_magnus"] = "P2"
    g = start(pos, 0)
    assert [x["total"] for x in g.scores()] == [7, 7, 7, 7]
    # the PM passes to the right (previous seat): P2, then P1, then P4, then P3
    assert g.ranking() == [1, 0, 3, 2]


def test_tie_break_after_the_holder():
    pos = base(4)
    pos["praefectus_magnus"] = "P2"
    set_player(pos, 1, coins=0, goods={})    # the holder drops out of the tie: Vesta 0
    set_player(pos, 2, coins=20)             # P3 strictly best: Vesta 4
    g = start(pos, 0)
    assert [x["total"] for x in g.scores()] == [7, 4, 8, 7]
    assert g.ranking() == [2, 0, 3, 1]


def test_tie_break_wraps_around():
    pos = base(3)
    pos["praefectus_magnus"] = "P1"
    set_player(pos, 0, coins=0, goods={})
    g = start(pos, 0)
    # P2 and P3 tied at 7; from P1 the PM goes to P3 first
    assert [x["total"] for x in g.scores()] == [4, 7, 7]
    assert g.ranking() == [2, 1, 0]
