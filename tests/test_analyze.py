"""`concordia analyze`: the JSON-lines engine keeps serving through bad queries."""
import json

from click.testing import CliRunner

from concordia_ai.ai.sliced import sliced_search
from concordia_ai.protocol.analyze import handle
from concordia_ai.ai.bots import make_bot
from concordia_ai.cli import main
from concordia_ai.engine.game import Game
from concordia_ai.ai.search import SearchConfig


def engine(lines):
    stdin = "\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n"
    result = CliRunner().invoke(main, ["analyze"], input=stdin)
    assert result.exit_code == 0, (result.stdout, result.stderr)
    assert result.stderr == ""
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_stream_of_queries_with_errors(tmp_path):
    pos = Game.new("imperium", 3, seed=7).to_json()
    bad = json.loads(json.dumps(pos))
    bad["players"][1]["coins"] = "lots"
    f = tmp_path / "game.json"
    CliRunner().invoke(main, ["new", str(f), "--players", 3, "--seed", 7])
    out = engine([
        {"id": "a", "position": pos, "iterations": 500, "lines": 2},
        "{not json",
        {"position": pos},
        {"id": "b", "position": bad},
        {"id": "c", "position": pos, "iterations": 0},
        {"id": "d", "position": pos, "iterations": -5},
        {"id": "e", "position": pos, "config": {"cc": 1}},
        {"id": "f", "position": pos, "config": {"c": -1}, "iterations": 10},
        {"id": "g", "position": pos, "moves": ["play Architect", "fly away"], "iterations": 10},
        {"id": "h", "file": str(tmp_path / "nope.json")},
        {"id": "i", "file": str(f), "iterations": 300, "lines": 1, "seed": 3},
        {"id": "j", "position": pos, "file": str(f)},
        {"id": 7, "position": pos, "moves": ["play Architect"], "iterations": 300, "lines": 3,
         "config": {"rollout": "greedy", "c": 0.5}},
        {"id": "k", "action": "query_version"},
        {"id": "l", "position": pos, "bogus": 1},
        {"id": "m", "position": pos, "seconds": "fast"},
        {"id": "n", "position": pos, "iterations": 500, "lines": 2},
    ])
    ids = [o.get("id") for o in out]
    assert ids == ["a", None, None, "b", "c", "d", "e", "f", "g", "h", "i", "j", 7, "k", "l", "m", "n"]
    a = out[0]
    assert a["player"] == "P1" and a["seat"] == 0 and a["isDuringSearch"] is False
    assert a["rootInfo"]["iterations"] == 500 and a["rootInfo"]["nodes"] > 0
    assert len(a["candidates"]) == 2 and [c["order"] for c in a["candidates"]] == [0, 1]
    c0 = a["candidates"][0]
    assert set(c0) >= {"move", "visits", "winrate", "scoreLead", "vp", "order", "pv", "lcb"}
    assert c0["pv"][0] == c0["move"] and c0["lcb"] <= c0["winrate"]
    errors = {o["id"] if o["id"] is not None else f"none{i}": o for i, o in enumerate(out) if "error" in o}
    assert errors["none1"]["field"] is None and "JSON" in errors["none1"]["error"]
    assert errors["none2"]["field"] == "id"
    assert errors["b"]["field"] == "position.players[1].coins"
    assert errors["c"]["field"] == "iterations" and errors["d"]["field"] == "iterations"
    assert errors["e"]["field"] == "config.cc" and "valid" in errors["e"]["error"]
    assert errors["f"]["field"] == "config.c"
    assert errors["g"]["field"] == "moves[1]" and "legal now" in errors["g"]["error"]
    assert errors["h"]["field"] == "file"
    assert errors["j"]["error"].startswith("give exactly one of position")
    assert errors["l"]["field"] == "bogus"
    assert errors["m"]["field"] == "seconds"
    i = out[10]
    assert i["rootInfo"]["iterations"] == 300 and len(i["candidates"]) == 1
    seven = out[12]
    assert seven["phase"] == "architect-move" and len(seven["candidates"]) == 3
    assert out[13]["version"] == 1
    # the same query gives the same answer (seeded)
    assert out[16]["candidates"] == a["candidates"]


def test_partial_reports():
    pos = Game.new("imperium", 2, seed=4).to_json()
    # an iteration budget: slices of 0.1 CPU s until it is spent, so the number of partial reports
    # does not depend on how busy the machine is (a time budget is wall-clock against CPU-timed slices)
    out = engine([{"id": "p", "position": pos, "iterations": 300000, "reportEvery": 0.1, "lines": 2}])
    assert all(o["id"] == "p" for o in out)
    assert [o["isDuringSearch"] for o in out][-1] is False
    partial = [o for o in out if o["isDuringSearch"]]
    assert len(partial) >= 2
    its = [o["rootInfo"]["iterations"] for o in out]
    assert its == sorted(its) and its[0] > 0


def test_game_over_and_chance_are_errors():
    g = Game.new("imperium", 2, seed=1)
    bots = [make_bot("greedy", seed=i) for i in range(2)]
    while not g.is_over:
        g.state.apply(bots[g.decider].choose(g))
    replies = []
    handle(json.dumps({"id": 1, "position": g.to_json()}), replies.append)
    assert replies == [{"id": 1, "error": "the game is over: nobody decides", "field": "position"}]
    # a real table waiting for the card revealed into the display
    table = Game.from_table("imperium", 3, Game.new("imperium", 3, seed=5).to_json()["cities"],
                            "Architect/I,Prefect/I,Mercator/I,Colonist/I,Diplomat/I,Mason/I,Farmer/I".split(","))
    replies = []
    handle(json.dumps({"id": "t", "position": table.to_json(), "moves": ["play Senator", "buy Architect/I", "done"]}),
           replies.append)
    assert replies[0]["id"] == "t" and replies[0]["field"] == "moves" and "reveal" in replies[0]["error"]
    replies = []
    handle(json.dumps({"id": "u", "position": table.to_json(), "iterations": 200,
                       "moves": ["play Senator", "buy Architect/I", "done", "reveal Smith/I"]}), replies.append)
    assert replies[0]["seat"] == 1 and replies[0]["candidates"]


def test_sliced_search_merges_slices():
    g = Game.new("imperium", 3, seed=2)
    seen = []
    r = sliced_search(g, SearchConfig(iterations=900, seed=1), slices=3, on_slice=seen.append)
    assert r.iterations == 900 and sum(c.visits for c in r.candidates) == 900
    assert [p.iterations for p in seen] == [300, 600]
    assert r.candidates == sorted(r.candidates, key=lambda c: (c.visits, c.mean), reverse=True)


def test_c_puct_log_takes_a_number_or_auto():
    """c_puct_log is a number or "auto" (SearchConfig): analyze takes both and names the field otherwise."""
    pos = Game.new("italia", 3, seed=2).to_json()
    out = engine([
        {"id": "a", "position": pos, "iterations": 200, "config": {"c_puct_log": "auto"}},
        {"id": "b", "position": pos, "iterations": 200, "config": {"c_puct_log": 0.45}},
        {"id": "c", "position": pos, "iterations": 200, "config": {"c_puct_log": "more"}},
        {"id": "d", "position": pos, "iterations": 200, "config": {"c_puct_log": True}},
    ])
    a, b, c, d = out
    assert a["candidates"] == b["candidates"]          # auto is 0.45 with 3 players
    for bad in (c, d):
        assert bad["field"] == "config.c_puct_log" and bad["error"] == 'c_puct_log must be a float or "auto"'
