"""`concordia tournament` and `concordia rate`: seat rotation, crash-safe resumable logs, summary, SPRT."""
import itertools
import json
from collections import Counter

import pytest

from concordia_ai.lab import ratings
from concordia_ai.lab.tournament import (
    TournamentConfig,
    TournamentError,
    balanced_lineups,
    play_task,
    read_log,
)
from cli_helpers import error_line, run


def log_lines(out):
    return [json.loads(x) for x in (out / "games.jsonl").read_text().splitlines()]


BOTS3 = ["--bot", "r=random", "--bot", "g=greedy", "--bot", "h=heuristic"]


def test_three_bots_rotation_log_and_summary(tmp_path):
    out = tmp_path / "t"
    r = run("tournament", *BOTS3, "--players", 3, "--games", 12, "--seed", 5, "--jobs", 1, "--out", out)
    assert "12 games played now" in r.stdout
    recs = log_lines(out)
    assert len(recs) == 12 and sorted(x["index"] for x in recs) == list(range(12))
    # seat rotation: every bot in every seat equally often; a block shares one seed
    seats = Counter((s["bot"], i) for x in recs for i, s in enumerate(x["seats"]))
    assert set(seats.values()) == {4} and len(seats) == 9
    for b in range(4):
        block = [x for x in recs if x["block"] == b]
        assert len({x["seed"] for x in block}) == 1 and sorted(x["rotation"] for x in block) == [0, 1, 2]
    assert len({x["seed"] for x in recs}) == 4
    rec = recs[0]
    assert set(rec) >= {"seed", "seats", "moves", "scores", "ranking", "ranks", "duration", "winner", "board"}
    assert rec["seats"][0]["spec"] == "random" and rec["moves"][0].startswith("play ")
    assert set(rec["scores"][0]) >= {"Vesta", "Jupiter", "Saturnus", "Mercurius", "Mars", "Minerva", "total"}
    assert sorted(rec["ranks"]) == [1, 2, 3] and rec["ranks"][rec["ranking"][0]] == 1
    assert json.loads((out / "tournament.json").read_text())["bots"][2] == {"name": "h", "spec": "heuristic"}
    # the log replays: the moves in notation reproduce the final scores
    from concordia_ai.engine.game import Game
    g = Game.new("imperium", 3, rec["seed"])
    for m in rec["moves"]:
        g.apply(m)
    assert g.is_over and [s["total"] for s in g.scores()] == [s["total"] for s in rec["scores"]]

    summary = json.loads(run("rate", out / "games.jsonl", "--json", "--bootstrap", 50).stdout)
    assert summary["games"] == 12 and summary["blocks"] == 4
    rows = {b["bot"]: b for b in summary["bots"]}
    assert set(rows) == {"r", "g", "h"}
    for b in rows.values():
        assert b["games"] == 12 and 0 <= b["win_ci"][0] <= b["win_rate"] <= b["win_ci"][1] <= 1
        assert 1 <= b["mean_rank"] <= 3 and b["rating_ci"][0] <= b["rating"] + 1e-6 <= b["rating_ci"][1] + 2e-6
    assert sum(b["wins"] for b in rows.values()) == 12
    assert abs(sum(b["rating"] for b in rows.values())) < 1e-6
    assert rows["h"]["rating"] > rows["r"]["rating"] and rows["h"]["mean_rank"] < rows["r"]["mean_rank"]
    text = run("rate", out).stdout
    assert "win %" in text and "rating" in text and "mean VP" in text


