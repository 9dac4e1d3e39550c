"""The fixes from a full game tracked at the table (issue 16, part 1): each on the command line, with the
exact message. The game: 3-player Italia, seed 1, Ann, Bob and Cy."""
import json

from cli_helpers import run


def italia(tmp_path, *options):
    f = tmp_path / "g.json"
    run("new", f, "--map", "italia", "--players", 3, "--seed", 1, "--names", "Ann,Bob,Cy", *options)
    return f


def moves(f):
    return json.loads(f.read_text())["moves"]


# ---------------------------------------------------------------- 1. the player and turn of every step
def test_played_lines_name_the_player_and_turn(tmp_path):
    f = italia(tmp_path)
    r = run("play", f, "play prefect; produce corsica")
    assert r.stdout.splitlines()[:2] == ["played: play Prefect (Ann, turn 1, round 1)",
                                         "played: produce Corsica (Ann, turn 1, round 1)"]


def test_play_as_refuses_another_player_and_turn(tmp_path):
    f = italia(tmp_path)
    run("play", f, "play senator; done")
    r = run("play", f, "--as", "ann", "play senator; done", code=2)
    assert r.stderr == "error: --as Ann: Ann is not to move; turn 2 (round 1): Bob is to move\n"
    r = run("play", f, "--turn", 1, "play senator; done", code=2)
    assert r.stderr == "error: --turn 1: turn 1 is not in play; turn 2 (round 1): Bob is to move\n"
    r = run("play", f, "--as", "Zed", "play senator", code=2)
    assert r.stderr == "error: --as: unknown player 'Zed'; valid: Ann, Bob, Cy\n"
    assert moves(f) == ["play Senator", "done"]
    r = run("play", f, "--as", "bob", "--turn", 2, "play senator; done")
    assert r.stdout.splitlines()[0] == "played: play Senator (Bob, turn 2, round 1)"


def test_play_as_names_the_decider_of_a_choice_in_another_turn(tmp_path):
    f = italia(tmp_path)
    run("play", f, "play senator; done")
    r = run("play", f, "--as", "Cy", "play senator", code=2)
    assert r.stderr == "error: --as Cy: Cy is not to move; turn 2 (round 1): Bob is to move\n"


def test_a_turn_typed_twice_is_warned_about(tmp_path):
    f = italia(tmp_path)
    r = run("play", f, "play senator; done")
    assert r.stderr == ""
    r = run("play", f, "play senator; done")
    assert r.stdout.splitlines()[0] == "played: play Senator (Bob, turn 2, round 1)"
    assert r.stderr == ("warning: Bob's turn 2 (round 1) repeats Ann's turn 1 move for move (play Senator; done); "
                        "if the command was typed twice, take it back with: concordia undo --turn\n")
    r = run("play", f, "play prefect")          # a turn begun is no repeat
    assert r.stderr == ""
