"""Forgiving entry: a turn's steps in any order (placed into the canonical order), over one or several
`play` calls; exact words beat prefixes; deck-less card names; `play Diplomat/GOD`; forced reveals."""
import itertools
import json

import pytest

from concordia_ai.engine import costs, step_order
from concordia_ai.engine.game import Game
from concordia_ai.table.game_file import GameFile, GameFileError

from positions import base, gds, load, set_player, set_turn
from cli_helpers import run


def mercator(coins=0, **goods):
    pos = base(3)
    set_player(pos, 0, coins=coins, goods=gds(**goods), land=["Roma"], sea=["Roma"], houses=[])
    set_turn(pos, 0)
    return load(pos)


def every_order(game, steps, canonical):
    """Entering `steps` in each order gives the state and the record of `canonical`."""
    want, want_steps = step_order.place(game, canonical)
    assert [s.text for s in want_steps] == canonical
    orders = 0
    for order in itertools.permutations(steps):
        got, got_steps = step_order.place(game, list(order))
        assert got.state == want.state, order
        assert [s.text for s in got_steps] == canonical, order
        orders += 1
    return orders


def test_mercator_sales_and_a_purchase_in_every_order():
    g = mercator(coins=0, tool=1, wine=3)
    canonical = ["play Mercator/3", "sell 1 tool", "sell 3 wine", "done"]
    # buying before selling: legal at the table, recorded after the sales
    assert every_order(g, ["play Mercator/3", "sell 3 wine", "sell 1 tool", "done"], canonical) == 24
    g2 = mercator(coins=0, wine=3)
    assert every_order(g2, ["play Mercator/3", "buy 2 cloth", "sell 3 wine", "done"],
                       ["play Mercator/3", "sell 3 wine", "buy 2 cloth", "done"]) == 24


def test_architect_moves_and_builds_in_every_order():
    pos = base(3)
    set_player(pos, 0, coins=50, goods=gds(brick=2, food=1, tool=1, wine=1, cloth=1),
               land=["Roma", "Roma"], sea=[], houses=[])
    set_turn(pos, 0)
    g = load(pos)
    canonical = ["play Architect", "move land Roma > Aquileia-Roma", "move land Roma > Novaria-Roma",
                 "build Aquileia", "build Novaria", "done"]
    steps = ["play Architect", "build Novaria", "move land Roma > Novaria-Roma", "build Aquileia",
             "move land Roma > Aquileia-Roma", "done"]
    # the card first and `done` last (a text never slides past the end of its turn): 4! orders of the middle
    first, *middle, last = steps
    orders = 0
    for mid in itertools.permutations(middle):
        got, got_steps = step_order.place(g, [first, *mid, last])
        assert [s.text for s in got_steps] == canonical, mid
        orders += 1
    assert orders == 24
    after = got.to_json()["players"][0]
    pos0 = g.to_json()
    price = costs.house_cost(g, pos0, g.board.city_index("Aquileia"))[0] + \
        costs.house_cost(g, pos0, g.board.city_index("Novaria"))[0]
    assert sorted(after["houses"]) == ["Aquileia", "Novaria"] and after["coins"] == 50 - price


def test_a_step_never_moves_into_another_players_turn():
    g = mercator(coins=0, wine=3)
    # a step given after `done` is placed before it, in its own turn
    got, steps = step_order.place(g, ["play Mercator/3", "done", "sell 3 wine"])
    assert [s.text for s in steps] == ["play Mercator/3", "sell 3 wine", "done"]
    # but a step given before `done` never becomes the next player's: P1 cannot also play an Architect
    with pytest.raises(step_order.EntryError) as e:
        step_order.place(g, ["play Mercator/3", "play Architect", "sell 3 wine", "done"])
    assert e.value.index == 1 and "'play' is the start of a turn, and now P1 is in phase mercator" in e.value.reason


def test_refusals_say_why():
    g = mercator(coins=2, wine=1)
    cases = [
        (["play Mercator/3", "sell 3 wine"], "P1 has 1 wine"),
        (["play Mercator/3", "buy 2 cloth"], "2 cloth cost 14 coins; P1 has 5"),
        (["play Mercator/3", "sell 1 wine", "buy 1 wine"], "wine was sold this Mercator"),
        (["play Consul"], "P1 holds no 'consul'"),
        (["sell 1 wine"], "'sell' is a Mercator step, and now P1 is in phase play"),
    ]
    for texts, why in cases:
        with pytest.raises(step_order.EntryError) as e:
            step_order.place(g, texts)
        assert why in e.value.reason, (texts, e.value.reason)


