"""The fixes from a full game tracked at the table (issue 16, part 1): each on the command line, with the
exact message. The game: 3-player Italia, seed 1, Ann, Bob and Cy."""
import json

from cli_helpers import run


def italia(tmp_path, *options):
    f = tmp_path / "g.json"
    run("new", f, "--force", "--map", "italia", "--players", 3, "--seed", 1, "--names", "Ann,Bob,Cy", *options)
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


# ---------------------------------------------------------------- 4. announcements
def random_game_moves(seed=3):
    """The moves of a whole game of random legal moves (Italia, seed 1, intermediate scoring)."""
    import random
    from concordia_ai.engine.game import Game
    g = Game.new("italia", 3, seed=1, names=["Ann", "Bob", "Cy"], intermediate_scoring=True)
    r, out = random.Random(seed), []
    while not g.is_over:
        m = r.choice(g.legal_moves())
        out.append(g.text(m))
        g.apply(m)
    return out


def at_move(tmp_path, k):
    """The game file of that random game after its first k moves."""
    from concordia_ai.table.game_file import GameFile
    f = italia(tmp_path, "--intermediate-scoring")
    gf = GameFile.load(str(f))
    gf.moves = random_game_moves()[:k]
    gf.game = gf.replay(gf.moves)
    gf.save()
    return f


def test_announcements(tmp_path):
    all_moves = random_game_moves()
    assert len(all_moves) == 579
    f = at_move(tmp_path, 30)
    r = run("play", f, all_moves[30])
    assert r.stdout.splitlines()[:2] == ["played: colonist land (Bob, turn 11, round 4)",
                                         "announce: intermediate scoring: Ann 13, Bob 13, Cy 13 VP"]
    f = at_move(tmp_path, 121)
    r = run("play", f, all_moves[121])
    assert r.stdout.splitlines()[:2] == ["played: produce Corsica (Cy, turn 51, round 17)",
                                         "announce: the Praefectus Magnus passes from Cy to Bob"]
    f = at_move(tmp_path, 576)
    r = run("play", f, all_moves[576])
    assert r.stdout.splitlines()[:2] == ["played: buy Diplomat/III (Ann, turn 235, round 79)",
                                         "announce: the Concordia card goes to Ann (Ann took the last card of the "
                                         "display); final turns left: 2"]
    r = run("play", f, *all_moves[577:])
    assert r.stdout.splitlines()[-4:] == ["played: play Tribune (Bob, turn 236, round 79)",
                                          "played: play Mason (Cy, turn 237, round 79)",
                                          "announce: the game is over; final scores: Ann 86, Bob 84, Cy 81 VP",
                                          f"game over; Ann wins (concordia score {f} for the table)"]
    table = run("score", f).stdout
    assert "1. Ann 86 VP" in table and "2. Bob 84 VP" in table and "3. Cy 81 VP" in table


# ---------------------------------------------------------------- 2. redo
def test_redo_after_undo_and_undo_turn(tmp_path):
    f = italia(tmp_path)
    run("play", f, "play prefect; produce corsica")
    run("play", f, "play senator")
    run("undo", f)
    run("undo", f, "--turn")
    data = json.loads(f.read_text())
    assert data["moves"] == [] and data["redo"] == [["play Senator"], ["play Prefect", "produce Corsica"]]
    r = run("redo", f)
    assert r.stdout.splitlines()[:3] == ["redone: play Prefect (Ann, turn 1, round 1)",
                                         "redone: produce Corsica (Ann, turn 1, round 1)",
                                         "redo again: 1 more move undone before (concordia redo " + str(f) + ")"]
    r = run("redo", f)
    assert r.stdout.splitlines()[0] == "redone: play Senator (Bob, turn 2, round 1)"
    data = json.loads(f.read_text())
    assert data["moves"] == ["play Prefect", "produce Corsica", "play Senator"] and "redo" not in data
    r = run("redo", f, code=2)
    assert r.stderr == f"error: nothing to redo in {f}: redo follows undo, until a new move is played\n"


