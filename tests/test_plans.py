"""Plan bots: the rule language (parsing, errors), legal complete games on every board, and on constructed
positions every rule followed exactly."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from concordia_ai.ai.bots import BotSpecError, make_bot, parse_spec, play_game
from concordia_ai.engine import vocabulary
from concordia_ai.cli import main
from concordia_ai.ai.plans import RULES, Plan, plan_from_table, shipped_plans
from concordia_ai.lab.tournament import canonical_spec

from positions import base, load, set_cities, set_player, set_turn

BOARDS = ("imperium", "italia", "creta", "aegyptus")


# ---------------------------------------------------------------- the language

def test_shipped_plans_parse_by_name():
    assert shipped_plans() == ["mars", "minerva"]
    kind, opts = parse_spec("plan:minerva")
    assert kind == "plan"
    assert opts["buy"][:2] == ["Mason", "Farmer"]
    assert opts["buy"][2] == "*" and opts["build"] == "max" and opts["colonists_toward"] == ["brick", "food"]
    kind, opts = parse_spec(" Plan:MARS ")
    assert opts["name"] == "mars" and opts["new_colonists"] == "any" and opts["buy"][0] == "Colonist"


def test_a_two_line_plan_file_is_a_bot(tmp_path):
    f = tmp_path / "mine.toml"
    f.write_text('type = "plan"\nbuy = ["mason", "FARMER"]\n')
    assert parse_spec(str(f)) == ("plan", {"buy": ["Mason", "Farmer"]})
    assert parse_spec(f"plan:{f}") == ("plan", {"buy": ["Mason", "Farmer"]})
    played = play_game([make_bot(str(f), seed=1), make_bot("heuristic", seed=2)], "italia", seed=3)
    assert played.game.is_over and not played.truncated


def test_inline_rules_and_overrides():
    assert parse_spec("plan:buy=[Mason, 'Farmer', *],build=cheap,build_max_coins=2") == \
        ("plan", {"buy": ["Mason", "Farmer", "*"], "build": "cheap", "build_max_coins": 2})
    _, opts = parse_spec("plan:minerva,build=best,buy=Consul")
    assert opts["build"] == "best" and opts["buy"] == ["Consul"] and opts["name"] == "minerva"
    assert parse_spec("plan") == ("plan", {})                     # every rule at its default
    assert parse_spec("plan:mercator_buy=[],mercator_sell=[2 wine]") == \
        ("plan", {"mercator_buy": [], "mercator_sell": ["2 wine"]})


def test_every_rule_has_a_default_and_the_defaults_make_the_default_plan():
    assert plan_from_table({}) == Plan()
    assert {r.name for r in RULES} == set(Plan.__dataclass_fields__)
    for r in RULES:
        assert r.help


def test_a_bots_spec_string_reads_back_as_the_same_plan():
    for spec in ("plan:minerva", "plan:mars", "plan:buy=[Mason],mercator_sell=[1 wine],keep=[cloth]"):
        bot = make_bot(spec, seed=1)
        assert parse_spec(repr(bot)) == parse_spec(spec)


def test_a_tournament_log_keeps_a_plan_files_rules_not_its_path(tmp_path):
    f = tmp_path / "p.toml"
    f.write_text('type = "plan"\nname = "mine"\nbuy = ["Mason", "Farmer"]\nbuild = "max"\n')
    spec = canonical_spec(str(f))
    assert "p.toml" not in spec and spec.startswith("plan:")
    assert parse_spec(spec) == parse_spec(str(f))
    table = canonical_spec({"type": "plan", "buy": ["Mason", "Farmer"], "build": "max"})
    assert parse_spec(table) == ("plan", {"buy": ["Mason", "Farmer"], "build": "max"})


@pytest.mark.parametrize("spec, words", [
    ("plan:biuld=max", "plan: unknown rule 'biuld' (did you mean 'build'?); valid rules: name, description, buy"),
    ("plan:buy=[Mason,Masonn]", "plan rule buy: unknown card or god 'Masonn' (did you mean 'Mason'?)"),
    ("plan:buy=Tribune", "plan rule buy: 'Tribune' is a starting card, never on display; valid: Architect"),
    ("plan:buy=Mercator/3", "plan rule buy: 'Mercator/3' is a starting card"),
    ("plan:play=[Architect,Archtect]", "plan rule play: unknown card 'Archtect'"),
    ("plan:tribune_when_hand_below=three", "plan rule tribune_when_hand_below: 'three' is not a whole number"),
    ("plan:build=lots", "plan rule build: 'lots' is not one of greedy, max, cheap, best"),
    ("plan:new_colonists=many", "plan rule new_colonists: 'many' is not one of greedy, any, land, sea, none"),
    ("plan:colonists_toward=[Atlantis]", "unknown good or province 'Atlantis'"),
    ("plan:keep=[gold]", "plan rule keep: unknown good 'gold'"),
    ("plan:mercator_buy=[lots of food]", "plan rule mercator_buy: 'lots of food' is not a good, 'N good'"),
    ("plan:mercator_sell=[needs]", "is not a good, 'N good' (e.g. '2 wine') or surplus"),
    ("plan:build", "plan:build: no shipped plan or .toml file of that name; shipped plans: mars, minerva"),
    ("plan:minerva,build", "plan spec: 'build' is not KEY=VALUE"),
    ("plan:name=a,b", "'b' is not KEY=VALUE"),
    ("plan:/nonexistent/x.toml", "plan file /nonexistent/x.toml"),
])
def test_bad_rules_in_a_spec_are_rejected_with_the_rule_and_what_is_valid(spec, words):
    with pytest.raises(BotSpecError) as e:
        make_bot(spec)
    assert words in str(e.value)


@pytest.mark.parametrize("text, words", [
    ('tribune_when_hand_below = "3"\n', "plan rule tribune_when_hand_below: '3' is not a whole number >= 0"),
    ('tribune_when_hand_below = -1\n', "is not a whole number >= 0"),
    ('build_max_coins = true\n', "plan rule build_max_coins: True is not a whole number"),
    ('buy = 3\n', "plan rule buy: 3 is not a list"),
    ('buy = [3]\n', "plan rule buy: 3 is not a name"),
    ('build = ["max"]\n', "plan rule build: ['max'] is not a string"),
    ('[colonists]\ntoward = "food"\n', "unknown rule 'colonists'"),
    ('name = "a, b"\n', "plan rule name: 'a, b'; use letters"),
])
def test_bad_rules_in_a_file_name_the_file_and_the_rule(tmp_path, text, words):
    f = tmp_path / "bad.toml"
    f.write_text('type = "plan"\n' + text)
    with pytest.raises(BotSpecError) as e:
        parse_spec(str(f))
    assert f"bot file {f}: " in str(e.value) and words in str(e.value)


def test_the_cli_shows_a_bad_plan_as_one_line_with_exit_2(tmp_path):
    f = tmp_path / "bad.toml"
    f.write_text('type = "plan"\nbuy = ["Mason", "Senatr"]\n')
    out = tmp_path / "t"
    r = CliRunner().invoke(main, ["tournament", "--bot", f"a={f}", "--bot", "b=heuristic", "--out", str(out)])
    assert r.exit_code == 2
    lines = r.stderr.strip().splitlines() if hasattr(r, "stderr") else r.output.strip().splitlines()
    assert len(lines) == 1 and "unknown card or god 'Senatr'" in lines[0] and "Traceback" not in r.output
    assert not out.exists()


def test_a_small_tournament_with_a_shipped_plan(tmp_path):
    out = tmp_path / "t"
    r = CliRunner().invoke(main, ["tournament", "--bot", "a=plan:minerva", "--bot", "b=greedy", "--players", "2",
                                  "--games", "2", "--jobs", "1", "--out", str(out), "-q", "--json"])
    assert r.exit_code == 0, r.output
    games = [json.loads(x) for x in (out / "games.jsonl").read_text().splitlines()]
    assert len(games) == 2 and {s["spec"] for s in games[0]["seats"]} == {"plan:minerva", "greedy"}


# ---------------------------------------------------------------- legal, finishing games

PLAN_SPECS = ("plan:minerva", "plan:mars", "plan", "plan:build=cheap,new_colonists=sea,produce=[cloth],keep=[wine]")


@pytest.mark.parametrize("board", BOARDS)
def test_plan_bots_play_legal_complete_games_on_every_board(board):
    for players in (2, 3, 4, 5):
        for game_no in range(2):
            specs = [PLAN_SPECS[(game_no + i) % len(PLAN_SPECS)] for i in range(players)]
            bots = [make_bot(s, seed=10 * game_no + i) for i, s in enumerate(specs)]
            from concordia_ai.engine.game import Game
            game = Game.new(board, players, 100 * players + game_no)
            while not game.is_over:
                legal = game.legal_moves()
                move = bots[game.decider].choose(game)
                assert move in legal, (board, players, specs[game.decider], game.text(move))
                game.state.apply(move)
                assert game.state.turns < 600, (board, players, "the plans do not finish the game")
            assert game.state.invariant_errors() == []


def test_same_seed_same_game():
    def moves(seed):
        return play_game([make_bot("plan", seed=seed), make_bot("plan:mars", seed=seed + 1)], "imperium",
                         seed=4).moves
    assert moves(1) == moves(1)


def test_a_plan_plays_a_real_table_where_revealed_cards_are_entered():
    from concordia_ai.engine.game import Game
    cities = Game.new("imperium", 3, seed=5).to_json()["cities"]
    display = ["Architect/I", "Prefect/I", "Mercator/I", "Colonist/I", "Diplomat/I", "Mason/I", "Farmer/I"]
    game = Game.from_table("imperium", 3, cities, display)
    bot = _bot("plan:minerva")
    game.apply("play Senator")
    assert _follow(game, bot, 1) == ["buy Mason/I paying brick"]  # at slot 6: any good and a cloth on top
    while game.decider != -2:                                     # the gaps wait for the cards turned up
        _follow(game, bot, 1)
    assert _follow(game, bot, 1)[0].startswith("reveal ")         # a bot asked for chance enters any card


# ---------------------------------------------------------------- constructed positions

def _position(players=3, **seat0):
    pos = base(players)
    set_player(pos, 0, **seat0)
    set_turn(pos, 0)
    return pos


def _display(pos, labels):
    """Show seven deck-I cards, left to right; the eighth goes on top of the stack."""
    deck = [m.label for m in vocabulary.rules().market if m.numeral == "I"]
    left = [c for c in deck if c not in labels]
    assert len(labels) == 7 and len(left) == 1
    pos["display"] = list(labels)
    pos["unseen"]["I"] = [left[0].split("/")[0]]
    if pos["stack_order"] is not None:
        pos["stack_order"] = left + [c for c in pos["stack_order"] if not c.endswith("/I")]
    return pos


def _bot(spec):
    return make_bot(spec, seed=3)


def _follow(game, bot, steps):
    """The bot's next `steps` moves in notation, each applied."""
    out = []
    for _ in range(steps):
        move = bot.choose(game)
        out.append(game.text(move))
        game.apply(move)
    return out


