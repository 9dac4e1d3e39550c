"""Tracking a game with the CLI: new, show, moves, play, undo, score; a simulated and a real table."""
import json


from concordia_ai.engine.game import Game
from cli_helpers import run

DISPLAY = "Architect/I,Prefect/I,Mercator/I,Colonist/I,Diplomat/I,Mason/I,Farmer/I"


def table_cities(seed=5):
    """A real, token-consistent Imperium layout (taken from a simulated setup)."""
    return ",".join(f"{c}={g}" for c, g in Game.new("imperium", 3, seed=seed).to_json()["cities"].items())


def test_simulated_game_flow(tmp_path):
    f = tmp_path / "game.json"
    r = run("new", f, "--players", 3, "--seed", 7, "--names", "Ann,Bob,Cid")
    assert "created" in r.stdout and "seed 7" in r.stdout
    data = json.loads(f.read_text())
    assert data["format"] == "concordia-game" and data["version"] == 1 and data["moves"] == []
    ref = Game.new("imperium", 3, seed=7, names=["Ann", "Bob", "Cid"])
    assert data["initial"] == ref.to_json() == data["current"]

    # show: a screen a person can check, without the stack order
    screen = run("show", f).stdout
    for text in ("Imperium, 3 players", "turn 1 (round 1): Ann's turn; Ann decides now: play", "Praefectus Magnus: Cid",
                 "Ann  5 coins", "Bob  6 coins", "Cid  7 coins", "hand: Tribune, Architect, Prefect x2",
                 "colonists: Roma (1 land + 1 sea); storehouse (2 land + 2 sea)", "Display (price for a Senator",
                 "Unseen cards per deck: I: 1, II: 7, III: 6", "Concordia card: not yet taken"):
        assert text in screen, text
    pos = ref.to_json()
    first_display = pos["display"][0]
    assert f"1. {first_display}" in screen
    assert pos["stack_order"][0] not in screen.split("Display")[1]       # the next card is not revealed
    shown = json.loads(run("show", f, "--json").stdout)
    assert shown["stack_order"] is None and shown["players"] == pos["players"]

    # moves
    assert run("moves", f).stdout.splitlines() == [ref.text(m) for m in ref.legal_moves()]
    assert json.loads(run("moves", f, "--json").stdout)[0] == {"move": "play Tribune"}

    # a full turn (Architect: move, build, done), abbreviations accepted, canonical text recorded
    r = run("play", f, "pl arch", "move land Roma > Novaria-Roma", "build novaria", "done")
    assert r.stdout.splitlines()[:4] == ["played: play Architect (Ann, turn 1, round 1)",
                                         "played: move land Roma > Novaria-Roma (Ann, turn 1, round 1)",
                                         "played: build Novaria (Ann, turn 1, round 1)",
                                         "played: done (Ann, turn 1, round 1)"]
    assert "next: turn 2 (round 1): Bob's turn; Bob decides now: play" in r.stdout
    data = json.loads(f.read_text())
    assert data["moves"] == ["play Architect", "move land Roma > Novaria-Roma", "build Novaria", "done"]
    screen = run("show", f).stdout
    assert "houses (1 of 15): Novaria" in screen and f"Novaria {pos['cities']['Novaria']} [Ann]" in screen

    # several moves in one argument separated by ';' (Bob: Prefect; Cid: Tribune-free Senator turn)
    run("play", f, "play Prefect; produce Italia")
    data = json.loads(f.read_text())
    assert data["moves"][-2:] == ["play Prefect", "produce Italia"]
    assert json.loads(f.read_text())["current"]["turn"]["player"] == "Cid"

    # undo one and several steps
    r = run("undo", f)
    assert r.stdout.splitlines()[0] == "undone: produce Italia"
    assert "Bob decides now: prefect" in r.stdout
    r = run("undo", f, "--steps", 2)
    assert r.stdout.splitlines()[:2] == ["undone: play Prefect", "undone: done"]
    data = json.loads(f.read_text())
    assert data["moves"] == ["play Architect", "move land Roma > Novaria-Roma", "build Novaria"]
    g = Game.from_json(data["current"])
    assert g.phase == "architect-build" and g.decider == 0

    # score
    run("play", f, "done")
    r = run("score", f)
    assert "Score if the game ended now" in r.stdout and "Ranking" in r.stdout
    sc = json.loads(run("score", f, "--json").stdout)
    ref2 = Game.new("imperium", 3, seed=7, names=["Ann", "Bob", "Cid"])
    for m in data["moves"] + ["done"]:
        ref2.apply(m)
    assert [p["total"] for p in sc["players"]] == [s["total"] for s in ref2.scores()]
    assert sc["ranking"] == [ref2.names[s] for s in ref2.ranking()] and sc["final"] is False
    assert sc["columns"][-1] == "total"


