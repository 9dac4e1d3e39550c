"""Table-side commands: board, log, undo --turn, position files everywhere, new --position,
position template / check (issue 9, parts 4 and 5)."""
import json

import pytest
from click.testing import CliRunner

from concordia_ai.cli import main
from concordia_ai.engine.game import Game
from positions import base, gds, set_player, set_pm, set_turn
from cli_helpers import run

DISPLAY = "Architect/I,Prefect/I,Mercator/I,Colonist/I,Diplomat/I,Mason/I,Farmer/I"
TABLE_MOVES = ["play Senator", "buy Mason/I paying brick", "done", "reveal Smith/I",
               "play Architect", "move land Roma > Novaria-Roma", "build Novaria", "done", "play Prefect"]


def refused(*args, key, folder=None):
    """A bad input: one line on stderr naming it, exit 2, nothing on stdout, no file changed."""
    before = _snapshot(folder) if folder else None
    r = run(*args, code=2)
    assert r.stderr.startswith("error: ") and r.stderr.count("\n") == 1, r.stderr
    assert key in r.stderr, r.stderr
    if folder:
        assert _snapshot(folder) == before
    return r


def _snapshot(folder):
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def cities_arg(board="imperium", seed=5, change=None):
    cities = Game.new(board, 3, seed=seed).to_json()["cities"]
    cities.update(change or {})
    return ",".join(f"{c}={g}" for c, g in cities.items())


@pytest.fixture
def table(tmp_path):
    """A real 3-player Imperium table after two whole turns and Cid's card: 9 moves, one of them a reveal."""
    f = tmp_path / "table.json"
    run("new", f, "--players", 3, "--names", "Ann,Bob,Cid", "--cities", cities_arg(), "--display", DISPLAY)
    run("play", f, *TABLE_MOVES)
    return f


def keep_position():
    """Imperium, 3 players (positions.py layout): Ann's Prefect in Italia fills Bob's storehouse, so Bob
    chooses what to keep during Ann's turn."""
    pos = base(3)
    for seat in range(3):
        set_player(pos, seat, goods=gds())
    set_pm(pos, 2)
    set_turn(pos, 0)
    set_player(pos, 1, goods=gds(wine=7), houses=["Aquileia", "Syracusae"])
    for seat, name in enumerate(("Ann", "Bob", "Cid")):
        pos["players"][seat]["name"] = name
    pos["praefectus_magnus"], pos["turn"]["player"], pos["turn"]["decider"] = "Cid", "Ann", "Ann"
    return pos


# ------------------------------------------------------------------ board

def test_board_lists_cities_neighbours_and_token_pools():
    lines = run("board", "italia").stdout.splitlines()
    assert lines[:6] == [
        "Italia: 25 cities in 11 provinces; start city Roma; 2 to 4 players recommended",
        "Routes: each land route holds 1 colonist, each sea route 1 colonist",
        "",
        "Cities by province: name (letter)   neighbours by land | by sea",
        "Venetia",
        "  Aquileia (A)    land: Bauzanum, Ravenna, Verona | sea: Ancona, Ravenna",
    ]
    assert "  Bauzanum (A)    land: Aquileia, Verona | sea: -" in lines
    assert "  Roma            land: Casinum, Cosa, Spoletum | sea: Cosa, Neapolis, Olbia, Panormus" in lines
    assert lines[-3:] == [
        "  A: 2 brick, 2 food, 1 tool, 1 wine, 1 cloth  (7 cities: Aquileia, Bauzanum, Verona, Comum, Segusio, "
        "Genua, Nicaea)",
        "  B: 2 brick, 2 food, 2 tool, 1 wine, 1 cloth  (8 cities: Mutina, Ravenna, Cosa, Florentia, Aleria, Olbia, "
        "Casinum, Neapolis)",
        "  C: 3 brick, 2 food, 2 tool, 2 wine, 1 cloth  (10 cities: Ancona, Hadria, Spoletum, Brundisium, Luceria, "
        "Croton, Potentia, Messana, Panormus, Syracusae)",
    ]


