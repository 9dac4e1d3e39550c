"""Bad input is refused at every way in, with one line naming it (issue 17): player names that would
forge or garble output, an unknown field of a position, strings for numbers in analysis queries, and
"?" placeholders anywhere in a file given to `position check`."""
import json

import pytest

from concordia_ai.engine.game import Game, GameError
from concordia_ai.engine.position import PositionError
from concordia_ai.protocol import analyze
from concordia_ai.table.game_file import GameFile
from cli_helpers import run

PRINTABLE = "a name is printable text: letters, digits, spaces and punctuation"
BAD_NAMES = [
    ("Ann\nnext: Bob wins", "'Ann\\nnext: Bob wins' holds the character U+000A (a control or formatting "
                            f"character); {PRINTABLE}"),
    ("Ann\x00", f"'Ann\\x00' holds the character U+0000 (a control or formatting character); {PRINTABLE}"),
    ("A\x1b[31mnn", f"'A\\x1b[31mnn' holds the character U+001B (a control or formatting character); {PRINTABLE}"),
    ("Ann\u202eboB", f"'Ann\\u202eboB' holds the character U+202E (a control or formatting character); {PRINTABLE}"),
    ("A" * 100_000, "'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA... is 100,000 characters long; a name has at most 40"),
]
IDS = ["newline", "nul", "escape", "rtl-override", "100k"]


def stderr_line(result):
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return lines[0]


@pytest.mark.parametrize("name,why", BAD_NAMES, ids=IDS)
def test_a_bad_name_is_refused_by_new_names(tmp_path, name, why):
    r = run("new", tmp_path / "g.json", "--names", f"{name},Bob", code=2)
    assert stderr_line(r) == f"error: --names: {why}"
    assert not (tmp_path / "g.json").exists()
    with pytest.raises(GameError) as e:
        Game.new("italia", 2, names=[name, "Bob"])
    assert str(e.value) == f"names: {why}"


@pytest.mark.parametrize("name,why", BAD_NAMES, ids=IDS)
def test_a_bad_name_is_refused_in_a_position_file(tmp_path, name, why):
    pos = Game.new("italia", 2, seed=1).to_json()
    pos["players"][0]["name"] = name
    (tmp_path / "p.json").write_text(json.dumps(pos))
    with pytest.raises(PositionError) as e:
        Game.from_json(pos)
    assert str(e.value) == f"$.players[0].name: {why}"
    r = run("new", tmp_path / "g.json", "--position", tmp_path / "p.json", code=2)
    assert why in stderr_line(r) and "$.players[0].name" in r.stderr
    assert not (tmp_path / "g.json").exists()


@pytest.mark.parametrize("name,why", BAD_NAMES, ids=IDS)
def test_a_bad_name_is_refused_in_a_game_file(tmp_path, name, why):
    gf = GameFile.create(str(tmp_path / "g.json"), Game.new("italia", 2, seed=1))
    data = gf.to_json()
    data["initial"]["players"][0]["name"] = name
    (tmp_path / "g.json").write_text(json.dumps(data))
    r = run("show", tmp_path / "g.json", code=2)
    assert stderr_line(r) == f"error: {tmp_path / 'g.json'}: bad initial position at $.initial.players[0].name: {why}"


def test_an_unknown_top_level_field_of_a_position_is_refused_with_did_you_mean(tmp_path):
    pos = Game.new("italia", 2, seed=1).to_json()
    pos["praefectus_magnus_typo"] = pos["praefectus_magnus"]
    (tmp_path / "p.json").write_text(json.dumps(pos))
    valid = ("format, version, board, options, players, cities, provinces, display, unseen, stack_order, chance, "
             "praefectus_magnus, turn, end, intermediate_paid, rng, nile_marker")
    r = run("position", "check", tmp_path / "p.json", code=2)
    assert r.stdout == "$.praefectus_magnus_typo: unknown field 'praefectus_magnus_typo'; did you mean praefectus_magnus?\n"
    with pytest.raises(PositionError) as e:
        Game.from_json(dict(pos, zebra=1))
    assert str(e.value) == "$.praefectus_magnus_typo: unknown field 'praefectus_magnus_typo'; did you mean praefectus_magnus?"
    del pos["praefectus_magnus_typo"]
    with pytest.raises(PositionError) as e:
        Game.from_json(dict(pos, zebra=1))
    assert str(e.value) == f"$.zebra: unknown field 'zebra'; valid: {valid}"


@pytest.mark.parametrize("field,value,valid", [
    ("iterations", "100", "an integer in 1..2,147,483,647"),
    ("lines", "2", "an integer in 1..1,000"),
    ("seconds", "1", "a number in 0.001..86,400"),
    ("seed", "3", "an integer in 0..9,223,372,036,854,775,807"),
])
def test_analyze_refuses_a_string_for_a_number(field, value, valid):
    q = {"id": 1, "position": Game.new("italia", 2, seed=1).to_json(), field: value}
    if field != "iterations":
        q["iterations"] = 20
    out = []
    analyze.handle(json.dumps(q), out.append)
    assert out == [{"id": 1, "error": f"{field}: {value!r} is a string, not a number; give {valid}", "field": field}]


def _template(tmp_path):
    run("position", "template", "--map", "italia", "--players", 2, "--out", tmp_path / "t.json")
    return json.loads((tmp_path / "t.json").read_text())


@pytest.mark.parametrize("change,first", [
    (lambda t: "?", "$: a position is a JSON object"),
    (lambda t: ["?"], "$: a position is a JSON object"),
    (lambda t: dict(t, cities=["?"]), "$.cities[0]: to fill in"),
    (lambda t: dict(t, cities="?"), "$.cities: to fill in"),
    (lambda t: dict(t, provinces=["?"]), "$.provinces[0]: to fill in"),
    (lambda t: dict(t, **{"display[x]": "?"}), "$.display[x]: to fill in"),
    (lambda t: dict(t, cities={"?": "?"}), "$.cities.?: to fill in"),
    (lambda t: dict(t, players=["?", "?"]), "$.players[0]: to fill in"),
], ids=["whole-string", "whole-list", "cities-list", "cities-string", "provinces-list", "key", "city-key",
        "players-strings"])
def test_position_check_with_a_placeholder_anywhere_is_one_line_and_exit_2(tmp_path, change, first):
    (tmp_path / "p.json").write_text(json.dumps(change(_template(tmp_path))))
    r = run("position", "check", tmp_path / "p.json", code=2)
    assert first in r.stdout.splitlines()
    assert stderr_line(r).startswith(f"error: {tmp_path / 'p.json'}: ")
