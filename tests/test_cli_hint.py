"""`concordia hint --step` (ISMCTS / flat MC single-move suggestions), hint errors and `concordia bots`.

Whole-turn hints, --move, play --suggested: tests/test_cli_turns.py."""
import hashlib
import json

import pytest

from concordia_ai.ai.bots import describe_bots, make_bot
from concordia_ai.engine.game import Game
from concordia_ai.table.game_file import GameFile
from cli_helpers import run

DISPLAY = "Architect/I,Prefect/I,Mercator/I,Colonist/I,Diplomat/I,Mason/I,Farmer/I"


def digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def one_line_error(result, *words):
    lines = result.stderr.strip().splitlines()
    assert lines and lines[-1].startswith("error: "), result.stderr
    for w in words:
        assert w in lines[-1], (w, lines[-1])


def test_hint_text_and_json(tmp_path):
    f = tmp_path / "game.json"
    run("new", f, "--players", 3, "--seed", 7, "--names", "Ann,Bob,Cid")
    before = digest(f)
    r = run("hint", f, "--step", "--iterations", 600, "--top", 3)
    out = r.stdout.splitlines()
    assert out[0].startswith("Ann decides (turn 1 (round 1), play); ismcts: 600 iterations")
    assert out[1].split()[:7] == ["#", "move", "win", "%", "margin", "VP", "visits"]
    # 600 iterations are far from the budgets the final-result model was fitted at, and --step searches without
    # the final choice over whole turns (focus 0) that the model was fitted with: the notes say both, last
    notes = [line for line in out if line.startswith("note: ")]
    assert len(notes) == 2 and "far from it" in notes[0] and "this search has focus 0" in notes[1]
    assert out[-2:] == notes
    assert "6 legal moves, " in out[0] and " searched" in out[0]
    out = [line for line in out if not line.startswith("note: ")]
    assert len(out) == 2 + 3
    assert out[2].split()[:3] == ["1", "play", out[2].split()[2]] and "play" in out[2]
    assert "ismcts for Ann" in r.stderr and "600/600" in r.stderr          # the progress bar
    assert digest(f) == before

    data = json.loads(run("hint", f, "--step", "--iterations", 600, "--top", 2, "--json", "--quiet").stdout)
    assert data["player"] == "Ann" and data["seat"] == 0 and data["phase"] == "play"
    assert data["rootInfo"]["iterations"] == 600 and data["rootInfo"]["nodes"] > 0
    assert len(data["candidates"]) == 2 and data["legal_moves"] == len(Game.new("imperium", 3, 7).legal_moves())
    assert 2 <= data["searched_moves"] <= data["legal_moves"]
    assert data["warnings"] == [n[len("note: "):] for n in notes]
    best = data["candidates"][0]
    assert set(best) >= {"move", "visits", "winrate", "scoreLead", "vp", "order", "pv"}
    assert 0 <= best["winrate"] <= 1 and best["pv"][0] == best["move"] and best["order"] == 0
    assert best["visits"] >= data["candidates"][1]["visits"]
    assert data["config"]["iterations"] == 600
    # same seed, same answer
    again = json.loads(run("hint", f, "--step", "--iterations", 600, "--top", 2, "--json", "--quiet").stdout)
    assert again["candidates"] == data["candidates"]
    assert digest(f) == before


def test_hint_time_budget_bot_spec_and_jobs(tmp_path):
    f = tmp_path / "game.json"
    run("new", f, "--players", 2, "--seed", 3)
    r = run("hint", f, "--step", "--time", 0.3, "--top", 1, "--json")
    data = json.loads(r.stdout)
    assert data["rootInfo"]["iterations"] > 0 and 0.2 < data["rootInfo"]["seconds"] < 1.5
    assert "/0.3 s" in r.stderr
    data = json.loads(run("hint", f, "--step", "--bot", "ismcts:iterations=400,rollout=greedy", "--json", "-q").stdout)
    assert data["rootInfo"]["iterations"] == 400 and data["config"]["rollout"] == "greedy"
    data = json.loads(run("hint", f, "--step", "--bot", "flatmc:iterations=300", "--json", "-q").stdout)
    assert data["bot"] == "flatmc" and sum(c["visits"] for c in data["candidates"]) <= 300
    assert "reward" in run("hint", f, "--step", "--bot", "flatmc:iterations=300", "-q").stdout
    data = json.loads(run("hint", f, "--step", "--iterations", 400, "--jobs", 2, "--json", "-q").stdout)
    assert data["rootInfo"]["iterations"] == 800     # two root-parallel searches of 400


