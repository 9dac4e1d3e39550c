"""Research: affordability from the rules, the force/forbid wrapper, and paired intervention games."""
import pytest

from concordia_ai.ai.bots import make_bot
from concordia_ai.engine.game import Game
from concordia_ai.lab.research import games as G
from concordia_ai.lab.research.afford import affordable_cards, routes
from concordia_ai.lab.research.policy import FORBID, FORCE, Intervention

DISPLAY = ["Architect/I", "Prefect/I", "Mercator/I", "Colonist/I", "Diplomat/I", "Mason/I", "Farmer/I"]
IDS = {"Architect/I": 0, "Colonist/I": 3, "Diplomat/I": 4, "Mason/I": 5}


def kind(label):
    return next(k for k in G.market_kinds() if G.kind_label(k) == label)


def table(goods, hand_change=None, opponent_top=None):
    """Imperium, 2 players, the display above; P1 (to move) holds `goods`."""
    base = Game.new("imperium", 2, 3)
    cities = {c: g for c, g in base.to_json()["cities"].items()}
    g = Game.from_table("imperium", 2, cities, DISPLAY)
    pos = g.to_json()
    p1 = pos["players"][0]
    p1["goods"] = {"brick": 0, "food": 0, "tool": 0, "wine": 0, "cloth": 0, **goods}
    for card, delta in (hand_change or {}).items():
        p1["hand"][card] = p1["hand"].get(card, 0) + delta
        if not p1["hand"][card]:
            del p1["hand"][card]
    if opponent_top:
        p2 = pos["players"][1]
        p2["hand"][opponent_top] -= 1
        if not p2["hand"][opponent_top]:
            del p2["hand"][opponent_top]
        p2["discard"] = {opponent_top: 1}
        p2["top"] = opponent_top
    game = Game.from_json(pos)
    game.state.set_chance(False, False)      # reveal refills by sampling: the bots may play on
    return game


def test_affordable_follows_cost_and_position_surcharge():
    # Senator: printed cost plus the surcharge of the position (none, any, any, cloth, cloth, any+cloth, 2 cloth)
    assert affordable_cards(table({"food": 1, "tool": 1}).state) == [IDS["Architect/I"]]
    with_cloth = table({"food": 1, "tool": 1, "cloth": 1}).state
    assert affordable_cards(with_cloth) == [0, 3, 4, 5]       # Architect, Colonist, Diplomat, Mason (any = tool)
    assert [r.via for r in routes(with_cloth)] == ["Senator"]
    # no Senator, no Consul: nothing is affordable whatever the goods
    assert affordable_cards(table({"food": 2, "tool": 2, "cloth": 2}, {"Senator": -1}).state) == []


def test_affordable_through_a_diplomat_copying_a_senator():
    game = table({"tool": 1}, {"Senator": -1}, opponent_top="Senator")
    assert [r.via for r in routes(game.state)] == ["Diplomat>Senator"]
    assert affordable_cards(game.state) == [IDS["Architect/I"]]


def test_forced_seat_plays_the_senator_and_buys_the_card_then_the_bot_finishes():
    game = table({"food": 1, "tool": 1, "cloth": 1})
    bot = Intervention(make_bot("heuristic", seed=1), kind("Colonist"), FORCE)
    first = bot.choose(game)
    assert game.text(first) == "play Senator"
    game.apply(first)
    second = bot.choose(game)
    assert game.text(second) == "buy Colonist/I"
    assert bot.trigger == {"turn": 0, "round": 1}
    assert bot.forced == {"card": 3, "slot": 3, "via": "Senator", "paid": [0, 1, 0, 0, 1], "coins": 11}
    game.apply(second)
    assert bot.choose(game) in game.legal_moves()             # the bot itself finishes the turn


@pytest.mark.parametrize("spec", ["heuristic", "random", "greedy", "ismcts:iterations=40", "flatmc:iterations=40"])
def test_forbidden_seat_never_buys_the_card(spec):
    def senator_phase():
        game = table({"food": 2, "tool": 2, "cloth": 2})
        game.apply("play Senator")
        return game

    game = senator_phase()
    banned = {m for m in game.legal_moves() if game.text(m) == "buy Colonist/I"}
    assert len(banned) == 1
    if spec in ("heuristic", "greedy"):       # left alone, these bots buy the Colonist here
        assert make_bot(spec, seed=2).choose(senator_phase()) in banned
    for seed in range(3):
        bot = Intervention(make_bot(spec, seed=seed), kind("Colonist"), FORBID)
        bot._affordable = True                # the turn began with the card affordable
        game = senator_phase()
        for _ in range(2):                    # both purchases of the Senator
            move = bot.choose(game)
            assert move in game.legal_moves() and game.text(move) != "buy Colonist/I"
            if game.text(move) == "done":
                break
            game.apply(move)