def test_whole_random_game_to_the_end(tmp_path):
    """Every move of a whole game goes through `play`; the file replays to the same final score."""
    import random
    f = tmp_path / "g.json"
    run("new", f, "--map", "italia", "--players", 2, "--seed", 3)
    g = Game.new("italia", 2, seed=3)
    rng = random.Random(1)
    batch = []
    while not g.is_over:
        m = rng.choice(g.legal_moves())
        batch.append(g.text(m))
        g.apply(m)
        if len(batch) == 60:
            run("play", f, *batch)
            batch = []
    r = run("play", f, *batch)
    assert "game over" in r.stdout
    assert run("moves", f).stdout == ""
    sc = json.loads(run("score", f, "--json").stdout)
    assert sc["final"] is True and [p["total"] for p in sc["players"]] == [s["total"] for s in g.scores()]
    assert "Final score" in run("show", f).stdout


def test_real_table_flow(tmp_path):
    f = tmp_path / "table.json"
    r = run("new", f, "--players", 3, "--names", "Ann,Bob,Cid", "--cities", table_cities(), "--display", DISPLAY)
    assert "real table" in r.stdout
    data = json.loads(f.read_text())
    assert data["initial"]["chance"] == "external" and data["initial"]["stack_order"] is None
    assert data["initial"]["display"] == DISPLAY.split(",")
    screen = run("show", f).stdout
    assert "real table" in screen
    assert "(I: Smith; II: Architect, Colonist, Consul, Mercator, Prefect, Vintner, Weaver" in screen
    # display prices: card cost + surcharge ('any' as ?)
    assert "1. Architect/I          tool" in screen
    assert "2. Prefect/I            wine + ?" in screen

    # Ann buys one card with a Senator: the display is refilled by the last card of deck I, revealed by itself
    r = run("play", f, "play Senator", "buy Architect/I", "done")
    assert r.stdout.splitlines()[3] == "revealed: Smith/I (the only card left in deck I), turned up in Ann's turn 1, round 1"
    assert "Bob's turn" in r.stdout
    assert json.loads(f.read_text())["moves"][-1] == "reveal Smith/I"
    pos = json.loads(f.read_text())["current"]
    assert pos["display"] == ["Prefect/I", "Mercator/I", "Colonist/I", "Diplomat/I", "Mason/I", "Farmer/I", "Smith/I"]
    assert "I" not in pos["unseen"]
    # Bob: Senator buying one card; the next card comes from deck II and must be entered
    run("play", f, "play Senator", "buy Prefect/I", "done")
    r = run("moves", f)
    assert sorted(r.stdout.splitlines()) == [f"reveal {c}/II" for c in
                                             ("Architect", "Colonist", "Consul", "Mercator", "Prefect", "Vintner",
                                              "Weaver")]
    r = run("play", f, "reveal Weaver/II")
    assert r.stdout.splitlines()[0] == "played: reveal Weaver/II (turned up in Bob's turn 2, round 1)"
    pos = json.loads(f.read_text())["current"]
    assert pos["display"][-1] == "Weaver/II" and "Weaver" not in pos["unseen"]["II"]
    # the real table's layout is kept
    assert pos["cities"] == Game.new("imperium", 3, seed=5).to_json()["cities"]
    r = run("undo", f)
    assert "undone: reveal Weaver/II" in r.stdout and "now a card is turned up into the display" in r.stdout