SENATOR_DISPLAY = ["Architect/I", "Colonist/I", "Prefect/I", "Mason/I", "Farmer/I", "Mercator/I", "Smith/I"]


def test_the_championship_senator_buys_mason_then_farmer():
    # Mason and Farmer sit at the dearer slots (a cloth surcharge each); Architect/I would be cheaper
    pos = _position(coins=5, goods=dict(brick=2, food=2, tool=1, cloth=3))
    _display(pos, SENATOR_DISPLAY)
    game = load(pos)
    game.apply("play Senator")
    assert _follow(game, _bot("plan:minerva"), 2) == ["buy Mason/I", "buy Farmer/I"]
    assert game.phase == "play"                     # two cards bought: the Senator is done


def test_buy_priority_skips_what_is_not_affordable_and_stops_at_the_end_of_the_list():
    pos = _position(coins=5, goods=dict(food=1, cloth=1))      # Farmer/I (slot 5) needs brick, food and cloth
    _display(pos, SENATOR_DISPLAY)
    game = load(pos)
    game.apply("play Senator")
    assert _follow(game, _bot("plan:buy=[Farmer,Mason]"), 2) == ["buy Mason/I", "done"]


def _senator_position():
    pos = _position(coins=5, goods=dict(brick=1, food=1, tool=2, cloth=1))
    _display(pos, ["Colonist/I", "Architect/I", "Prefect/I", "Smith/I", "Mason/I", "Farmer/I", "Mercator/I"])
    game = load(pos)
    game.apply("play Senator")
    return game


