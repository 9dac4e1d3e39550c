"""`concordia research`: the run folder, resume, reproducibility, plots and the error path."""
import json
import shlex

import pytest

from concordia_ai.lab.research import games as G
from concordia_ai.lab.research.report import commands
from cli_helpers import error_line, run

FAST = ["--map", "italia", "--players", 2, "--bot", "heuristic", "--seed", 3, "--jobs", 1, "--bootstrap", 50,
        "--min-n", 2, "-q"]


def keys(out):
    return [G.record_key(json.loads(x)) for x in (out / "games.jsonl").read_text().splitlines()]


def test_cards_run_folder_report_and_plots(tmp_path):
    out = tmp_path / "c"
    r = run("research", "cards", *FAST, "--games", 6, "--out", out)
    assert "6 games played now, 6 of 6" in r.stdout and "| Weaver |" in r.stdout
    assert sorted(keys(out)) == [(b, r) for b in range(3) for r in range(2)]
    cfg = json.loads((out / "research.json").read_text())
    assert cfg == {"format": "concordia-research", "version": 1, "experiment": "selfplay", "bot": "heuristic",
                   "players": 2, "map": "italia", "seed": 3, "games": 6, "cards": [], "from_round": 1,
                   "game_options": {}}
    rep = json.loads((out / "report.json").read_text())
    assert rep["games"] == 6 and rep["blocks"] == 3 and rep["statistics"]["bootstrap"] == 50
    assert {r["card"] for r in rep["cards"]} >= {"Weaver", "Architect", "Minerva"}
    assert [s["seat"] for s in rep["seats"]["seats"]] == [1, 2] and rep["marginal"][-1]["point"] == "end"
    assert sorted(rep["plots"]) == ["plots/card-values.png", "plots/gods.png", "plots/seats.png", "plots/timing.png"]
    for p in rep["plots"]:
        assert (out / p).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "## Seats" in (out / "report.md").read_text()
    # a record replays: its move codes give the logged final scores
    rec = json.loads((out / "games.jsonl").read_text().splitlines()[0])
    from concordia_ai.engine.game import Game
    g = Game.new("italia", 2, rec["seed"])
    for m in rec["moves"]:
        g.state.apply(m)
    assert g.is_over and g.scores() == rec["scores"]
    # the report again from the log: the same figures
    again = json.loads(run("research", "report", out, "--bootstrap", 50, "--min-n", 2, "--no-plots", "--json").stdout)
    assert again["cards"] == rep["cards"] and again["seats"] == rep["seats"]


def test_resume_after_interruption_neither_repeats_nor_skips_and_same_seed_same_report(tmp_path):
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    run("research", "seats", *FAST, "--games", 8, "--out", whole, "--no-plots")
    # an interrupted run: 3 games logged, then a kill in the middle of writing the 4th
    cfg = G.ResearchConfig.create("selfplay", "heuristic", 2, "italia", 3, 8)
    G.run(cfg, str(cut), limit=3)
    with open(cut / "games.jsonl", "a") as f:
        f.write('{"block": 1, "rotation": 1, "sea')
    r = run("research", "seats", "--out", cut, "--resume", "-q", "--bootstrap", 50, "--min-n", 2, "--no-plots")
    assert "5 games played now, 8 of 8" in r.stdout
    assert sorted(keys(cut)) == sorted(keys(whole)) and len(set(keys(cut))) == 8
    assert (cut / "report.json").read_text() == (whole / "report.json").read_text()
    # nothing left to play: a resume plays no game and keeps the report
    r = run("research", "seats", "--out", cut, "--resume", "-q", "--bootstrap", 50, "--min-n", 2, "--no-plots")
    assert "0 games played now" in r.stdout and len(keys(cut)) == 8
    # extending the run plays only the new blocks
    r = run("research", "cards", "--out", cut, "--resume", "--games", 12, "-q", "--no-plots", "--bootstrap", 10)
    assert "4 games played now, 12 of 12" in r.stdout and len(set(keys(cut))) == 12


def test_intervene_pairs_and_report(tmp_path):
    out = tmp_path / "i"
    r = run("research", "intervene", *FAST, "--card", "weaver,Architect", "--games", 2, "--out", out, "--min-n", 1)
    assert "| Weaver |" in r.stdout and "| Architect |" in r.stdout
    ks = keys(out)
    assert sorted(ks) == sorted((c, 0, rot, arm) for c in ("Weaver", "Architect") for rot in (0, 1)
                                for arm in ("force", "forbid"))
    rep = json.loads((out / "report.json").read_text())
    assert [row["card"] for row in rep["interventions"]] == ["Weaver", "Architect"]
    assert all(row["pairs"] == 2 for row in rep["interventions"]) and rep["plots"] == ["plots/interventions.png"]
    recs = [json.loads(x) for x in (out / "games.jsonl").read_text().splitlines()]
    assert {(x["seed"], x["rotation"]) for x in recs} == {(recs[0]["seed"], 0), (recs[0]["seed"], 1)}


