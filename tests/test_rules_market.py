"""Senator and Consul (rulings 2, 15, 16, 18, 21, 26): prices, surcharges by display position (standard and
wine variant), display shift and refill after the purchases, external chance reveals, the end trigger."""
import pytest

from positions import CHANCE, GOODS, START_HAND, base, goods, moves, ok, player, set_player, start

DISPLAY = ["Colonist/I", "Mason/I", "Architect/I", "Prefect/I", "Mercator/I", "Diplomat/I", "Farmer/I"]
# card costs: Colonist food, Mason food, Architect tool, Prefect wine, Mercator wine, Diplomat/I tool,
# Farmer brick+food
COST = [dict(food=1), dict(food=1), dict(tool=1), dict(wine=1), dict(wine=1), dict(tool=1), dict(brick=1, food=1)]
STANDARD = [{}, {"any": 1}, {"any": 1}, dict(cloth=1), dict(cloth=1), {"any": 1, "cloth": 1}, dict(cloth=2)]
WINE = [{}, {"any": 1}, {"any": 1}, dict(wine=1), dict(cloth=1), {"any": 1, "wine": 1}, dict(wine=1, cloth=1)]
KIND = ["Colonist", "Mason", "Architect", "Prefect", "Mercator/5", "Diplomat/Saturnus", "Farmer"]   # in hand
RICH = dict(brick=2, food=2, tool=2, wine=3, cloth=3)          # 12 goods: all colonists on the board
STACK = ["Smith/I", "Colonist/II", "Prefect/II", "Weaver/II", "Vintner/II", "Architect/II", "Consul/II",
         "Mercator/II"]


def market_game(stock=None, hand_extra=None, wine_variant=False, display=None, stack=None, chance="sample"):
    pos = base(2, wine_variant=wine_variant)
    pos["display"] = list(display or DISPLAY)
    order = list(STACK if stack is None else stack)
    pos["unseen"] = {}
    for label in order:
        name, numeral = label.split("/")
        pos["unseen"].setdefault(numeral, []).append(name)
    pos["stack_order"] = order if chance == "sample" else None
    pos["chance"] = chance
    hand = {"Tribune": 1, "Architect": 1, "Prefect": 2, "Mercator/3": 1, "Diplomat/Jupiter": 1, "Senator": 1}
    hand.update(hand_extra or {})
    set_player(pos, 0, goods=stock if stock is not None else RICH, hand=hand, discard={}, top=None,
               land=["Roma"] * 3, sea=["Roma"] * 3)
    return start(pos, 0)


def minus(stock, *parts):
    out = {g: stock.get(g, 0) for g in GOODS}
    for part in parts:
        for g, n in part.items():
            out[g] -= n
    return out


def surcharge(s, paying):
    out = {k: v for k, v in s.items() if k != "any"}
    if s.get("any"):
        out[paying] = out.get(paying, 0) + s["any"]
    return out


@pytest.mark.parametrize("variant,table", [(False, STANDARD), (True, WINE)], ids=["standard", "wine"])
@pytest.mark.parametrize("slot", range(7))
def test_senator_price_by_position(variant, table, slot):
    g = market_game(wine_variant=variant)
    g.apply("play Senator")
    label = DISPLAY[slot]
    if table[slot].get("any"):
        # 'any' is the buyer's choice: every good offered
        offered = {t for t in moves(g) if t.startswith(f"buy {label} paying ")}
        assert offered == {f"buy {label} paying {x}" for x in GOODS}
        assert f"buy {label}" not in moves(g)
        paying = "brick"
        g.apply(f"buy {label} paying {paying}")
    else:
        assert not any(t.startswith(f"buy {label} paying") for t in moves(g))
        paying = None
        g.apply(f"buy {label}")
    assert goods(g, 0) == minus(RICH, COST[slot], surcharge(table[slot], paying))
    assert player(g, 0)["hand"].get(KIND[slot], 0) == START_HAND.get(KIND[slot], 0) + 1
    ok(g)


def test_surcharge_must_be_payable():
    # Prefect/I (wine) at position 4 needs wine + cloth: without cloth it is not offered
    g = market_game(stock=dict(brick=1, food=1, tool=1, wine=2))
    g.apply("play Senator")
    t = moves(g)
    assert not any("Prefect/I" in x for x in t)
    assert "buy Colonist/I" in t
    # 'any' with only the goods of the card itself: Architect/I (tool) at position 3 cannot use tool twice
    assert "buy Architect/I paying tool" not in t
    assert "buy Architect/I paying wine" in t


