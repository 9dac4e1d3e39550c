"""Bad inputs to every command: one line `error: ...` on stderr naming the problem, exit code 2,
no traceback, and no file changed or created."""
import json
import os
import random

import pytest
from click.testing import CliRunner

from concordia_ai.cli import main
from concordia_ai.engine.game import Game
from concordia_ai.table.game_file import GameFile

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

    # hardening (issue 11): files that once ended in an internal error, a hang or a silent acceptance
    (tmp_path / "latin1.txt").write_bytes("Londinium=caf\xe9\n".encode("latin-1"))
    (tmp_path / "latin1.toml").write_bytes('type = "ismcts"\n# caf\xe9\n'.encode("latin-1"))
    _write(tmp_path / "deep.json", "[" * 100_000 + "]" * 100_000)
    _write(tmp_path / "digits.json", json.dumps(good).replace('"version": 1', '"version": ' + "1" * 5000))
    big = json.loads(json.dumps(good))
    big["initial"]["players"][0]["coins"] = "BIG"
    _write(tmp_path / "bigint.json", json.dumps(big).replace('"BIG"', "9" * 5000))
    _write(tmp_path / "vtrue.json", {**good, "version": True})
    big_turn = json.loads(json.dumps(good))
    big_turn["initial"]["turn"]["number"] = 2 ** 31
    _write(tmp_path / "bigturn.json", big_turn)
    os.mkfifo(tmp_path / "fifo.json")
    _write(tmp_path / "out5.toml", 'out = 5\n[bots]\na = "random"\nb = "random"\n')
    _write(tmp_path / "gtrue.toml", 'games = true\n[bots]\na = "random"\nb = "random"\n')
    _write(tmp_path / "gfloat.toml", 'games = 1e30\n[bots]\na = "random"\nb = "random"\n')
    _write(tmp_path / "jobs0.toml", 'jobs = 0\n[bots]\na = "random"\nb = "random"\n')
    _write(tmp_path / "seedtrue.toml", 'seed = true\n[bots]\na = "random"\nb = "random"\n')
    _write(tmp_path / "schedno.toml", 'backend = "dask"\nscheduler = "no address"\n[bots]\na = "random"\n'
                                      'b = "random"\n')
    _write(tmp_path / "itbig.toml", 'type = "ismcts"\niterations = 3000000000\n')
    (tmp_path / "logs").mkdir()
    record = {"block": 0, "rotation": 0, "index": 0, "seed": 1, "board": "imperium", "players": 2,
              "seats": [{"bot": "a", "spec": "random", "seed": 1}, {"bot": "b", "spec": "random", "seed": 2}],
              "scores": [{"total": 50}, {"total": 40}], "ranking": [0, 1], "ranks": [1, 2]}
    _write(tmp_path / "logs" / "noplayers.jsonl", json.dumps({k: v for k, v in record.items() if k != "players"}) + "\n")
    _write(tmp_path / "logs" / "deep.jsonl", "[" * 100_000 + "]" * 100_000 + "\n")
    _write(tmp_path / "logs" / "badranks.jsonl", json.dumps({**record, "ranks": [1, 7]}) + "\n")
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
    (["play", "{d}/position.json", "done"], "concordia new GAME_FILE --position"),
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
    (["play", "{d}/game.json"], "no move given"),
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

    # class 3: once an internal error (exit 1), now a refusal
    (["new", "{d}/n.json", "--players", "3", "--cities", "@{d}/latin1.txt", "--display", DISPLAY],
     "--cities: {d}/latin1.txt is not UTF-8 text (bad byte at offset 13)"),
    (["new", "{d}/n.json", "--players", "3", "--cities", cities_arg(), "--display", "@{d}/latin1.txt"],
     "--display: {d}/latin1.txt is not UTF-8 text"),
    (["tournament", "--bot", "a={d}/latin1.toml", "--bot", "b=random", "--out", "{d}/t"], "is not UTF-8 text"),
    (["tournament", "--config", "{d}/latin1.toml", "--out", "{d}/t"], "--config: {d}/latin1.toml is not UTF-8"),
    (["show", "{d}/deep.json"], "nests lists or objects 100,000 deep; at most 64"),
    (["rate", "{d}/logs/deep.jsonl"], "line 1 is not a game record (nests lists or objects 100,000 deep"),
    (["show", "{d}/digits.json"], "holds a 5,000-digit integer; at most 40 digits"),
    (["score", "{d}/bigint.json"], "5,000-digit integer"),
    (["hint", "{d}/game.json", "--iterations", "30000000000"], "--iterations"),
    (["tournament", "--bot", "a=ismcts:iterations=3000000000", "--bot", "b=random", "--out", "{d}/t"],
     "iterations: 3000000000 is out of range for search iterations; give an integer in 1..2,147,483,647"),
    (["tournament", "--bot", "a={d}/itbig.toml", "--bot", "b=random", "--out", "{d}/t"], "1..2,147,483,647"),
    (["tournament", "--config", "{d}/out5.toml"], "out must be a string"),
    (["tournament", "--bot", "a=random", "--bot", "b=random", "--games", "2", "--jobs", "1", "--out", "/proc/self"],
     "--out: cannot write /proc/self"),
    (["tournament", "--bot", "a=random", "--bot", "b=random", "--backend", "dask", "--scheduler", "no address",
      "--out", "{d}/t"], "--scheduler: 'no address' is not a scheduler address"),
    (["tournament", "--config", "{d}/schedno.toml", "--out", "{d}/t"], "is not a scheduler address"),
    (["rate", "{d}/logs/noplayers.jsonl"], "line 1 is not a game record (missing players)"),
    (["rate", "{d}/logs/badranks.jsonl"], "ranks is not one rank 1..players per player"),
    (["show", "/dev/zero"], "cannot read /dev/zero: it is a device, not a regular file"),
    (["rate", "/dev/zero"], "it is a device"),
    # class 4: once a hang or runaway work
    (["hint", "{d}/game.json", "--time", "inf"], "'inf' is not a finite number; give a number in 0.001..86,400"),
    (["hint", "{d}/game.json", "--time", "nan"], "not a finite number"),
    (["hint", "{d}/game.json", "--time", "1e9"], "out of range for search seconds"),
    (["hint", "{d}/game.json", "--bot", "ismcts:seconds=inf"], "seconds: inf is not a finite number"),
    (["tournament", "--bot", "a=ismcts:seconds=inf", "--bot", "b=random", "--out", "{d}/t"], "not a finite number"),
    (["show", "{d}/fifo.json"], "it is a FIFO (named pipe), not a regular file"),
    (["tournament", "--bot", "a=random", "--bot", "b=random", "--games", "1" + "0" * 30, "--out", "{d}/t"],
     "out of range for tournament games; give an integer in 1..1,000,000"),
    (["tournament", "--config", "{d}/gfloat.toml", "--out", "{d}/t"], "games: 1e+30 is out of range"),
    (["hint", "{d}/game.json", "--top", "100000"], "--top"),
    # class 5: once silently accepted
    (["tournament", "--bot", "a=random", "--bot", "b=random", "--jobs", "0", "--out", "{d}/t"],
     "'0' is out of range for parallel games; give an integer in 1..1,024"),
    (["hint", "{d}/game.json", "--jobs", "0"], "out of range for search jobs"),
    (["tournament", "--config", "{d}/gtrue.toml", "--out", "{d}/t"], "games: true is not a number"),
    (["tournament", "--config", "{d}/jobs0.toml", "--out", "{d}/t"], "jobs: 0 is out of range"),
    (["tournament", "--config", "{d}/seedtrue.toml", "--out", "{d}/t"], "seed: true is not a number"),
    (["show", "{d}/vtrue.json"], "$.version True is not supported"),
    (["tournament", "--bot", "a=random", "--bot", "b=random", "--sprt", "0,inf", "--out", "{d}/t"], "--sprt"),
    (["tournament", "--bot", "a=random", "--bot", "b=random", "--seed", "-1", "--out", "{d}/t"], "--seed"),
    (["rate", "{d}/logs/noplayers.jsonl", "--bootstrap", "1e9"], "--bootstrap"),
    # class 9: the field named is the right one
    (["show", "{d}/bigturn.json"], "$.initial.turn.number: 2147483648 is more than 1000000"),
    # class 11: TLS only with a tls:// scheduler, and with readable files
    (["tournament", "--bot", "a=random", "--bot", "b=random", "--backend", "dask", "--scheduler",
      "tcp://10.0.0.5:8786", "--tls-ca-file", "{d}/game.json", "--out", "{d}/t"], "need a tls:// scheduler"),
    (["tournament", "--bot", "a=random", "--bot", "b=random", "--backend", "dask", "--scheduler",
      "tls://10.0.0.5:8786", "--tls-ca-file", "{d}/fifo.json", "--out", "{d}/t"], "--tls-ca-file: cannot read"),
    (["tournament", "--bot", "a=random", "--bot", "b=random", "--backend", "dask", "--scheduler",
      "tls://10.0.0.5:8786", "--tls-ca-file", "{d}/game.json", "--tls-cert", "{d}/game.json", "--out", "{d}/t"],
     "--tls-cert and --tls-key go together"),
    (["tournament", "--bot", "a=random", "--bot", "b=random", "--tls-ca-file", "{d}/game.json", "--out", "{d}/t"],
     "are for a remote cluster"),
    (["analyze", "--root", "{d}/nofolder"], "--root"),
]


