"""Mercator (ruling 13): coins first (3 starting / 5 bought), then at most two kinds of goods, each kind either
bought or sold; sales may pay for purchases; prices 3 4 5 6 7; purchases must fit in the storehouse."""
import pytest

from positions import GOODS, PRICE, base, coins, goods, moves, ok, player, set_player, start

ALL_PLACED = dict(land=["Roma", "Roma", "Roma"], sea=["Roma", "Roma", "Roma"])   # no colonist in the storehouse


def mercator_game(card="Mercator/3", money=0, stock=None, placed=True):
    pos = base(3)
    hand = {"Tribune": 1, "Architect": 1, "Prefect": 2, "Diplomat/Jupiter": 1, "Senator": 1, card: 1}
    kw = dict(ALL_PLACED) if placed else {}
    set_player(pos, 0, coins=money, goods=stock if stock is not None else {}, hand=hand, discard={}, top=None, **kw)
    return start(pos, 0)


@pytest.mark.parametrize("card,gain", [("Mercator/3", 3), ("Mercator/5", 5)])
def test_coins_come_first(card, gain):
    g = mercator_game(card, money=4)
    g.apply(f"play {card}")
    assert g.phase == "mercator"
    assert coins(g, 0) == 4 + gain
    g.apply("done")
    assert coins(g, 0) == 4 + gain
    assert g.decider == 1 and g.phase == "play"
    assert player(g, 0)["top"] == card
    ok(g)


@pytest.mark.parametrize("good", GOODS)
def test_sell_price(good):
    g = mercator_game(money=0, stock={good: 2})
    g.apply("play Mercator/3")
    g.apply(f"sell 2 {good}")
    assert coins(g, 0) == 3 + 2 * PRICE[good]
    assert goods(g, 0)[good] == 0
    ok(g)


@pytest.mark.parametrize("good", GOODS)
def test_buy_price_and_coin_limit(good):
    # exactly enough coins for 2 units after the +3
    g = mercator_game(money=2 * PRICE[good] - 3, stock={})
    g.apply("play Mercator/3")
    t = moves(g)
    assert f"buy 2 {good}" in t
    assert f"buy 3 {good}" not in t
    g.apply(f"buy 2 {good}")
    assert coins(g, 0) == 0
    assert goods(g, 0)[good] == 2
    ok(g)


def test_two_kinds_at_most_then_done_only():
    g = mercator_game(money=0, stock=dict(brick=1, food=1, tool=1, wine=1, cloth=1))
    g.apply("play Mercator/3")
    # two sales of different kinds (the engine takes them in increasing good order: same outcomes)
    g.apply("sell 1 wine")
    g.apply("sell 1 cloth")
    assert moves(g) == ["done"]
    assert coins(g, 0) == 3 + 7 + 6
    assert goods(g, 0) == dict(brick=1, food=1, tool=1, wine=0, cloth=0)
    g.apply("done")
    assert g.decider == 1
    ok(g)


def test_sell_one_buy_another():
    g = mercator_game(money=0, stock=dict(cloth=2))
    g.apply("play Mercator/3")
    g.apply("sell 2 cloth")                # 3 + 14 = 17
    g.apply("buy 2 wine")                  # 17 - 12 = 5
    assert coins(g, 0) == 5
    assert goods(g, 0) == dict(brick=0, food=0, tool=0, wine=2, cloth=0)
    assert moves(g) == ["done"]
    ok(g)


def test_buy_two_kinds():
    g = mercator_game(money=10, stock={})
    g.apply("play Mercator/3")             # 13
    g.apply("buy 1 brick")                 # 10
    assert "buy 2 brick" not in moves(g) and "buy 1 brick" not in moves(g)
    g.apply("buy 2 food")                  # 2
    assert coins(g, 0) == 2
    assert goods(g, 0) == dict(brick=1, food=2, tool=0, wine=0, cloth=0)
    assert moves(g) == ["done"]
    ok(g)


def test_a_kind_is_traded_once_and_never_both_ways():
    g = mercator_game(money=50, stock=dict(food=3, tool=1))
    g.apply("play Mercator/3")
    g.apply("sell 1 food")
    t = moves(g)
    assert not any(x.endswith(" food") for x in t), t       # neither more food sold nor food bought
    assert "sell 1 tool" in t
    ok(g)


def test_bought_kind_cannot_be_sold():
    g = mercator_game(money=50, stock=dict(food=3, tool=1))
    g.apply("play Mercator/3")
    g.apply("buy 1 tool")
    t = moves(g)
    assert not any(x.startswith("sell") for x in t), t      # sales come first
    assert not any(x.endswith(" tool") for x in t), t
    ok(g)


def test_cannot_sell_more_than_owned():
    g = mercator_game(money=0, stock=dict(wine=2))
    g.apply("play Mercator/3")
    t = moves(g)
    assert "sell 2 wine" in t and "sell 3 wine" not in t
    assert not any(x.startswith("sell") and not x.endswith("wine") for x in t)


def test_sales_pay_for_purchases():
    # 0 coins: only the +3 and the sale can pay for the cloth
    g = mercator_game(money=0, stock=dict(wine=3))
    g.apply("play Mercator/3")
    assert "buy 1 cloth" not in moves(g)                   # 3 coins < 7
    g.apply("sell 3 wine")                                  # 3 + 18 = 21
    t = moves(g)
    assert "buy 3 cloth" in t and "buy 4 cloth" not in t
    g.apply("buy 3 cloth")
    assert coins(g, 0) == 0
    assert goods(g, 0)["cloth"] == 3 and goods(g, 0)["wine"] == 0
    ok(g)


def test_purchases_fit_in_storehouse_with_stored_colonists():
    # 4 colonists stored + 7 goods = 11 of 12 spaces: one free space
    g = mercator_game(money=100, stock=dict(brick=3, food=4), placed=False)
    g.apply("play Mercator/3")
    t = moves(g)
    assert "buy 1 tool" in t and "buy 2 tool" not in t
    g.apply("sell 2 brick")                                 # frees 2: three free spaces
    t = moves(g)
    assert "buy 3 cloth" in t and "buy 4 cloth" not in t
    g.apply("buy 3 cloth")
    assert coins(g, 0) == 100 + 3 + 6 - 21
    assert goods(g, 0) == dict(brick=1, food=4, tool=0, wine=0, cloth=3)
    ok(g)


def test_full_storehouse_buys_nothing():
    g = mercator_game(money=100, stock=dict(brick=4, food=4), placed=False)   # 4 + 8 = 12
    g.apply("play Mercator/3")
    assert not any(x.startswith("buy") for x in moves(g))
    ok(g)


def test_storehouse_space_with_all_colonists_placed():
    g = mercator_game(money=100, stock=dict(cloth=2), placed=True)            # 10 free spaces
    g.apply("play Mercator/3")
    t = moves(g)
    assert "buy 10 brick" in t and "buy 11 brick" not in t
    ok(g)


def test_diplomat_copying_starting_mercator_gives_3():
    pos = base(3)
    set_player(pos, 1, hand={"Tribune": 1, "Architect": 1, "Prefect": 2, "Diplomat/Jupiter": 1, "Senator": 1},
               discard={"Mercator/3": 1}, top="Mercator/3")
    set_player(pos, 0, coins=1)
    g = start(pos, 0)
    g.apply("play Diplomat")
    g.apply("copy Mercator/3")
    assert coins(g, 0) == 4
    ok(g)