def test_board_aegyptus_shows_sea_lines_capacity_and_special_squares():
    out = run("board", "Aegyptus").stdout
    assert "Routes: each land route holds 1 colonist, each sea route any number of colonists" in out
    assert ("  Memphis          land: Alexandria, Klysma, Oasis Parva, Oxyrhynchus, Tamiathis | sea: Alexandria (Nile), "
            "Oxyrhynchus (Nile), Tamiathis (Nile)") in out
    assert "  GOLD: reached by sea from Meroe; 7 VP at the end" in out
    assert ("  FRANKINCENSE: reached by sea from Berenice, Leuke Kome, Myos Hormos; 7 VP at the end; 5 sestertii to "
            "each player with a colonist here whenever anyone produces in Sinai, Arabia, Litus") in out
    assert "Nile flood (the food marker moves downstream): Kush > Nubia > Aegyptus Superior > Arcadia > " \
           "Aegyptus Inferior" in out


def test_board_json():
    info = json.loads(run("board", "aegyptus", "--json").stdout)
    assert info["route_capacity"] == {"land": 1, "sea": None}
    alex = next(c for c in info["cities"] if c["name"] == "Alexandria")
    assert alex["letter"] == "D" and alex["province"] == "Aegyptus Inferior"
    assert alex["land"] == [{"city": "Memphis", "capacity": 1}, {"city": "Oasis Parva", "capacity": 1}]
    assert alex["sea"][0] == {"city": "Gaza", "capacity": None, "line": "mediterranean"}
    assert info["city_tokens"]["D"] == {"tokens": {"brick": 1, "food": 1, "tool": 1, "wine": 1, "cloth": 1},
                                        "cities": ["Alexandria", "Tamiathis", "Hibis", "Oasis Parva", "Trimithis"]}
    assert sorted(info["city_tokens"]) == ["A", "C", "D"]
    assert [s["name"] for s in info["special_squares"]] == ["FRANKINCENSE", "GOLD"]
    creta = json.loads(run("board", "creta", "--json").stdout)
    assert [p["name"] for p in creta["provinces"] if p["variable_bonus"]] == ["Brown"]
    assert creta["cash_bonus_extra"] == 2


def test_board_bad_map():
    refused("board", "mars", key="unknown map 'mars'; valid: imperium, italia, creta, aegyptus")
    refused("board", key="Missing argument 'MAP'")


# ------------------------------------------------------------------ new --cities errors

def test_cities_errors_name_letter_and_province(tmp_path):
    bad = cities_arg("italia", change={"Aquileia": "cloth"})   # Aquileia was food: one food short, one cloth over
    r = refused("new", tmp_path / "n.json", "--map", "italia", "--players", 3, "--cities", bad, "--display", DISPLAY,
                key="the A cities have 2 brick, 1 food, 1 tool, 1 wine, 2 cloth but the A tokens are 2 brick, 2 food, "
                    "1 tool, 1 wine, 1 cloth; the A cities were given: Aquileia (Venetia)=cloth, ", folder=tmp_path)
    assert "(concordia board italia lists the cities by letter)" in r.stderr
    assert Game.new("italia", 3, seed=5).to_json()["cities"]["Aquileia"] == "food"
    refused("new", tmp_path / "n.json", "--map", "italia", "--players", 3, "--cities", "Aquileia=wine",
            "--display", DISPLAY, key="no good given for 24 of 25 cities: Bauzanum (A, Venetia), Verona (A, Venetia)")


# ------------------------------------------------------------------ log

def test_log_by_turn(table):
    lines = run("log", table).stdout.splitlines()
    assert lines == [
        "Imperium, 3 players: 9 moves since turn 1 (round 1)",
        "moves  turn  round  player  card       steps",
        "1-4       1      1  Ann     Senator    buy Mason/I paying brick; done; [reveal Smith/I]",
        "5-8       2      1  Bob     Architect  move land Roma > Novaria-Roma; build Novaria; done",
        "9         3      1  Cid     Prefect    (in progress)",
        "[reveal ...]: a card turned up from the stack into the display",
    ]
    assert run("log", table, "--player", "bo").stdout.splitlines()[2:] == [
        "5-8       2      1  Bob     Architect  move land Roma > Novaria-Roma; build Novaria; done"]


def test_log_json(table):
    data = json.loads(run("log", table, "--json").stdout)
    assert data["moves"] == 9 and data["start"] == {"turn": 1, "round": 1, "phase": "play"}
    assert [(t["turn"], t["player"], t["card"], t["first_move"], t["complete"]) for t in data["turns"]] == [
        (1, "Ann", "Senator", 1, True), (2, "Bob", "Architect", 5, True), (3, "Cid", "Prefect", 9, False)]
    assert data["turns"][0]["steps"][3] == {"move": 4, "text": "reveal Smith/I", "decider": "chance", "reveal": True}
    assert [s["text"] for t in data["turns"] for s in t["steps"]] == TABLE_MOVES