def snapshot(folder):
    return {p.name: (p.read_bytes() if p.is_file() else None) for p in sorted(folder.iterdir())}


@pytest.mark.parametrize("args,key", CASES, ids=[f"{i:03d}-{c[0][0]}" for i, c in enumerate(CASES)])
def test_bad_input(files, args, key):
    before = snapshot(files)
    argv = [a.replace("{d}", str(files)) for a in args]
    key = key.replace("{d}", str(files))
    result = CliRunner().invoke(main, argv)
    assert result.exit_code == 2, (argv, result.stdout, result.stderr)
    err = result.stderr
    assert "Traceback" not in err and result.exception is None or isinstance(result.exception, SystemExit)
    assert err.startswith("error: ") and err.endswith("\n") and err.count("\n") == 1, err
    assert key in err, err
    assert result.stdout == ""
    assert snapshot(files) == before          # nothing changed, nothing created


def test_corpus_is_large_enough():
    assert len(CASES) >= 100


SECRET = "root:x:0:0:hunter2:/root:/bin/bash"


@pytest.mark.parametrize("option", ["--cities", "--display"])
def test_list_files_are_never_echoed(tmp_path, option):
    """`--cities @/etc/passwd`: the error says what is wrong and where, never a line of the file."""
    f = tmp_path / "passwd"
    f.write_text(f"# a comment\n{SECRET}\nnobody=hunter2\n")
    args = ["new", str(tmp_path / "n.json"), "--players", "3", "--cities", cities_arg(), "--display", DISPLAY]
    args[args.index(option) + 1] = f"@{f}"
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2 and f"{f} line 2" in result.stderr, result.stderr
    assert "hunter2" not in result.stderr and "root:x" not in result.stderr
    assert not (tmp_path / "n.json").exists()


