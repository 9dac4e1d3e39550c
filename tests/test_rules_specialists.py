"""Specialists (ruling 17): each own house in a city of the specialist's good produces one unit; no province
bonus, no Praefectus Magnus, other players get nothing; on overflow the player keeps what fits."""
import pytest

from positions import GOODS, START_HAND, base, goods, moves, ok, player, set_cities, set_player, start

SPECIALIST = {"Mason": "brick", "Farmer": "food", "Smith": "tool", "Vintner": "wine", "Weaver": "cloth"}
# three cities of Gallia / Hispania / Germania / Italia whose goods the tests set
CITIES = ["Lutetia", "Massilia", "Olisipo", "Valentia", "Vindobona", "Novaria"]


def specialist_game(card, good, own_same=2, other_good="brick" , stock=None, placed=True, pm="P1"):
    """P1 owns `own_same` houses in `good` cities plus one in an `other_good` city; P2 owns a house in a
    `good` city too."""
    pos = base(3)
    other = other_good if other_good != good else "food"
    cities = {CITIES[i]: good for i in range(own_same)}
    cities[CITIES[4]] = other
    cities[CITIES[5]] = good                     # P2's
    set_cities(pos, cities, markers=False)
    for name in pos["provinces"]:
        pos["provinces"][name]["side"] = "goods"
    pos["praefectus_magnus"] = pm
    hand = dict(START_HAND)
    hand[card] = 1
    kw = dict(land=["Roma"] * 3, sea=["Roma"] * 3) if placed else {}
    set_player(pos, 0, houses=[CITIES[i] for i in range(own_same)] + [CITIES[4]],
               goods=stock if stock is not None else {}, hand=hand, discard={}, top=None, **kw)
    set_player(pos, 1, houses=[CITIES[5]], goods={})
    return start(pos, 0), pos


@pytest.mark.parametrize("card", list(SPECIALIST))
def test_each_own_house_of_the_good_produces_one(card):
    good = SPECIALIST[card]
    g, pos = specialist_game(card, good, own_same=2)
    g.apply(f"play {card}")
    # the action ends by itself
    assert g.phase == "play" and g.decider == 1
    expect = {x: 0 for x in GOODS}
    expect[good] = 2
    assert goods(g, 0) == expect
    # no other player gets anything
    assert goods(g, 1) == {x: 0 for x in GOODS}
    # no province bonus: markers untouched; the PM stays
    assert g.to_json()["provinces"] == pos["provinces"]
    assert g.to_json()["praefectus_magnus"] == "P1"
    assert player(g, 0)["top"] == card
    ok(g)


@pytest.mark.parametrize("n", [0, 1, 3])
def test_count_of_houses(n):
    g, _ = specialist_game("Vintner", "wine", own_same=n)
    g.apply("play Vintner")
    assert goods(g, 0)["wine"] == n
    assert sum(goods(g, 0).values()) == n
    ok(g)


def test_overflow_takes_what_fits():
    # 4 stored colonists + 7 goods = 11: one free space, three wine houses
    g, _ = specialist_game("Vintner", "wine", own_same=3, stock=dict(brick=3, food=4), placed=False)
    g.apply("play Vintner")
    assert g.phase == "play" and g.decider == 1          # forced: no keep decision
    assert goods(g, 0) == dict(brick=3, food=4, tool=0, wine=1, cloth=0)
    ok(g)


def test_full_storehouse_takes_nothing():
    g, _ = specialist_game("Weaver", "cloth", own_same=2, stock=dict(brick=4, food=4), placed=False)
    g.apply("play Weaver")
    assert goods(g, 0) == dict(brick=4, food=4, tool=0, wine=0, cloth=0)
    assert g.decider == 1
    ok(g)


def test_houses_of_other_goods_do_not_produce():
    g, _ = specialist_game("Mason", "brick", own_same=1, other_good="cloth")
    g.apply("play Mason")
    assert goods(g, 0) == dict(brick=1, food=0, tool=0, wine=0, cloth=0)
    ok(g)


def test_specialist_not_offered_without_card():
    g, _ = specialist_game("Mason", "brick")
    assert "play Mason" in moves(g) and "play Weaver" not in moves(g)