@pytest.mark.parametrize("entry, bought", [("Jupiter", "buy Architect/I paying brick"), ("Minerva", "buy Mason/I")])
def test_buy_entries_a_god_cheapest_first(entry, bought):
    # Architect/I at slot 2 costs a tool and any good (8 paying brick, the cheapest good); of the Minerva
    # cards Mason/I at slot 5 (food and cloth, 11) is cheaper than Smith/I at slot 4 (brick, tool, cloth: 15)
    assert _follow(_senator_position(), _bot(f"plan:buy=[{entry}]"), 1) == [bought]


def test_buy_star_hands_the_rest_to_the_greedy_evaluation():
    game = _senator_position()
    with_star = _follow(game.clone(), _bot("plan:buy=[Weaver,*]"), 2)
    greedy = _follow(game.clone(), _bot("plan"), 2)           # no buy rule: the greedy evaluation
    assert with_star == greedy


def _hand(*cards):
    return {c: 1 for c in cards}


def test_the_tribune_rule_counts_the_cards_in_hand():
    rest = {"Prefect": 2, "Mercator/3": 1, "Diplomat/Jupiter": 1, "Senator": 1}
    two = load(_position(hand=_hand("Tribune", "Architect"), discard=rest))
    three = load(_position(hand=_hand("Tribune", "Architect", "Senator"), discard={"Prefect": 2}))
    assert _follow(two, _bot("plan:tribune_when_hand_below=3"), 1) == ["play Tribune"]
    assert _follow(three.clone(), _bot("plan:tribune_when_hand_below=3,play=[Architect]"), 1) == ["play Architect"]
    assert _follow(three.clone(), _bot("plan:tribune_when_hand_below=4,play=[Architect]"), 1) == ["play Tribune"]