def test_architect_refusals_say_why():
    pos = base(3)
    set_player(pos, 0, coins=1, goods=gds(brick=1), land=["Roma"], sea=[], houses=[])
    set_player(pos, 1, land=["Novaria-Roma"])
    set_turn(pos, 0)
    g = load(pos)
    g.apply("play Architect")
    for text, why in [("move land Roma > Novaria-Roma", "Novaria-Roma is taken by P2"),
                      ("move land Roma > Aquileia-Sirmium", "that move needs 2 steps; 1 left"),
                      ("build Sirmium", "no colonist of P1 stands on a route next to Sirmium")]:
        with pytest.raises(step_order.EntryError) as e:
            step_order.place(g, [text])
        assert why in e.value.reason, (text, e.value.reason)
    g.apply("move land Roma > Aquileia-Roma")
    with pytest.raises(step_order.EntryError) as e:
        step_order.place(g, ["build Aquileia"])
    assert "a house in Aquileia costs" in e.value.reason and "P1 lacks" in e.value.reason


def test_a_turn_over_several_play_calls(tmp_path):
    """`sell 3 wine` recorded, then `sell 1 tool` in a later call: the turn is placed again, in order."""
    f = tmp_path / "g.json"
    gf = GameFile.create(str(f), mercator(coins=0, tool=1, wine=3))
    gf.save()
    run("play", f, "play Mercator/3", "sell 3 wine")
    r = run("play", f, "sell 1 tool", "done")
    assert "this turn's 2 earlier steps and the new ones, recorded in the canonical order" in r.stdout
    assert json.loads(f.read_text())["moves"] == ["play Mercator/3", "sell 1 tool", "sell 3 wine", "done"]
    # a step that fits nowhere: nothing changes, the error says why
    before = f.read_text()
    r = run("play", f, "sell 5 wine", code=2)
    assert "'sell' is a Mercator step" in r.stderr and f.read_text() == before


def test_replay_accepts_an_old_file_in_another_order(tmp_path):
    """A game file written before builds were ordered (Novaria before Aquileia) still loads."""
    pos = base(3)
    set_player(pos, 0, coins=50, goods=gds(brick=2, food=1, tool=1, wine=1, cloth=1),
               land=["Aquileia-Novaria"], sea=[], houses=[])
    set_turn(pos, 0)
    g = load(pos)
    f = tmp_path / "old.json"
    gf = GameFile.create(str(f), g)
    data = gf.to_json()
    data["moves"] = ["play Architect", "build Novaria", "build Aquileia", "done"]
    data.pop("current")
    f.write_text(json.dumps(data))
    loaded = GameFile.load(str(f))
    assert sorted(loaded.game.to_json()["players"][0]["houses"]) == ["Aquileia", "Novaria"]


def test_exact_word_beats_prefix_and_deckless_names(tmp_path):
    g = Game.new("imperium", 3, seed=1)
    from concordia_ai.engine.notation import resolve
    labels = [m.label for m in g.rules.market]
    assert resolve("arch/I", labels, "card") == "Architect/I"
    assert resolve("arch/II", labels, "card") == "Architect/II"
    cities = ",".join(f"{c}={x}" for c, x in g.to_json()["cities"].items())
    f = tmp_path / "t.json"
    run("new", f, "--players", 3, "--cities", cities,
        "--display", "arch/I,Prefect,Mercator,Colonist,Diplomat,Mason,Farmer")
    assert json.loads(f.read_text())["initial"]["display"] == [
        "Architect/I", "Prefect/I", "Mercator/I", "Colonist/I", "Diplomat/I", "Mason/I", "Farmer/I"]
    # a reveal names the card only: the top deck is the only one
    run("play", f, "play Senator", "buy Architect", "buy Prefect paying brick", "reveal Vintner")
    assert json.loads(f.read_text())["moves"][-2:] == ["reveal Smith/I", "reveal Vintner/II"]


def test_play_a_named_diplomat(tmp_path):
    pos = base(3)
    set_player(pos, 0, extra={"Diplomat/Mars": 1})
    set_player(pos, 1, played=["Mercator/3"])      # something to copy, so the Diplomat asks
    set_turn(pos, 0)
    g = load(pos)
    f = tmp_path / "d.json"
    GameFile.create(str(f), g).save()
    run("play", f, "play Diplomat/Mars", "done")
    data = json.loads(f.read_text())
    assert data["moves"][0] == "play Diplomat/Mars"
    me = data["current"]["players"][0]
    assert me["discard"] == {"Diplomat/Mars": 1} and me["top"] == "Diplomat/Mars"
    assert me["hand"]["Diplomat/Jupiter"] == 1
    # a bare `play Diplomat` stays valid: the engine's Diplomat (the first kind) goes to the pile
    h = load(pos)
    h.apply("play Diplomat")
    assert h.to_json()["players"][0]["top"] == "Diplomat/Jupiter"
    assert GameFile.load(str(f)).game.state == Game.from_json(data["current"]).state