@pytest.mark.parametrize("spec", ["heuristic", "random", "greedy", "ismcts:iterations=40", "flatmc:iterations=40"])
def test_forbidden_seat_never_copies_a_senator_that_could_only_buy_the_card(spec):
    # a copied Senator has no `done` before its first purchase (the Diplomat's own done is that outcome):
    # copying it here would force the purchase of the only affordable card
    def diplomat_phase():
        game = table({"tool": 1}, {"Senator": -1}, opponent_top="Senator")
        game.apply("play Diplomat")
        return game

    game = diplomat_phase()
    copy = [m for m in game.legal_moves() if game.text(m).startswith("copy Senator")]
    assert len(copy) == 1
    after = diplomat_phase()
    after.apply(copy[0])
    assert [after.text(m) for m in after.legal_moves()] == ["buy Architect/I"]
    for seed in range(3):
        bot = Intervention(make_bot(spec, seed=seed), kind("Architect"), FORBID)
        bot._affordable = True
        game = diplomat_phase()
        move = bot.choose(game)
        assert move in game.legal_moves() and move != copy[0]


def _turn_start_index(rec, turn):
    g = Game.new(rec["board"], rec["players"], rec["seed"])
    for i, m in enumerate(rec["moves"]):
        if g.state.turns == turn:
            return i
        g.state.apply(m)
    raise AssertionError("turn not reached")


def _treated_pair(cfg, treated, card):
    """Both arms of the first scheduled game in which the treated seat gets its chance at the card.
    Which game that is depends on how the bots play; in a game without the chance the arms are one game."""
    for block in range(cfg.games):
        force, forbid = (G.play_task(cfg.task(block, treated, card, arm)) for arm in ("force", "forbid"))
        assert force["seed"] == forbid["seed"] and force["seats"] == forbid["seats"]
        if force["trigger"] is not None:
            return force, forbid
        assert forbid["trigger"] is None and force["forced"] is None and force["moves"] == forbid["moves"]
    raise AssertionError(f"no game of {cfg.games} gave seat {treated} a chance at {card}")


def test_paired_arms_replay_the_same_seeds_and_differ_only_from_the_trigger():
    cfg = G.ResearchConfig.create("intervene", "heuristic", 3, "italia", seed=3, games=3, cards=["Weaver"])
    treated = 1
    force, forbid = _treated_pair(cfg, treated, "Weaver")
    weaver = kind("Weaver")
    market = G.vocabulary.rules().market
    # the first turn of the treated seat where a Weaver was affordable: the same in both arms
    first = next(t for t in force["purchases"] if t["seat"] == treated and
                 any(market[c].kind == weaver for c in t["afford"]))
    assert force["trigger"] == forbid["trigger"] == {"turn": first["t"], "round": first["round"]}
    # forced: a Weaver bought exactly in that turn
    assert any(market[c].kind == weaver for c, _, _ in first["buys"])
    assert market[force["forced"]["card"]].kind == weaver
    # forbidden: never a Weaver for the treated seat
    assert not any(market[c].kind == weaver for t in forbid["purchases"] if t["seat"] == treated
                   for c, _, _ in t["buys"])
    # identical games up to the trigger turn, different after it
    i = _turn_start_index(force, first["t"])
    assert i == _turn_start_index(forbid, first["t"]) and force["moves"][:i] == forbid["moves"][:i]
    assert force["moves"][i:] != forbid["moves"][i:]


def test_seeds_do_not_depend_on_card_or_arm():
    cfg = G.ResearchConfig.create("intervene", "heuristic", 2, "imperium", seed=9, games=2,
                                  cards=["Weaver", "Architect"])
    tasks = [cfg.task_of(k) for k in cfg.keys()]
    by_game = {}
    for t in tasks:
        by_game.setdefault((t["block"], t["rotation"]), set()).add((t["seed"], tuple(s["seed"] for s in t["seats"])))
    assert all(len(v) == 1 for v in by_game.values()) and len(tasks) == 2 * 2 * 2
    selfplay = G.ResearchConfig.create("selfplay", "heuristic", 2, "imperium", seed=9, games=2)
    assert selfplay.task(0, 1)["seats"] == cfg.task(0, 1, "Weaver", "force")["seats"]


def test_from_turn_moves_the_treatment_to_the_first_chance_from_that_turn():
    cfg = G.ResearchConfig.create("intervene", "heuristic", 3, "italia", seed=3, games=3, cards=["Architect"],
                                  from_round=6)
    force, forbid = _treated_pair(cfg, 0, "Architect")
    architect = kind("Architect")
    market = G.vocabulary.rules().market
    first = next(t for t in force["purchases"] if t["seat"] == 0 and t["round"] >= 6 and
                 any(market[c].kind == architect for c in t["afford"]))
    assert force["trigger"] == forbid["trigger"] == {"turn": first["t"], "round": first["round"]}
    assert any(market[c].kind == architect for c, _, _ in first["buys"])
    later = [t for t in forbid["purchases"] if t["seat"] == 0 and t["t"] >= first["t"]]
    assert later and not any(market[c].kind == architect for t in later for c, _, _ in t["buys"])
    i = _turn_start_index(force, first["t"])
    assert force["moves"][:i] == forbid["moves"][:i]