def test_log_marks_another_players_choice(tmp_path):
    pos = tmp_path / "keep.json"
    pos.write_text(json.dumps(keep_position()))
    f = tmp_path / "g.json"
    run("new", f, "--position", pos)
    run("play", f, "play Prefect", "produce Italia", "keep food")
    lines = run("log", f).stdout.splitlines()
    assert lines[0] == "Imperium, 3 players: 3 moves since turn 11 (round 4)"     # positions.py: 10 turns done
    assert lines[2] == "1-3      11      4  Ann     Prefect  produce Italia; Bob: keep food"
    assert lines[-1] == "NAME: ...: a choice made by another player than the one whose turn it is (storehouse full)"


def test_log_bad_input(table, tmp_path):
    refused("log", table, "--player", "Zed", key="--player: unknown player 'Zed'; valid: Ann, Bob, Cid",
            folder=tmp_path)
    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps(Game.new("imperium", 3, seed=1).to_json()))
    refused("log", pos, key="is a position file, not a game file", folder=tmp_path)


# ------------------------------------------------------------------ undo --turn

def test_undo_turn_takes_back_the_turn_in_progress_then_whole_turns(table):
    r = run("undo", table, "--turn")
    assert r.stdout.splitlines()[0] == "undone: the turn in progress, turn 3 (round 1), Cid (Prefect), 1 move: play Prefect"
    assert "next: turn 3 (round 1): Cid's turn; Cid decides now: play" in r.stdout
    r = run("undo", table, "--turn")
    assert r.stdout.splitlines()[0] == ("undone: turn 2 (round 1), Bob (Architect), 4 moves: play Architect; "
                                        "move land Roma > Novaria-Roma; build Novaria; done")
    r = run("undo", table, "--turn")         # the reveal after Ann's purchase goes with her turn
    assert r.stdout.splitlines()[0] == ("undone: turn 1 (round 1), Ann (Senator), 4 moves: play Senator; "
                                        "buy Mason/I paying brick; done; reveal Smith/I")
    data = json.loads(table.read_text())
    assert data["moves"] == [] and data["current"] == data["initial"]
    refused("undo", table, "--turn", key="--turn: nothing to undo", folder=table.parent)


def test_undo_turn_bad_input(table):
    refused("undo", table, "--turn", "--steps", 2, key="give one of --steps K or --turn, not both",
            folder=table.parent)
    refused("undo", table, "--steps", 0, key="--steps", folder=table.parent)


# ------------------------------------------------------------------ position files where a game file is read

def test_show_moves_score_hint_read_a_position_file(table, tmp_path):
    pos = tmp_path / "pos.json"
    pos.write_text(run("show", table, "--json").stdout)
    game_screen = run("show", table).stdout
    pos_screen = run("show", pos).stdout
    assert pos_screen == game_screen.replace("  [9 moves recorded]", "")
    assert run("moves", pos).stdout == run("moves", table).stdout
    assert run("score", pos, "--json").stdout == run("score", table, "--json").stdout
    hint = json.loads(run("hint", pos, "--iterations", 60, "--quiet", "--json").stdout)
    assert hint["player"] == "Cid" and hint["candidates"]


def test_position_file_errors(tmp_path):
    pos = tmp_path / "pos.json"
    data = Game.new("imperium", 3, seed=1).to_json()
    data["players"][1]["coins"] = -3
    pos.write_text(json.dumps(data))
    refused("show", pos, key=f"{pos}: $.players[1].coins: cannot be negative: -3 (concordia position check", folder=tmp_path)
    data["players"][1]["coins"] = 3
    pos.write_text(json.dumps(data))
    refused("play", pos, "play Architect",
            key=f"start tracking from it with: concordia new GAME_FILE --position {pos}", folder=tmp_path)
    refused("undo", pos, "--turn", key="is a position file, not a game file", folder=tmp_path)
    other = tmp_path / "chess.json"
    other.write_text('{"format": "chess"}')
    refused("score", other, key="$.format is 'chess'; expected 'concordia-game' (a game file) or "
                                "'concordia-position' (a position file)", folder=tmp_path)


# ------------------------------------------------------------------ new --position