def test_a_token_typed_on_the_command_line_is_quoted():
    result = CliRunner().invoke(main, ["new", "n.json", "--players", "3", "--cities", "Atlantis=food",
                                       "--display", DISPLAY])
    assert result.exit_code == 2 and "'Atlantis'" in result.stderr


def test_province_names_ignore_case(files):
    data = json.loads((files / "game.json").read_text())
    data["initial"]["provinces"] = {k.upper(): v for k, v in data["initial"]["provinces"].items()}
    (files / "upper.json").write_text(json.dumps(data))
    result = CliRunner().invoke(main, ["show", str(files / "upper.json")])
    assert result.exit_code == 0, result.stderr


def test_play_is_all_or_nothing(files):
    """The first moves are legal, the third is not: nothing is recorded."""
    before = (files / "game.json").read_bytes()
    result = CliRunner().invoke(main, ["play", str(files / "game.json"), "move land Roma > Novaria-Roma",
                                       "build Novaria", "build Roma"])
    assert result.exit_code == 2 and "move 3 of 3 'build Roma'" in result.stderr and "legal now: done" in result.stderr
    assert (files / "game.json").read_bytes() == before


def test_internal_error_is_one_line(files, monkeypatch):
    """A bug (an unexpected exception) still prints one line, with exit code 1."""
    import concordia_ai.table.render as render
    monkeypatch.setattr(render, "show", lambda *a, **k: 1 / 0)
    result = CliRunner().invoke(main, ["show", str(files / "game.json")])
    assert result.exit_code == 1 and result.stderr.count("\n") == 1 and "internal error" in result.stderr


def test_python_digit_limit_is_a_refusal_wherever_it_is_hit(files, monkeypatch):
    """Defence in depth: the readers cap integers at 40 digits, and should an int() of thousands of
    digits still be reached, the error path turns Python's ValueError into a refusal (exit 2)."""
    import concordia_ai.table.render as render
    monkeypatch.setattr(render, "show", lambda *a, **k: int("9" * 5000))
    result = CliRunner().invoke(main, ["show", str(files / "game.json")])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1 and "thousands of digits" in result.stderr


def test_tls_options_reach_dask_security(files, monkeypatch):
    """--tls-* become distributed.security.Security with encryption required, passed to the Client."""
    pytest.importorskip("distributed")
    import dask.distributed
    seen = {}

    def client(address, timeout=None, security=None):
        seen.update(address=address, security=security)
        raise OSError("refused (test)")

    monkeypatch.setattr(dask.distributed, "Client", client)
    for name in ("ca.pem", "cert.pem", "key.pem"):
        (files / name).write_text("-----BEGIN TEST-----\n")
    result = CliRunner().invoke(main, ["tournament", "--bot", "a=random", "--bot", "b=random", "--backend", "dask",
                                       "--scheduler", "tls://127.0.0.1:8786", "--tls-ca-file", str(files / "ca.pem"),
                                       "--tls-cert", str(files / "cert.pem"), "--tls-key", str(files / "key.pem"),
                                       "--out", str(files / "t"), "-q"])
    assert result.exit_code == 2 and "--scheduler: cannot connect to tls://127.0.0.1:8786" in result.stderr
    sec = seen["security"]
    assert seen["address"] == "tls://127.0.0.1:8786" and sec.require_encryption is True
    assert (sec.tls_ca_file, sec.tls_client_cert, sec.tls_client_key) == tuple(
        str(files / n) for n in ("ca.pem", "cert.pem", "key.pem"))
