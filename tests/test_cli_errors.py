"""Bad inputs to every command: one line `error: ...` on stderr naming the problem, exit code 2,
no traceback, and no file changed or created."""
import json
import random

import pytest
from click.testing import CliRunner

from concordia_ai.cli import main
from concordia_ai.game import Game
from concordia_ai.gamefile import GameFile

DISPLAY = "Architect/I,Prefect/I,Mercator/I,Colonist/I,Diplomat/I,Mason/I,Farmer/I"
CITIES = Game.new("imperium", 3, seed=5).to_json()["cities"]


def cities_arg(cities=CITIES):
    return ",".join(f"{c}={g}" for c, g in cities.items())


def swapped_tokens():
    """Two A cities with different goods given the same good: the A tokens do not match."""
    c = dict(CITIES)
    a = [name for name in ("Londinium", "Isca Dumnoniorum", "Burdigala", "Lutetia", "Massilia", "Brigantium",
                           "Olisipo", "Valentia", "Colonia Agrippina", "Vindobona", "Aquileia", "Novaria") if name in c]
    first, other = a[0], next(x for x in a if c[x] != c[a[0]])
    c[other] = c[first]
    return cities_arg(c)


def _write(path, data):
    path.write_text(data if isinstance(data, str) else json.dumps(data))


@pytest.fixture
def files(tmp_path):
    """A valid game file with some moves, a finished game, and a set of broken game files."""
    g = Game.new("imperium", 3, seed=7, names=["Ann", "Bob", "Cid"])
    gf = GameFile.create(str(tmp_path / "game.json"), g)
    gf.apply(["play Architect"])
    gf.save()
    good = json.loads((tmp_path / "game.json").read_text())

    over = Game.new("italia", 2, seed=1)
    ogf = GameFile.create(str(tmp_path / "over.json"), over)
    moves, rng = [], random.Random(0)
    while not over.is_over:
        m = rng.choice(over.legal_moves())
        moves.append(over.text(m))
        over.apply(m)
    ogf.apply(moves)
    ogf.save()

    _write(tmp_path / "notjson.json", "{not json")
    _write(tmp_path / "array.json", [1, 2])
    _write(tmp_path / "position.json", g.to_json())
    _write(tmp_path / "version.json", {**good, "version": 9})
    bad_initial = json.loads(json.dumps(good))
    bad_initial["initial"]["players"][0]["coins"] = -1
    _write(tmp_path / "badinit.json", bad_initial)
    bad_city = json.loads(json.dumps(good))
    bad_city["initial"]["cities"]["Atlantis"] = "brick"
    _write(tmp_path / "badcity.json", bad_city)
    _write(tmp_path / "movesobj.json", {**good, "moves": {"a": 1}})
    _write(tmp_path / "illegal.json", {**good, "moves": ["play Architect", "play Senator"]})
    mismatch = json.loads(json.dumps(good))
    mismatch["current"]["players"][1]["coins"] = 99
    _write(tmp_path / "mismatch.json", mismatch)
    _write(tmp_path / "noinitial.json", {k: v for k, v in good.items() if k != "initial"})
    _write(tmp_path / "binary.json", "")
    (tmp_path / "binary.json").write_bytes(b"\xff\xfe\x00garbage")
    (tmp_path / "folder.json").mkdir()
    return tmp_path