@pytest.mark.parametrize("rule, taken", [("sea", "colonist sea"), ("land", "colonist land"), ("none", "done")])
def test_new_colonists_from_the_tribune(rule, taken):
    pos = _position(goods=dict(food=1, tool=1), hand=_hand("Tribune", "Architect"),
                    discard={"Prefect": 2, "Senator": 1, "Mercator/3": 1, "Diplomat/Jupiter": 1})
    game = load(pos)
    game.apply("play Tribune")
    assert _follow(game, _bot(f"plan:new_colonists={rule}"), 1) == [taken]


@pytest.mark.parametrize("rule, first", [("none", "cash"), ("land", "place land Roma"), ("sea", "place sea Roma")])
def test_new_colonists_from_the_colonist_card(rule, first):
    game = load(_position(goods=dict(food=1, tool=1), extra={"Colonist": 1}))
    game.apply("play Colonist")
    assert _follow(game, _bot(f"plan:new_colonists={rule}"), 1) == [first]


def test_play_priority_takes_the_first_useful_card():
    pos = _position(coins=5, goods=dict(food=2, brick=1), land=["Roma-Syracusae"])
    _display(pos, ["Mason/I", "Colonist/I", "Prefect/I", "Architect/I", "Farmer/I", "Mercator/I", "Smith/I"])
    # the Senator is useful only if it buys: Weaver is not on display, so the Architect (which builds) is next
    assert _follow(load(pos), _bot("plan:play=[Senator,Architect],buy=[Weaver]"), 1) == ["play Architect"]
    assert _follow(load(pos), _bot("plan:play=[Senator,Architect],buy=[Mason]"), 1) == ["play Senator"]
    # the Diplomat has nothing to copy (no discard pile shows a card): not useful
    assert _follow(load(pos), _bot("plan:play=[Diplomat,Senator],buy=[Mason]"), 1) == ["play Senator"]
    # the Prefect produces (the marker of Italia): useful, so it comes first
    assert _follow(load(pos), _bot("plan:play=[Prefect,Senator],buy=[Mason]"), 1) == ["play Prefect"]


@pytest.mark.parametrize("toward, moved, built", [
    ("food", "move land Roma > Aquileia-Roma", "build Aquileia"),       # Aquileia: food
    ("brick", "move land Roma > Roma-Syracusae", "build Syracusae"),    # Syracusae: brick
    ("Italia", "move land Roma > Novaria-Roma", "build Novaria"),       # all three are in Italia; Novaria: tool
])
def test_colonists_head_for_the_wanted_goods_or_province(toward, moved, built):
    extra = ",colonists_toward=[tool]" if toward == "Italia" else ""
    game = load(_position(coins=10, goods=dict(brick=1, food=1, tool=1), land=["Roma"], sea=[]))
    game.apply("play Architect")                    # one colonist on the board: one step
    bot = _bot(f"plan:build=best,colonists_toward=[{toward}]{extra}")
    assert _follow(game, bot, 2) == [moved, built]