def test_real_table_every_refilled_card_is_entered(tmp_path):
    """Two cards bought: both refilled cards are entered (one from deck I, the next from deck II).

    Regression: the core once asked only for the first card and took the second from the stack itself."""
    f = tmp_path / "table.json"
    run("new", f, "--players", 3, "--names", "Ann,Bob,Cid", "--cities", table_cities(), "--display", DISPLAY)
    # two cards bought, in the other order than the display's (recorded in slot order); the forced reveal
    # may still be typed
    r = run("play", f, "play Senator", "buy Prefect/I paying brick", "buy Architect/I", "reveal Smith/I")
    assert "now a card is turned up into the display" in r.stdout
    assert json.loads(f.read_text())["moves"] == ["play Senator", "buy Architect/I", "buy Prefect/I paying brick",
                                                  "reveal Smith/I"]
    r = run("moves", f)
    assert sorted(r.stdout.splitlines()) == [f"reveal {c}/II" for c in
                                             ("Architect", "Colonist", "Consul", "Mercator", "Prefect", "Vintner",
                                              "Weaver")]
    r = run("play", f, "reveal Vintner/II")
    assert "Bob's turn" in r.stdout
    pos = json.loads(f.read_text())["current"]
    assert pos["display"] == ["Mercator/I", "Colonist/I", "Diplomat/I", "Mason/I", "Farmer/I", "Smith/I",
                              "Vintner/II"]
    assert pos["unseen"]["II"] == ["Architect", "Colonist", "Consul", "Mercator", "Prefect", "Weaver"]


def test_new_notes_a_player_count_outside_the_boards_recommendation(tmp_path):
    from click.testing import CliRunner

    from concordia_ai.cli import main
    runner = CliRunner()
    r = runner.invoke(main, ["new", str(tmp_path / "a.json"), "--players", "2", "--seed", "1"])
    assert r.exit_code == 0
    assert "note: the rules recommend Imperium for 3 to 5 players" in r.output
    r = runner.invoke(main, ["new", str(tmp_path / "b.json"), "--map", "italia", "--players", "2", "--seed", "1"])
    assert r.exit_code == 0 and "note:" not in r.output


def test_moves_shows_costs_and_steps_left(tmp_path):
    """Builds: coins and goods; Senator: card cost + the slot's surcharge; Architect: steps and steps left."""
    f = tmp_path / "g.json"
    run("new", f, "--players", 3, "--seed", 3)
    run("play", f, "play Senator")
    lines = run("moves", f).stdout.splitlines()
    assert lines[0] == "done"
    assert lines[1] == "buy Architect/I              (tool)"
    assert "buy Mason/I paying food      (2 food)" in lines
    assert "buy Smith/I paying wine      (brick + tool + cloth + wine)" in lines
    rows = json.loads(run("moves", f, "--json").stdout)
    assert rows[1] == {"move": "buy Architect/I", "goods": {"tool": 1}}
    g = tmp_path / "a.json"
    run("new", g, "--players", 3, "--seed", 3)
    run("play", g, "play Architect", "move land Roma > Aquileia-Roma")
    lines = run("moves", g).stdout.splitlines()
    assert lines[:3] == ["steps left: 1", "done", "build Aquileia                  (4 coins, brick + wine)"]
    rows = json.loads(run("moves", g, "--json").stdout)
    assert rows[1] == {"move": "build Aquileia", "coins": 4, "goods": {"brick": 1, "wine": 1}, "steps_left": 1}
    assert rows[2]["steps"] == 1 and rows[2]["move"].startswith("move sea Roma >")