def test_a_new_move_ends_redo(tmp_path):
    f = italia(tmp_path)
    run("play", f, "play senator")
    run("undo", f)
    run("play", f, "play architect")
    assert "redo" not in json.loads(f.read_text())
    r = run("redo", f, code=2)
    assert r.stderr == f"error: nothing to redo in {f}: redo follows undo, until a new move is played\n"


def test_a_damaged_redo_field_is_reported(tmp_path):
    f = italia(tmp_path)
    data = json.loads(f.read_text())
    data["redo"] = [["play Senator"], []]
    f.write_text(json.dumps(data))
    r = run("redo", f, code=2)
    assert r.stderr == (f"error: {f}: $.redo must be a list of non-empty lists of moves in notation "
                        "(what undo took back)\n")
    data["redo"] = [["produce Corsica"]]
    f.write_text(json.dumps(data))
    r = run("redo", f, code=2)
    assert r.stderr.startswith(f"error: {f}: $.redo[0] cannot be applied again: 'produce Corsica': ")
    assert json.loads(f.read_text()) == data           # nothing changed


# ---------------------------------------------------------------- 5. names
def refused(f, text):
    """The one error line of `play F TEXT`; nothing is recorded."""
    before = f.read_bytes()
    r = run("play", f, text, code=2)
    assert f.read_bytes() == before
    assert len(r.stderr.splitlines()) == 1
    return r.stderr.strip()


def test_did_you_mean_for_misspelt_names(tmp_path):
    f = italia(tmp_path)
    run("play", f, "play prefect")
    assert refused(f, "produce corsika") == ("error: move 'produce corsika' rejected: 'corsika' is no city, "
                                             "province, card or good of Italia; did you mean Corsica?")
    run("undo", f)
    run("play", f, "play architect")
    assert refused(f, "build napoli") == ("error: move 'build napoli' rejected: 'napoli' is no city, province, "
                                          "card or good of Italia; did you mean Neapolis?")
    assert refused(f, "move sea roma > cosa-alleria") == (
        "error: move 'move sea roma > cosa-alleria' rejected: 'alleria' is no city, province, card or good of "
        "Italia; did you mean Aleria?")
    r = run("play", f, "move sea roma > cosa-aleria")
    assert r.stdout.splitlines()[0] == "played: move sea Roma > Aleria-Cosa (Ann, turn 1, round 1)"


def test_goods_in_the_plural(tmp_path):
    f = italia(tmp_path)
    r = run("play", f, "play mercator", "buy 1 bricks", "sell 2 foods")
    assert moves(f) == ["play Mercator/3", "sell 2 food", "buy 1 brick"]


def test_a_card_in_hand_by_a_prefix_with_its_number(tmp_path):
    f = at_move(tmp_path, 122)
    r = run("play", f, "play merc/5")
    assert r.stdout.splitlines()[0] == "played: play Mercator/5 (Ann, turn 52, round 18)"
    run("undo", f)
    assert refused(f, "play merc/4").startswith(
        "error: move 'play merc/4' rejected: 'play merc/4' is not a legal move for Ann: Ann holds no 'merc/4' "
        "(hand: ")


def test_a_wrong_deck_numeral_is_refused_naming_the_card_there(tmp_path):
    f = at_move(tmp_path, 38)          # Bob's Senator; the display holds Consul/II, which Bob cannot pay
    assert refused(f, "buy consul/I") == (
        "error: move 'buy consul/I' rejected: 'buy consul/I' is not a legal move for Bob: Consul/I is not in the "
        "display; its Consul is Consul/II; legal now: done, buy Prefect/I paying brick, buy Prefect/I paying wine")
    f = at_move(tmp_path, 65)          # Cy's Senator: Architect/I is there and affordable
    assert refused(f, "buy arch/II").startswith(
        "error: move 'buy arch/II' rejected: 'buy arch/II' is not a legal move for Cy: Architect/II is not in the "
        "display; its Architect is Architect/I (buy Architect/I)")
    r = run("play", f, "buy arch/I")
    assert r.stdout.splitlines()[0] == "played: buy Architect/I (Cy, turn 24, round 8)"