def test_new_from_a_mid_turn_position_play_undo_round_trip(tmp_path):
    g = Game.new("italia", 3, seed=2, names=["Ann", "Bob", "Cid"])
    g.apply("play Architect")                 # the file starts inside Ann's Architect turn
    pos = g.to_json()
    pos["stack_order"] = None
    pos["chance"] = "external"
    pos_file = tmp_path / "pos.json"
    pos_file.write_text(json.dumps(pos))
    f = tmp_path / "late.json"
    r = run("new", f, "--position", pos_file)
    assert r.stdout.splitlines()[0] == (f"created {f}: Italia, 3 players (Ann, Bob, Cid), from the position in "
                                        f"{pos_file} at turn 1 (round 1)")
    data = json.loads(f.read_text())
    assert data["initial"] == Game.from_json(pos).to_json() and data["moves"] == []
    run("play", f, "done", "play Prefect")
    lines = run("log", f).stdout.splitlines()
    assert lines[0] == "Italia, 3 players: 2 moves since a position inside turn 1 (round 1)"
    assert lines[2] == "1         1      1  Ann     Architect  done (begun before the starting position)"
    assert lines[3] == "2         2      1  Bob     Prefect    (in progress)"
    refused("undo", f, "--steps", 3, key="cannot undo 3 moves", folder=tmp_path)
    run("undo", f, "--turn")
    r = run("undo", f, "--turn")
    assert r.stdout.splitlines()[0] == ("undone: turn 1 (round 1), Ann (Architect), 1 move: done (back to the "
                                        "starting position, inside this turn)")
    assert json.loads(f.read_text())["current"] == data["initial"]
    refused("undo", f, "--turn", key="nothing to undo", folder=tmp_path)


def test_new_position_bad_input(tmp_path):
    pos_file = tmp_path / "pos.json"
    pos = Game.new("imperium", 3, seed=1).to_json()
    pos_file.write_text(json.dumps(pos))
    refused("new", tmp_path / "g.json", "--position", pos_file, "--map", "italia", "--seed", 3,
            key="--position: the position gives the board, players, layout and options; drop --map, --seed",
            folder=tmp_path)
    refused("new", tmp_path / "g.json", "--position", tmp_path / "none.json", key="position file", folder=tmp_path)
    refused("new", pos_file, "--position", pos_file, "--force", key="is also GAME_FILE", folder=tmp_path)
    pos["players"][0]["hand"]["Architect"] = 2        # strict: no Architect has left the display
    pos_file.write_text(json.dumps(pos))
    refused("new", tmp_path / "g.json", "--position", pos_file,
            key="$.players[0].hand: P1 holds 2 Architect (hand and discard pile), 1 more than the starting hand",
            folder=tmp_path)


# ------------------------------------------------------------------ position template / check

def test_template_has_the_visible_fields_and_placeholders(tmp_path):
    out = tmp_path / "t.json"
    r = run("position", "template", "--map", "italia", "--players", 3, "--names", "Ann,Bob,Cid", "--out", out)
    assert r.stdout == (f"wrote {out}: Italia, 3 players; fill in every \"?\", edit the rest to match the table, "
                        f"then: concordia position check {out}\n")
    tpl = json.loads(out.read_text())
    ref = Game.new("italia", 3, seed=0, names=["Ann", "Bob", "Cid"]).to_json()
    # only what is seen at the table: no scratch, sampling state, stack order, unseen cards or decider
    assert set(ref) - set(tpl) == {"unseen", "stack_order", "intermediate_paid", "rng"}
    assert set(tpl["turn"]) == {"number", "player", "phase", "card"} and set(tpl["end"]) == {"concordia",
                                                                                            "final_turns_left"}
    assert tpl["players"] == ref["players"] and tpl["chance"] == "external"
    assert set(tpl["cities"].values()) == {"?"} and tpl["display"] == ["?"] * 7
    assert json.loads(run("position", "template", "--map", "italia", "--players", 3, "--names", "Ann,Bob,Cid").stdout) \
        == tpl
    r = refused("position", "check", out, key=f"{out}: 44 fields to fill in (listed on stdout)")
    lines = r.stdout.splitlines()
    assert len(lines) == 25 + 11 + 7 + 1
    assert lines[0] == "$.cities.Aquileia: to fill in: the good of Aquileia (A, Venetia): brick, food, tool, wine, cloth"
    assert "$.display[6]: to fill in: the card at position 7 of the display (e.g. Architect/I), or null if empty" in lines