def test_second_purchase_priced_on_the_starting_display():
    g = market_game()
    g.apply("play Senator")
    g.apply("buy Colonist/I")                          # position 1: food
    assert g.to_json()["display"][0] is None           # no shift between the purchases
    assert "buy Mason/I" not in moves(g)               # Mason/I still at position 2: 'any' still due
    g.apply("buy Mason/I paying tool")                 # food + tool
    assert goods(g, 0) == minus(RICH, dict(food=2, tool=1))
    ok(g)


def test_second_purchase_from_the_right_end_keeps_its_surcharge():
    g = market_game()
    g.apply("play Senator")
    g.apply("buy Prefect/I")                           # position 4: wine + cloth
    g.apply("buy Farmer/I")                            # position 7: brick + food + 2 cloth
    assert goods(g, 0) == minus(RICH, dict(wine=1, cloth=3, brick=1, food=1))
    ok(g)


def test_display_closes_gaps_and_refills_after_purchases():
    g = market_game()
    g.apply("play Senator")
    g.apply("buy Mason/I paying brick")                # position 2
    g.apply("buy Mercator/I")                          # position 5
    assert g.phase == "play" and g.decider == 1        # the Senator ends after its 2nd purchase
    d = g.to_json()["display"]
    assert d == ["Colonist/I", "Architect/I", "Prefect/I", "Diplomat/I", "Farmer/I", "Smith/I", "Colonist/II"]
    assert g.to_json()["stack_order"] == STACK[2:]
    assert player(g, 0)["hand"]["Mason"] == 1 and player(g, 0)["hand"]["Mercator/5"] == 1
    ok(g)


def test_senator_one_purchase_then_done():
    g = market_game()
    g.apply("play Senator")
    g.apply("buy Farmer/I")
    g.apply("done")
    assert g.to_json()["display"] == DISPLAY[:6] + ["Smith/I"]
    assert goods(g, 0) == minus(RICH, dict(brick=1, food=1, cloth=2))
    ok(g)


def test_senator_buys_at_most_two():
    g = market_game()
    g.apply("play Senator")
    g.apply("buy Colonist/I")
    g.apply("buy Mason/I paying tool")
    assert g.decider == 1
    assert player(g, 0)["hand"]["Colonist"] == 1 and player(g, 0)["hand"]["Mason"] == 1
    ok(g)


def test_consul_pays_card_cost_only():
    g = market_game(hand_extra={"Consul": 1})
    g.apply("play Consul")
    t = moves(g)
    assert not any("paying" in x for x in t)
    assert "buy Farmer/I" in t
    g.apply("buy Farmer/I")                            # position 7: brick + food only
    assert goods(g, 0) == minus(RICH, dict(brick=1, food=1))
    assert g.phase == "play" and g.decider == 1        # Consul ends after one purchase
    assert g.to_json()["display"] == DISPLAY[:6] + ["Smith/I"]
    assert player(g, 0)["hand"]["Farmer"] == 1
    ok(g)


def test_consul_with_only_card_goods():
    # Diplomat/I costs one tool; at position 6 a Senator would add any + cloth
    g = market_game(stock=dict(tool=1), hand_extra={"Consul": 1})
    g.apply("play Consul")
    t = moves(g)
    assert "buy Diplomat/I" in t and "buy Architect/I" in t
    assert "buy Colonist/I" not in t
    g.apply("buy Diplomat/I")
    assert goods(g, 0) == minus({}, {})
    ok(g)


def test_bought_card_playable_next_turn_not_this_turn():
    g = market_game()
    g.apply("play Senator")
    g.apply("buy Colonist/I")
    assert not any(x.startswith("play") for x in moves(g))
    g.apply("done")
    assert g.decider == 1
    g.apply("play Mercator/3")
    g.apply("done")
    assert g.decider == 0
    assert "play Colonist" in moves(g)
    assert "play Senator" not in moves(g)              # the Senator is on the discard pile
    g.apply("play Colonist")
    assert g.phase == "colonist"
    ok(g)


def test_external_chance_reveals_unseen_cards_of_the_top_deck():
    stack = ["Smith/I", "Colonist/II", "Prefect/II", "Weaver/II", "Vintner/II", "Architect/II", "Consul/II",
             "Mercator/II"]
    g = market_game(stack=stack, chance="external")
    g.apply("play Senator")
    g.apply("buy Colonist/I")
    g.apply("buy Mason/I paying tool")
    assert g.decider == CHANCE
    assert moves(g) == ["reveal Smith/I"]                  # deck I before deck II
    g.apply("reveal Smith/I")
    assert g.decider == CHANCE
    deck2 = {"reveal " + x for x in stack[1:]}
    assert set(moves(g)) == deck2 and len(moves(g)) == len(deck2)
    g.apply("reveal Weaver/II")
    assert g.decider == 1 and g.phase == "play"
    assert g.to_json()["display"] == ["Architect/I", "Prefect/I", "Mercator/I", "Diplomat/I", "Farmer/I",
                                      "Smith/I", "Weaver/II"]
    assert sorted(g.to_json()["unseen"]["II"]) == sorted(x.split("/")[0] for x in stack[1:] if x != "Weaver/II")
    assert "I" not in g.to_json()["unseen"] or g.to_json()["unseen"]["I"] == []
    ok(g)