def test_hint_errors(tmp_path):
    f = tmp_path / "game.json"
    run("new", f, "--players", 3, "--seed", 7)
    before = digest(f)
    one_line_error(run("hint", f, "--iterations", 0, code=2), "--iterations")
    one_line_error(run("hint", f, "--time", -1, code=2), "--time")
    one_line_error(run("hint", f, "--time", 1, "--iterations", 5, code=2), "one budget")
    one_line_error(run("hint", f, "--bot", "heuristic", code=2), "searching bot")
    one_line_error(run("hint", f, "--bot", "ismcts:c=-1", code=2), "c: -1.0 is out of range")
    one_line_error(run("hint", f, "--bot", "ismcts:zz=1", code=2), "unknown parameter 'zz'")
    one_line_error(run("hint", tmp_path / "missing.json", code=2), "not found")
    assert digest(f) == before

    # game over
    over = tmp_path / "over.json"
    bots = [make_bot("greedy", seed=i) for i in range(2)]
    game = Game.new("imperium", 2, seed=1)
    gf = GameFile.create(str(over), game)
    texts = []
    while not game.is_over:
        m = bots[game.decider].choose(game)
        texts.append(game.text(m))
        game.state.apply(m)
    gf.apply(texts)
    gf.save()
    one_line_error(run("hint", over, code=2), "game is over")

    # a real table where a card must be entered: chance decides
    table = tmp_path / "table.json"
    cities = ",".join(f"{c}={g}" for c, g in Game.new("imperium", 3, seed=5).to_json()["cities"].items())
    run("new", table, "--players", 3, "--cities", cities, "--display", DISPLAY)
    # two cards bought: the last deck I card is revealed by itself, the next one (deck II) must be entered
    run("play", table, "play Senator", "buy Architect/I", "buy Prefect/I paying brick")
    before = digest(table)
    one_line_error(run("hint", table, code=2), "chance decides", "reveal")
    assert digest(table) == before
    # after the card is entered, the search works on the real table (unknown stack order)
    run("play", table, "reveal Weaver/II")
    data = json.loads(run("hint", table, "--iterations", 300, "--json", "-q").stdout)
    assert data["seat"] == 1 and data["turns"]


def test_bots_command():
    r = run("bots")
    for b in describe_bots():
        assert f"{b['name']}: " in r.stdout
    assert "iterations" in r.stdout and "default 5000" in r.stdout
    assert ("auto: resolved by the game's player count: eval net with 2-5 players; c_puct_log 0.45 "
            "with 3-5 players, 0 with 2") in r.stdout
    data = json.loads(run("bots", "--json").stdout)
    assert data == json.loads(json.dumps(describe_bots()))
    assert {b["name"] for b in data} == {"random", "greedy", "heuristic", "flatmc", "ismcts", "plan"}
    ismcts = next(b for b in data if b["name"] == "ismcts")
    assert {"name": "c", "type": "float", "default": 0.7, "help": "UCB exploration constant (select=ucb)"} \
        in ismcts["params"]
    # each knob's line beside its default
    assert "c              float  default 0.7            UCB exploration constant (select=ucb)" in r.stdout


@pytest.mark.parametrize("players,iterations,noted", [
    (2, 400, "no fit for this setting"),        # the file holds no model for the hand formula
    (3, 28000, None),                           # 28,000 iterations ~ 0.2 s: the value model's 0.3 s model applies
    (3, 400, "far from it"),                    # ~ 0.003 s: the nearest model is 100 times away
])
def test_hint_says_when_its_win_percent_is_not_calibrated(tmp_path, monkeypatch, players, iterations, noted):
    from concordia_ai.ai import outcome
    models = tmp_path / "outcome.json"
    models.write_text(json.dumps({"format": outcome.FORMAT, "models": [
        dict(eval="net", players=3, seconds=0.3, b=[0, 0], k=[1, 0], d=[0, 0], log_sigma=[2, 0])]}))
    monkeypatch.setattr(outcome, "MODELS", models)
    f = tmp_path / "g.json"
    run("new", f, "--players", players, "--seed", 5)
    r = run("hint", f, "--iterations", iterations, "--top", 1)
    notes = ["no fit for this setting", "far from it"]
    assert [n for n in notes if n in r.stdout] == ([noted] if noted else [])
    data = json.loads(run("hint", f, "--iterations", iterations, "--top", 1, "--json", "-q").stdout)
    assert [n for n in notes if any(n in w for w in data["warnings"])] == ([noted] if noted else [])