# (arguments with {d} = the folder of the fixture files, key word expected in the message)
CASES = [
    # new
    (["new", "{d}/game.json"], "already exists"),
    (["new", "{d}/n.json", "--map", "narnia"], "unknown map 'narnia'"),
    (["new", "{d}/n.json", "--players", "1"], "--players"),
    (["new", "{d}/n.json", "--players", "6"], "--players"),
    (["new", "{d}/n.json", "--players", "three"], "--players"),
    (["new", "{d}/n.json", "--seed", "-3"], "--seed"),
    (["new", "{d}/n.json", "--seed", "abc"], "--seed"),
    (["new", "{d}/n.json", "--players", "3", "--names", "Ann,Bob"], "--names"),
    (["new", "{d}/n.json", "--names", "Ann,ann"], "used twice"),
    (["new", "{d}/n.json", "--names", "Ann,,Cid"], "empty name"),
    (["new", "{d}/n.json", "--names", "Ann,chance"], "reserved"),
    (["new", "{d}/n.json", "--players", "3", "--cities", cities_arg()], "--display"),
    (["new", "{d}/n.json", "--players", "3", "--display", DISPLAY], "--cities"),
    (["new", "{d}/n.json", "--players", "3", "--cities", "Londinium:food", "--display", DISPLAY], "CITY=GOOD"),
    (["new", "{d}/n.json", "--players", "3", "--cities", "Roma=tool", "--display", DISPLAY], "unknown city"),
    (["new", "{d}/n.json", "--players", "3", "--cities", "Londinium=gold", "--display", DISPLAY], "unknown good"),
    (["new", "{d}/n.json", "--players", "3", "--cities", "Londinium=food,Lutetia=cloth", "--display", DISPLAY],
     "no good given for 28 of 30 cities"),
    (["new", "{d}/n.json", "--players", "3", "--cities", swapped_tokens(), "--display", DISPLAY], "tokens"),
    (["new", "{d}/n.json", "--players", "3", "--cities", cities_arg() + ",Londinium=wine", "--display", DISPLAY],
     "given twice"),
    (["new", "{d}/n.json", "--players", "3", "--cities", "@{d}/nofile.txt", "--display", DISPLAY], "cannot read"),
    (["new", "{d}/n.json", "--players", "3", "--cities", cities_arg(), "--display", "Architect/I,Prefect/I"],
     "7 display cards"),
    (["new", "{d}/n.json", "--players", "3", "--cities", cities_arg(),
      "--display", DISPLAY.replace("Farmer/I", "Wizard/I")], "unknown market card 'Wizard/I'"),
    (["new", "{d}/n.json", "--players", "3", "--cities", cities_arg(),
      "--display", DISPLAY.replace("Farmer/I", "Weaver/II")], "deck I"),
    (["new", "{d}/n.json", "--players", "3", "--cities", cities_arg(),
      "--display", DISPLAY.replace("Farmer/I", "Consul/IV")], "3-player game"),
    (["new", "{d}/n.json", "--players", "3", "--cities", cities_arg(),
      "--display", DISPLAY.replace("Farmer/I", "Mason/I")], "twice"),
    (["new", "{d}/n.json", "--players", "3", "--seed", "4", "--cities", cities_arg(), "--display", DISPLAY],
     "--seed"),
    (["new", "{d}/nofolder/n.json"], "does not exist"),
    (["new", "{d}/folder.json", "--force"], "is a folder"),
    (["new"], "Missing argument 'GAME_FILE'"),
    # reading game files
    (["show", "{d}/missing.json"], "not found"),
    (["show", "{d}/notjson.json"], "not valid JSON"),
    (["show", "{d}/array.json"], "not a game file"),
    (["show", "{d}/position.json"], "$.format"),
    (["show", "{d}/version.json"], "$.version 9"),
    (["show", "{d}/badinit.json"], "$.initial.players[0].coins"),
    (["show", "{d}/badcity.json"], "$.initial.cities.Atlantis"),
    (["show", "{d}/noinitial.json"], "$.initial"),
    (["moves", "{d}/movesobj.json"], "$.moves"),
    (["moves", "{d}/illegal.json"], "$.moves[1] 'play Senator'"),
    (["score", "{d}/mismatch.json"], "$.current.players[1].coins"),
    (["score", "{d}/binary.json"], "is not UTF-8 text (bad byte at offset 0)"),
    (["show", "{d}/folder.json"], "is a folder"),
    (["show", "{d}/game.json", "--colour"], "No such option"),
    (["hnit", "{d}/game.json"], "No such command"),
    # play
    (["play", "{d}/game.json"], "Missing argument 'MOVE"),
    (["play", "{d}/game.json", " ; "], "no move given"),
    (["play", "{d}/game.json", "fly away"], "unknown move 'fly away'"),
    (["play", "{d}/game.json", "play Senator"], "not a legal move"),
    (["play", "{d}/game.json", "move land Roma > Novaria-Roma", "build Atlantis"], "move 2 of 2 'build Atlantis'"),
    (["play", "{d}/game.json", "move land roma > aquileia"], "ambiguous"),
    (["play", "{d}/game.json", "move", "land"], "quote each move"),
    (["play", "{d}/game.json", "reveal Weaver/II"], "legal now"),
    (["play", "{d}/over.json", "done"], "game is over"),
    (["play", "{d}/missing.json", "done"], "not found"),
    # undo
    (["undo", "{d}/game.json", "--steps", "0"], "--steps"),
    (["undo", "{d}/game.json", "--steps", "5"], "only 1 move"),
    (["undo", "{d}/game.json", "--steps", "x"], "--steps"),
    (["undo", "{d}/illegal.json"], "$.moves[1]"),
]


def snapshot(folder):
    return {p.name: (p.read_bytes() if p.is_file() else None) for p in sorted(folder.iterdir())}


@pytest.mark.parametrize("args,key", CASES, ids=[f"{i:02d}-{c[0][0]}" for i, c in enumerate(CASES)])
def test_bad_input(files, args, key):
    before = snapshot(files)
    argv = [a.replace("{d}", str(files)) for a in args]
    result = CliRunner().invoke(main, argv)
    assert result.exit_code == 2, (argv, result.stdout, result.stderr)
    err = result.stderr
    assert "Traceback" not in err and result.exception is None or isinstance(result.exception, SystemExit)
    assert err.startswith("error: ") and err.endswith("\n") and err.count("\n") == 1, err
    assert key in err, err
    assert result.stdout == ""
    assert snapshot(files) == before          # nothing changed, nothing created


def test_corpus_is_large_enough():
    assert len(CASES) >= 30


def test_play_is_all_or_nothing(files):
    """The first moves are legal, the third is not: nothing is recorded."""
    before = (files / "game.json").read_bytes()
    result = CliRunner().invoke(main, ["play", str(files / "game.json"), "move land Roma > Novaria-Roma",
                                       "build Novaria", "build Roma"])
    assert result.exit_code == 2 and "move 3 of 3 'build Roma'" in result.stderr and "legal now: done" in result.stderr
    assert (files / "game.json").read_bytes() == before


def test_internal_error_is_one_line(files, monkeypatch):
    """A bug (an unexpected exception) still prints one line, with exit code 1."""
    import concordia_ai.render as render
    monkeypatch.setattr(render, "show", lambda *a, **k: 1 / 0)
    result = CliRunner().invoke(main, ["show", str(files / "game.json")])
    assert result.exit_code == 1 and result.stderr.count("\n") == 1 and "internal error" in result.stderr