def test_resume_after_a_kill_plays_each_game_once(tmp_path):
    ref, out = tmp_path / "ref", tmp_path / "t"
    args = ["tournament", *BOTS3, "--players", 3, "--games", 12, "--seed", 9, "--jobs", 1, "-q"]
    run(*args, "--out", ref)
    run(*args, "--out", out)
    log = out / "games.jsonl"
    data = log.read_bytes()
    log.write_bytes(data[: len(data) * 5 // 8])          # killed in the middle of a write
    assert not log.read_bytes().endswith(b"\n")
    kept = len(read_log(str(log)))
    assert 0 < kept < 12
    error_line(run(*args, "--out", out, code=2), "--resume")          # refuses to overwrite
    r = run("tournament", "--out", out, "--resume", "--jobs", 2, "-q")
    assert f"{12 - kept} games played now, 12 in the log" in r.stdout
    recs = log_lines(out)
    keys = [(x["block"], x["rotation"]) for x in recs]
    assert len(keys) == 12 and len(set(keys)) == 12
    strip = lambda x: {k: v for k, v in x.items() if k not in ("duration", "think")}  # noqa: E731
    assert sorted(map(json.dumps, map(strip, recs))) == sorted(map(json.dumps, map(strip, log_lines(ref))))
    # resuming a finished tournament plays nothing; extending it plays only the new blocks
    assert "0 games played now" in run("tournament", "--out", out, "--resume", "-q").stdout
    assert "3 games played now, 15 in the log" in run("tournament", "--out", out, "--resume", "--games", 15,
                                                       "-q", "--jobs", 1).stdout
    error_line(run("tournament", "--out", out, "--resume", "--players", 2, code=2), "--players")
    error_line(run("tournament", "--out", out, "--resume", "--bot", "x=random", "--bot", "y=greedy", code=2),
               "--bot")
    error_line(run("tournament", "--out", tmp_path / "none", "--resume", code=2), "no tournament")


def test_resume_refuses_a_bot_whose_spec_means_another_bot_now(tmp_path):
    """tournament.json keeps what each spec meant (bots.spec_meaning); a resume after a default or the learned
    weights moved would play the rest with another bot under the same name, so it is refused with one line."""
    out = tmp_path / "t"
    spec = "ismcts:iterations=20,rollout_turns=1,eval=hand"
    run("tournament", "--bot", f"s={spec}", "--bot", "h=heuristic", "--players", 2, "--games", 2, "--jobs", 1,
        "--out", out, "-q")
    saved = json.loads((out / "tournament.json").read_text())
    assert saved["meanings"]["s"]["c_puct_log"] == 0.0 and saved["meanings"]["h"] == {"kind": "heuristic"}
    assert "0 games played now" in run("tournament", "--out", out, "--resume", "-q").stdout
    saved["meanings"]["s"]["c_puct_log"] = 0.45           # as if logged when auto meant 0.45 with 2 players
    (out / "tournament.json").write_text(json.dumps(saved))
    refused = run("tournament", "--out", out, "--resume", "--games", 4, "-q", code=2)
    error_line(refused, "--resume")
    assert refused.stderr.strip() == (f"error: --resume: the bot s ({spec}) means another bot than when its games were played "
                    f"(c_puct_log 0.45 -> 0.0); start a new --out, or spell the changed options in the bot's spec")
    assert len(log_lines(out)) == 2 and json.loads((out / "tournament.json").read_text()) == saved


def test_sprt_stops_a_lopsided_match(tmp_path):
    out = tmp_path / "s"
    r = run("tournament", "--bot", "heur=heuristic", "--bot", "rand=random", "--players", 2, "--sprt", "0,50",
            "--games", 400, "--jobs", 1, "--out", out, "--json", "-q")
    s = json.loads(r.stdout)
    assert s["stopped"] == "sprt" and s["sprt"]["decision"] == "H1"
    assert s["sprt"]["llr"] >= s["sprt"]["upper"] and abs(s["sprt"]["upper"] - 2.944) < 0.01
    assert 2 < s["games"] < 100 and s["games"] % 2 == 0
    assert s["sprt"]["candidate"] == "heur" and s["sprt"]["score"] > 0.9
    text = run("rate", out).stdout
    assert "SPRT heur vs rand" in text and "H1 accepted" in text


def test_sprt_candidate_against_copies(tmp_path):
    cfg = TournamentConfig.create({"rand": "random", "heur": "heuristic"}, players=3, games=6, sprt=(0, 50))
    tasks = cfg.tasks()
    assert [[s["bot"] for s in t["seats"]].count("rand") for t in tasks] == [1] * 6
    assert Counter(next(i for i, s in enumerate(t["seats"]) if s["bot"] == "rand") for t in tasks) == {0: 2, 1: 2, 2: 2}
    out = tmp_path / "c"
    s = json.loads(run("tournament", "--bot", "rand=random", "--bot", "heur=heuristic", "--players", 3, "--sprt",
                       "0,50", "--games", 300, "--jobs", 1, "--out", out, "--json", "-q").stdout)
    assert s["sprt"]["decision"] == "H0" and s["stopped"] == "sprt"


def test_sprt_statistics():
    lo, hi = ratings.sprt_bounds()
    assert abs(lo + 2.944) < 1e-3 and abs(hi - 2.944) < 1e-3
    assert ratings.sprt_llr([], 0, 50) == 0
    assert ratings.sprt_llr([0.5] * 40, 0, 50) < 0 < ratings.sprt_llr([0.6] * 40, 0, 50)
    assert abs(ratings.elo_to_score(0) - 0.5) < 1e-12 and abs(ratings.elo_to_score(400) - 10 / 11) < 1e-12
    assert ratings.wilson(0, 10)[0] == 0 and ratings.wilson(10, 10)[1] == 1


def test_plackett_luce_orders_bots():
    import random
    rng = random.Random(1)
    strength = [3.0, 2.0, 1.0, 0.5]
    rankings = []
    for _ in range(400):
        items, order = [0, 1, 2, 3], []
        while items:
            pick = rng.choices(items, [strength[i] for i in items])[0]
            order.append(pick)
            items.remove(pick)
        rankings.append(order)
    elo = ratings.plackett_luce(rankings, 4)
    assert elo == sorted(elo, reverse=True)
    assert abs((elo[0] - elo[2]) - ratings.ELO_PER_LOG * 1.0986) < 40       # ln 3 apart


def test_config_file_and_errors(tmp_path):
    toml = tmp_path / "t.toml"
    toml.write_text('players = 2\ngames = 4\nseed = 3\njobs = 1\nout = "%s"\n[bots]\nh = "heuristic"\n'
                    'f = { type = "flatmc", iterations = 20, rollout_turns = 2 }\n' % (tmp_path / "cf"))
    s = json.loads(run("tournament", "--config", toml, "--json", "-q").stdout)
    assert s["games"] == 4 and s["players"] == 2 and s["specs"]["f"].startswith("flatmc:")
    assert {b["bot"] for b in s["bots"]} == {"h", "f"}
    bad = tmp_path / "bad.toml"
    bad.write_text("colour = 'red'\n")
    error_line(run("tournament", "--config", bad, code=2), "unknown key 'colour'")
    error_line(run("tournament", "--bot", "a=nonsense", "--bot", "b=random", "--out", tmp_path / "x", code=2),
               "unknown bot 'nonsense'")
    error_line(run("tournament", "--bot", "a=ismcts:iterations=-3", "--bot", "b=random", "--out", tmp_path / "x",
                   code=2), "iterations")
    error_line(run("tournament", "--bot", "a=random", "--bot", "a=greedy", "--out", tmp_path / "x", code=2), "twice")
    error_line(run("tournament", *BOTS3, "--sprt", "0,50", "--out", tmp_path / "x", code=2), "exactly two")
    error_line(run("tournament", "--bot", "a=random", "--bot", "b=greedy", "--sprt", "50,0", code=2), "--sprt")
    error_line(run("tournament", *BOTS3, "--players", 7, "--out", tmp_path / "x", code=2), "--players")
    error_line(run("tournament", *BOTS3, "--map", "atlantis", code=2), "--map")
    error_line(run("tournament", "--resume", code=2), "--out")
    error_line(run("tournament", *BOTS3, "--scheduler", "tcp://x:1", code=2), "--backend dask")
    error_line(run("rate", tmp_path / "nope.jsonl", code=2), "not found")
    junk = tmp_path / "junk.jsonl"
    junk.write_text("hello\n")
    error_line(run("rate", junk, code=2), "line 1")


def test_more_bots_than_seats_and_fewer():
    cfg = TournamentConfig.create({"a": "random", "b": "random", "c": "random"}, players=2, games=12)
    pairs = Counter(tuple(sorted(s["bot"] for s in t["seats"])) for t in cfg.tasks())
    assert pairs == {("a", "b"): 4, ("a", "c"): 4, ("b", "c"): 4}
    cfg = TournamentConfig.create({"a": "random", "b": "random"}, players=4, games=8)
    seats = Counter((s["bot"], i) for t in cfg.tasks() for i, s in enumerate(t["seats"]))
    assert set(seats.values()) == {4}
    rec = play_task(cfg.task(0, 1))
    assert rec["index"] == 1 and len(rec["seats"]) == 4


@pytest.mark.parametrize("n,p,blocks", [(10, 4, 1), (10, 4, 7), (10, 4, 53), (10, 3, 50), (10, 2, 45), (20, 5, 30)])
def test_balanced_lineups_keep_every_prefix_fair(n, p, blocks):
    lineups = balanced_lineups(n, p, blocks)
    assert len(lineups) == blocks and all(len(set(line)) == p for line in lineups)
    for k in range(1, blocks + 1):
        played = Counter(i for line in lineups[:k] for i in line)
        counts = [played.get(i, 0) for i in range(n)]
        assert max(counts) - min(counts) <= 1, (k, counts)
    # a prefix does not depend on how far the schedule is asked for
    assert balanced_lineups(n, p, blocks) == balanced_lineups(n, p, 500)[:blocks]


def test_ten_bots_four_seats_meet_evenly():
    # 35 blocks: every bot in 14, and no pair of bots kept apart
    lineups = balanced_lineups(10, 4, 35)
    met = Counter(pair for line in lineups for pair in itertools.combinations(line, 2))
    assert len(met) == 45 and min(met.values()) >= 3 and max(met.values()) <= 7


def test_old_tournament_folders_keep_their_order():
    bots = {c: "random" for c in "abcde"}
    new = TournamentConfig.create(bots, players=3, games=30)
    data = new.to_json()
    assert data["order"] == "balanced" and TournamentConfig.from_json(data) == new
    del data["order"]                      # a tournament.json from before the balanced schedule
    old = TournamentConfig.from_json(data)
    assert old.order == "lexicographic"
    assert [old.lineup(b) for b in range(10)] == [list(c) for c in itertools.combinations(range(5), 3)]
    assert new.same_match(old) == "order"
    with pytest.raises(TournamentError, match="order"):
        TournamentConfig.create(bots, players=3, order="shuffled")


def test_dask_backend(tmp_path):
    pytest.importorskip("distributed")
    from dask.distributed import LocalCluster
    s = json.loads(run("tournament", "--bot", "r=random", "--bot", "g=greedy", "--players", 2, "--games", 4,
                       "--backend", "dask", "--jobs", 1, "--out", tmp_path / "d1", "--json", "-q").stdout)
    assert s["games"] == 4
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        s = json.loads(run("tournament", "--bot", "r=random", "--bot", "g=greedy", "--players", 2, "--games", 4,
                           "--backend", "dask", "--scheduler", cluster.scheduler_address, "--out", tmp_path / "d2",
                           "--json", "-q").stdout)
    assert s["games"] == 4
    strip = lambda x: {k: v for k, v in x.items() if k not in ("duration", "think")}  # noqa: E731
    a = sorted(map(json.dumps, map(strip, log_lines(tmp_path / "d1"))))
    assert a == sorted(map(json.dumps, map(strip, log_lines(tmp_path / "d2"))))