BAD = [
    (["research", "cards", "--players", 7], ["--players", "2 to 5"]),
    (["research", "cards", "--map", "narnia"], ["--map", "imperium"]),
    (["research", "cards", "--bot", "nosuch"], ["--bot", "valid"]),
    (["research", "cards", "--bot", "heuristic", "--games", 0], ["--games"]),
    (["research", "cards", "--jobs", 0], ["--jobs"]),
    (["research", "cards", "--resume"], ["--resume needs --out"]),
    (["research", "cards", "--bootstrap", -1], ["--bootstrap"]),
    (["research", "cards", "--min-n", 0], ["--min-n"]),
    (["research", "cards", "--scheduler", "tcp://x:1"], ["--scheduler", "--backend dask"]),
    (["research", "intervene", "--bot", "heuristic"], ["--card"]),
    (["research", "intervene", "--card", "Nosuch", "--bot", "heuristic"], ["--card", "valid", "Weaver"]),
    (["research", "intervene", "--card", "Diplomat/Mars", "--bot", "heuristic"], ["--card", "4-player", "Weaver"]),
    (["research", "intervene", "--card", "Diplomat", "--bot", "heuristic"], ["--card", "ambiguous"]),
    (["research", "intervene", "--card", "Weaver", "--from-turn", 0], ["--from-turn", ">= 1"]),
    (["research", "report", "/nonexistent/run"], ["no such run folder"]),
]


@pytest.mark.parametrize("args,words", BAD, ids=[" ".join(map(str, a[1:3])) for a, _ in BAD])
def test_bad_options_get_one_line_and_exit_2(tmp_path, args, words):
    extra = []
    if args[1] != "report" and "--resume" not in args:
        # should a check ever let the run through, it stays a second long
        extra = ["--out", tmp_path / "x", "-q", "--no-plots"] + ([] if "--jobs" in args else ["--jobs", 1])
        extra += [] if "--bot" in args else ["--bot", "heuristic"]
        extra += [] if "--games" in args else ["--games", 2]
    error_line(run(*args, *extra, code=2), *words)
    assert not (tmp_path / "x" / "games.jsonl").exists()


def test_existing_runs_are_refused_and_left_untouched(tmp_path):
    out = tmp_path / "c"
    run("research", "cards", *FAST, "--games", 2, "--out", out, "--no-plots")
    before = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}
    error_line(run("research", "cards", *FAST, "--games", 2, "--out", out, code=2), "already holds", "--resume")
    error_line(run("research", "cards", "--out", out, "--resume", "--players", 3, code=2), "--players", "differs")
    error_line(run("research", "cards", "--out", out, "--resume", "--bot", "random", code=2), "--bot", "differs")
    error_line(run("research", "intervene", "--out", out, "--resume", code=2), "selfplay", "research cards")
    error_line(run("research", "cards", "--out", tmp_path / "none", "--resume", code=2), "no research run")
    (tmp_path / "file").write_text("x")
    error_line(run("research", "cards", *FAST, "--out", tmp_path / "file", code=2), "--out", "is a file")
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()} == before


@pytest.mark.parametrize("what", [["cards", "--games", 4], ["intervene", "--card", "Mason,Smith", "--games", 2,
                                                             "--from-turn", 2]])
def test_the_report_names_the_command_that_plays_the_run_again(tmp_path, what):
    first = tmp_path / "first"
    run("research", what[0], *FAST, *what[1:], "--out", first, "--no-plots")
    rep = json.loads((first / "report.json").read_text())
    play, again = commands(rep, str(first))
    assert f"made by `{play}`" in (first / "report.md").read_text() and f"`{again}`" in (first / "report.md").read_text()
    # the stated command, run in another folder, plays the same games and gives the same report
    second = tmp_path / "second"
    args = shlex.split(commands(rep, str(second))[0])
    assert args[:2] == ["concordia", "research"]
    run(*args[1:], "--jobs", 1, "--no-plots", "-q")
    assert (second / "report.json").read_text() == (first / "report.json").read_text()
    assert sorted(keys(second)) == sorted(keys(first))
    run(*shlex.split(again)[1:], "--no-plots")