def test_external_chance_asks_for_every_refilled_card():
    # two gaps, three unseen deck I cards: both refills are chance moves among the unseen deck I cards
    stack = ["Smith/I", "Diplomat/I", "Farmer/I", "Colonist/II", "Prefect/II", "Vintner/II", "Architect/II",
             "Mercator/II"]
    display = ["Colonist/I", "Mason/I", "Architect/I", "Prefect/I", "Mercator/I", "Consul/II", "Weaver/II"]
    g = market_game(stack=stack, display=display, chance="external")
    g.apply("play Senator")
    g.apply("buy Colonist/I")
    g.apply("buy Mason/I paying tool")
    assert g.decider == CHANCE
    assert sorted(moves(g)) == ["reveal Diplomat/I", "reveal Farmer/I", "reveal Smith/I"]
    g.apply("reveal Smith/I")
    assert g.decider == CHANCE
    assert sorted(moves(g)) == ["reveal Diplomat/I", "reveal Farmer/I"]
    g.apply("reveal Farmer/I")
    assert g.decider == 1
    assert g.to_json()["display"] == ["Architect/I", "Prefect/I", "Mercator/I", "Consul/II", "Weaver/II",
                                      "Smith/I", "Farmer/I"]
    assert g.to_json()["unseen"]["I"] == ["Diplomat"]
    ok(g)


def test_external_chance_lists_all_unseen_of_deck_one():
    # a 3-player game: the unseen deck I cards are offered, never a deck II or III card
    pos = base(3)
    pos["display"] = ["Architect/I", "Prefect/I", "Mercator/I", "Diplomat/I", "Farmer/I", "Smith/I", "Consul/II"]
    pos["unseen"] = {"I": ["Colonist", "Mason"], "II": ["Architect", "Colonist", "Mercator", "Prefect", "Vintner",
                                                         "Weaver"],
                     "III": ["Architect", "Colonist", "Consul", "Diplomat", "Mercator", "Prefect"]}
    pos["stack_order"] = None
    pos["chance"] = "external"
    set_player(pos, 0, goods=RICH, land=["Roma"] * 3, sea=["Roma"] * 3)
    g = start(pos, 0)
    g.apply("play Senator")
    g.apply("buy Architect/I")
    g.apply("done")
    assert g.decider == CHANCE
    assert sorted(moves(g)) == ["reveal Colonist/I", "reveal Mason/I"]
    g.apply("reveal Mason/I")
    assert g.decider == 1
    assert g.to_json()["display"][-1] == "Mason/I"
    ok(g)


def test_buying_last_card_with_empty_stack_ends_game():
    pos = base(3)
    pos["display"] = ["Colonist/I"] + [None] * 6
    pos["unseen"] = {}
    pos["stack_order"] = []
    g = start(pos, 0)
    g.apply("play Senator")
    g.apply("buy Colonist/I")
    if g.phase == "senator":
        assert moves(g) == ["done"]
        g.apply("done")
    assert g.to_json()["end"]["concordia"] == "P1"
    assert g.scores()[0]["Concordia"] == 7
    assert g.scores()[1]["Concordia"] == 0 and g.scores()[2]["Concordia"] == 0
    assert g.decider == 1 and not g.is_over
    g.apply("play Mercator/3")
    g.apply("done")
    assert g.decider == 2 and not g.is_over
    g.apply("play Mercator/3")
    g.apply("done")
    assert g.is_over and g.decider is None
    assert g.legal_moves() == []
    s = g.scores()[0]
    # P1: Vesta 5 coins + 25 goods = 30 -> 3; Mars: Tribune + Colonist, 2 colonists -> 8; Concordia 7
    assert (s["Vesta"], s["Mars"], s["Concordia"], s["total"]) == (3, 8, 7, 18)
    ok(g)


def test_buying_not_the_last_card_does_not_end():
    pos = base(3)
    pos["display"] = ["Colonist/I", "Mason/I"] + [None] * 5
    pos["unseen"] = {}
    pos["stack_order"] = []
    g = start(pos, 0)
    g.apply("play Senator")
    g.apply("buy Colonist/I")
    g.apply("done")
    assert g.to_json()["end"]["concordia"] is None
    assert g.to_json()["display"] == ["Mason/I"] + [None] * 6
    ok(g)