def test_filled_template_passes_check_and_tracks(tmp_path):
    out = tmp_path / "t.json"
    run("position", "template", "--map", "italia", "--players", 3, "--out", out)
    tpl = json.loads(out.read_text())
    table = Game.new("italia", 3, seed=3).to_json()
    tpl["cities"] = table["cities"]
    tpl["display"] = table["display"]
    tpl["provinces"] = {p: {"marker": "?", "side": "goods"} for p in table["provinces"]}
    out.write_text(json.dumps(tpl))
    r = refused("position", "check", out, key="12 fields to fill in")
    assert "$.provinces.Sicilia.marker: to fill in: the good on the bonus marker of Sicilia (its most valuable city " \
           f"good): {table['provinces']['Sicilia']['marker']} from its cities' goods (--fill writes it in)" in r.stdout
    tpl["provinces"] = table["provinces"]
    out.write_text(json.dumps(tpl))
    r = refused("position", "check", out, key="1 field to fill in")
    prefix = "$.unseen: to fill in: the cards still in the stack; from the display and the hands: "
    suffix = " (--fill writes it in)\n"
    assert r.stdout.startswith(prefix) and r.stdout.endswith(suffix)
    tpl["unseen"] = json.loads(r.stdout[len(prefix):-len(suffix)])
    assert tpl["unseen"] == table["unseen"]
    out.write_text(json.dumps(tpl))
    r = run("position", "check", out)
    assert r.stdout == (f"{out}: a sound position: Italia, 3 players; turn 1 (round 1): P1's turn; P1 decides now: "
                        f"play (plays a card from hand)\n")
    assert json.loads(run("position", "check", out, "--json").stdout) == []
    f = tmp_path / "g.json"
    run("new", f, "--position", out)
    run("play", f, "play Architect", "move land Roma > Casinum-Roma", "done")
    assert run("undo", f, "--turn").stdout.startswith("undone: turn 1 (round 1), P1 (Architect), 3 moves")


def test_check_lists_every_inconsistency(tmp_path):
    pos = Game.new("italia", 3, seed=3, names=["Ann", "Bob", "Cid"]).to_json()
    pos["players"][0]["hand"].pop("Prefect")
    pos["players"][1]["hand"]["Architect"] = 2
    pos["provinces"]["Sicilia"]["marker"] = "brick"
    f = tmp_path / "p.json"
    f.write_text(json.dumps(pos))
    r = refused("position", "check", f, key=f"{f}: 3 problems (listed on stdout)")
    cities = ", ".join(f"{c} {pos['cities'][c]}" for c in ("Messana", "Panormus", "Syracusae"))
    best = Game.new("italia", 3, seed=3).to_json()["provinces"]["Sicilia"]["marker"]
    assert r.stdout.splitlines() == [
        "$.players[0].hand: 0 Prefect in hand and discard pile, but every player keeps the 2 of the starting hand",
        "$.players[1].hand: Bob holds 2 Architect (hand and discard pile), 1 more than the starting hand, but 0 "
        "Architect of decks I-III are missing from the display and the unseen cards",
        f"$.provinces.Sicilia.marker: brick, but the bonus marker shows the most valuable good of Sicilia's cities: "
        f"{best} ({cities})",
    ]
    data = json.loads(CliRunner().invoke(main, ["position", "check", str(f), "--json"]).stdout)
    assert [d["path"] for d in data] == ["$.players[0].hand", "$.players[1].hand", "$.provinces.Sicilia.marker"]


def test_position_commands_bad_input(tmp_path):
    out = tmp_path / "t.json"
    out.write_text("keep me")
    refused("position", "template", "--map", "mars", "--players", 3, key="--map: unknown map 'mars'", folder=tmp_path)
    refused("position", "template", "--map", "italia", "--players", 7, key="--players", folder=tmp_path)
    refused("position", "template", "--players", 3, key="Missing option '--map'", folder=tmp_path)
    refused("position", "template", "--map", "italia", "--players", 2, "--names", "A,B,C",
            key="--names: 3 names given for 2 players", folder=tmp_path)
    refused("position", "template", "--map", "italia", "--out", out, key="already exists", folder=tmp_path)
    refused("position", "template", "--map", "italia", "--out", tmp_path, key="is a folder", folder=tmp_path)
    refused("position", "check", tmp_path / "none.json", key="not found", folder=tmp_path)
    refused("position", "check", out, key="is not valid JSON", folder=tmp_path)
    refused("position", "inspect", out, key="No such command 'inspect'", folder=tmp_path)