@pytest.mark.parametrize("rule, food, builds", [
    # the rule chooses which houses; the core takes a turn's builds in city order (Aquileia first)
    ("build=max", 2, ["build Aquileia", "build Syracusae"]),                    # both affordable: both
    ("build=max", 1, ["build Syracusae", "done"]),                              # one food: the cheaper one
    ("build=cheap,build_max_coins=1", 2, ["build Syracusae", "done"]),          # Aquileia costs 2 coins
    ("build=best,colonists_toward=[food]", 2, ["build Aquileia", "build Syracusae"]),
    ("build=best,colonists_toward=[food]", 1, ["build Aquileia", "done"]),      # one food: the wanted one
    ("build=best,colonists_toward=[brick]", 1, ["build Syracusae", "done"]),
])
def test_the_build_rule(rule, food, builds):
    pos = _position(coins=10, goods=dict(brick=1, food=food), land=["Aquileia-Roma", "Roma-Syracusae"], sea=[])
    # every other city a cloth city (unaffordable without cloth): no move can add a house to build now
    set_cities(pos, {c: "cloth" for c in pos["cities"] if c not in ("Aquileia", "Syracusae")})
    game = load(pos)
    game.apply("play Architect")
    assert _follow(game, _bot(f"plan:{rule}"), 2) == builds


@pytest.mark.parametrize("produce, chosen", [("wine", "produce Dacia"), ("tool", "produce Italia"),
                                             ("Italia", "produce Italia")])
def test_the_prefect_produces_the_listed_good_or_province(produce, chosen):
    game = load(_position(houses=["Sirmium", "Novaria"]))          # Sirmium: wine (Dacia); Novaria: tool (Italia)
    game.apply("play Prefect")
    assert _follow(game, _bot(f"plan:produce=[{produce}]"), 1) == [chosen]


def test_the_prefect_takes_cash_from_the_threshold():
    pos = _position(houses=["Sirmium"])
    for prov in ("Britannia", "Gallia", "Hispania"):
        pos["provinces"][prov]["side"] = "coins"
    game = load(pos)
    game.apply("play Prefect")
    coins = pos["players"][0]["coins"]
    assert _follow(game.clone(), _bot("plan:produce=[wine],cash_at_least=3"), 1) == ["cash"]
    assert _follow(game.clone(), _bot("plan:produce=[wine],cash_at_least=20"), 1) == ["produce Dacia"]
    assert coins is not None


def test_the_mercator_trades_exactly_the_lists():
    game = load(_position(coins=10, goods=dict(cloth=3, wine=1)))
    game.apply("play Mercator/3")
    assert _follow(game, _bot("plan:mercator_sell=[2 cloth],mercator_buy=[2 food]"), 3) == \
        ["sell 2 cloth", "buy 2 food", "done"]


def test_the_mercator_buys_what_the_next_house_needs():
    # the colonist stands next to Syracusae (brick: a house costs 1 food); nothing else is wanted
    game = load(_position(coins=10, goods=dict(cloth=1), land=["Roma-Syracusae"]))
    game.apply("play Mercator/3")
    assert _follow(game, _bot("plan"), 2) == ["buy 1 food", "done"]


def test_the_mercator_sells_surplus_to_make_room():
    # 12 spaces: 4 colonists stored and 8 goods, no room for the food the house next to Syracusae needs
    game = load(_position(coins=0, goods=dict(cloth=8), land=["Roma-Syracusae"]))
    game.apply("play Mercator/3")
    assert _follow(game, _bot("plan"), 3) == ["sell 1 cloth", "buy 1 food", "done"]


def test_keep_priority_when_the_storehouse_overflows():
    # 4 stored colonists, 7 goods: room for one; the Prefect in Dacia pays wine (Sirmium) and the marker's good
    pos = _position(goods=dict(brick=7), houses=["Sirmium", "Tomis"])     # Tomis: food (Dacia)
    game = load(pos)
    game.apply("play Prefect")
    game.apply("produce Dacia")
    assert game.phase == "keep"
    assert _follow(game.clone(), _bot("plan:keep=[food,wine]"), 1) == ["keep food"]
    assert _follow(game.clone(), _bot("plan:keep=[wine]"), 1) == ["keep wine"]