def test_bad_entry_is_one_line_and_changes_nothing(tmp_path):
    f = tmp_path / "g.json"
    GameFile.create(str(f), mercator(coins=0, wine=1)).save()
    before = f.read_text()
    r = run("play", f, "play Mercator/3", "sell 2 wine", code=2)
    assert r.stderr.count("\n") == 1 and "P1 has 1 wine" in r.stderr
    assert f.read_text() == before
    with pytest.raises(GameFileError):
        GameFile.load(str(f)).apply(["play Mercator/3", "sell 2 wine"])


def test_a_chain_or_swap_is_recorded_as_its_direct_form():
    """Ruling 35: at the table a colonist may take an own colonist's route while that one moves on; the
    engine has one sequence for those end places, and that is recorded."""
    pos = base(3)
    set_player(pos, 0, land=["Roma", "Aquileia-Roma"], sea=[], houses=[])
    set_turn(pos, 0)
    g = load(pos)
    g.apply("play Architect")
    got, steps = step_order.place(g, ["move land Roma > Aquileia-Roma", "move land Aquileia-Roma > Aquileia-Novaria",
                                 "done"])
    assert [s.text for s in steps] == ["move land Roma > Aquileia-Novaria", "done"]
    assert sorted(got.to_json()["players"][0]["colonists"]["land"]) == ["Aquileia-Novaria", "Aquileia-Roma",
                                                                        "storehouse"]
    # a swap: the end places are the starting ones, so nothing is recorded but `done`
    pos = base(3)
    set_player(pos, 0, land=["Aquileia-Roma", "Novaria-Roma"], sea=["Roma"], houses=[])
    set_turn(pos, 0)
    g = load(pos)
    g.apply("play Architect")
    got, steps = step_order.place(g, ["move land Aquileia-Roma > Novaria-Roma", "move land Novaria-Roma > Aquileia-Roma",
                                 "done"])
    assert [s.text for s in steps] == ["done"]
    # an unfinished chain (two colonists left on one route) is still refused, saying why
    with pytest.raises(step_order.EntryError) as e:
        step_order.place(g, ["move land Aquileia-Roma > Novaria-Roma", "done"])
    assert "Novaria-Roma is where an own land colonist stands or stood this Architect" in e.value.reason


def test_senator_refusals_say_why():
    g = Game.new("imperium", 3, seed=3)
    g.apply("play Senator")
    for text, why in [("buy Mason/I", "Mason/I's place in the display adds any one good: say which"),
                      ("buy Diplomat/I", "Diplomat/I costs tool + 2 cloth here; P1 lacks 1 cloth"),
                      ("buy Consul/II", "'consul/ii' is not in the display")]:
        with pytest.raises(step_order.EntryError) as e:
            step_order.place(g, [text])
        assert why in e.value.reason, (text, e.value.reason)


@pytest.mark.parametrize("board", ["imperium", "italia", "creta", "aegyptus"])
def test_every_turn_shuffled_gives_the_same_game(board):
    """Random games: each turn's steps given in a random order (the card, the steps, other players'
    keep-choices), the step that ends the turn last, are placed into the same turns, reaching the same
    state. (A step given after the one that ends a turn may belong to the next turn; it is tried in this
    turn only when the steps before it do not fit.)"""
    import random

    from test_canonical_orders import end_key
    rng = random.Random(board)
    g = Game.new(board, 3, seed=rng.randrange(1 << 30))
    start = g.clone()
    turns, texts = [], []
    for _ in range(150):
        if g.is_over:
            break
        m = rng.choice(g.legal_moves())
        if not texts or g.state.turns != turns[-1]:
            turns.append(g.state.turns)
            texts.append([])
        texts[-1].append(g.text(m))
        g.apply(m)
    shuffled = []
    for block in texts:
        head = block[:-1]
        rng.shuffle(head)
        shuffled += head + block[-1:]
    got, steps = step_order.place(start, shuffled)
    assert end_key(got.state) == end_key(g.state)
    assert len(steps) == sum(len(b) for b in texts)
