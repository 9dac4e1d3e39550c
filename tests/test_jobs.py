"""Long jobs on one runner: logged and resumable (lab.jobs), the same records from the local pool and a
local Dask cluster (research runs, self-play data), and the one game loop they share."""
import json
import os

import numpy as np
import pytest

from concordia_ai.ai.bots import make_bot, play_game
from concordia_ai.lab import jobs, runner, selfplay
from concordia_ai.lab.research import games as G


def _square(task):
    return dict(key=task["key"], value=task["key"] ** 2)


def _key(rec):
    return rec["key"]


def test_run_logged_appends_each_record_and_a_restart_plays_only_the_missing_keys(tmp_path):
    log = str(tmp_path / "log.jsonl")
    tasks = [dict(key=k) for k in range(5)]
    records, new = jobs.run_logged(_square, tasks, _key, log, limit=2)
    assert (records, new) == ([dict(key=0, value=0), dict(key=1, value=1)], 2)
    with open(log) as f:
        assert [json.loads(line) for line in f] == records
    calls = []

    def counted(task):
        calls.append(task["key"])
        return _square(task)
    records, new = jobs.run_logged(counted, tasks, _key, log)
    assert calls == [2, 3, 4] and new == 3
    assert records == [dict(key=k, value=k * k) for k in range(5)]


def test_run_logged_repairs_a_torn_last_line_and_names_a_damaged_one(tmp_path):
    log = tmp_path / "log.jsonl"
    log.write_text('{"key":0,"value":0}\n{"key":1,"val')
    records, new = jobs.run_logged(_square, [dict(key=0), dict(key=1)], _key, str(log))
    assert new == 1 and records == [dict(key=0, value=0), dict(key=1, value=1)]
    assert log.read_text() == '{"key":0,"value":0}\n{"key":1,"value":1}\n'
    log.write_text('{"key":0}\nnot json\n')
    with pytest.raises(jobs.JobError, match=r"line 2 is not a record"):
        jobs.run_logged(_square, [dict(key=0)], _key, str(log))


def test_run_logged_refuses_a_planted_link_as_its_log(tmp_path):
    target = tmp_path / "elsewhere"
    target.write_text("")
    os.symlink(target, tmp_path / "log.jsonl")
    with pytest.raises(jobs.JobError, match="symbolic link"):
        jobs.run_logged(_square, [dict(key=0)], _key, str(tmp_path / "log.jsonl"))
    assert target.read_text() == ""


# ---------------------------------------------------------------- the same records on either backend

@pytest.fixture(scope="module")
def dask_scheduler():
    distributed = pytest.importorskip("dask.distributed")
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None)
    yield cluster.scheduler_address
    cluster.close()


def _without_times(records):
    return [{k: v for k, v in r.items() if k not in ("duration", "think")} for r in records]


def test_a_research_run_logs_the_same_games_locally_and_on_dask(tmp_path, dask_scheduler):
    config = G.ResearchConfig.create("selfplay", bot="ismcts:iterations=50", players=2, board="italia", seed=3,
                                     games=4)
    _, local, _ = G.run(config, str(tmp_path / "local"), jobs=2)
    _, dask, new = G.run(config, str(tmp_path / "dask"), backend="dask", scheduler=dask_scheduler)
    assert new == 4 and [G.record_key(r) for r in dask] == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert _without_times(dask) == _without_times(local)


def test_self_play_data_is_the_same_locally_and_on_dask(tmp_path, dask_scheduler):
    bot = "ismcts:iterations=50"
    local = selfplay.generate(bot, 4, 5, str(tmp_path / "local.npz"), jobs=2)
    dask = selfplay.generate(bot, 4, 5, str(tmp_path / "dask.npz"), backend="dask", scheduler=dask_scheduler)
    assert local["games_kept"] == dask["games_kept"] == 4 and local["positions"] == dask["positions"] > 0
    a, b = np.load(tmp_path / "local.npz"), np.load(tmp_path / "dask.npz")
    assert sorted(a.files) == sorted(b.files)
    for name in a.files:
        assert a[name].dtype == b[name].dtype and np.array_equal(a[name], b[name]), name
    with open(tmp_path / "local.npz.games.jsonl") as f:
        local_records = sorted((json.loads(line) for line in f), key=selfplay.record_key)
    with open(tmp_path / "dask.npz.games.jsonl") as f:
        assert sorted((json.loads(line) for line in f), key=selfplay.record_key) == local_records


def test_self_play_resumes_from_its_log_and_keeps_the_game_ids_schedule(tmp_path):
    bot = "ismcts:iterations=50"
    log = str(tmp_path / "d.npz.games.jsonl")
    first, new = selfplay.play(bot, 3, 7, first_id=2, log=log, limit=1)
    assert new == 1 and [(r["game_id"], r["board"], r["players"]) for r in first] == [(2, "creta", 2)]
    records, new = selfplay.play(bot, 3, 7, first_id=2, log=log)
    assert new == 2 and [(r["game_id"], r["board"], r["players"]) for r in records] == \
        [(2, "creta", 2), (3, "aegyptus", 2), (4, "imperium", 3)]
    assert records[0] == first[0]
    # a game's record is its own: the same from a fresh run of that one game id
    assert selfplay.play_task(dict(bot=bot, seed=7, game_id=3)) == records[1]


def test_a_self_play_record_holds_the_features_of_every_turn_start(tmp_path):
    rec = selfplay.play_task(dict(bot="heuristic", seed=1, game_id=0))
    feats = selfplay.unpack(rec["feats"])
    assert feats.dtype == np.float32 and feats.shape == (len(rec["turns"]), 2, feats.shape[2])
    assert rec["turns"][0] == 0 and rec["turns"] == sorted(set(rec["turns"]))
    data = selfplay.arrays([rec])
    assert data["rows"].shape == (2 * len(rec["turns"]), feats.shape[2])
    assert list(data["pos_first"][:3]) == [0, 2, 4] and set(data["pos_game"]) == {0}


def test_self_play_refuses_a_bad_request_with_the_option_named(tmp_path):
    with pytest.raises(selfplay.SelfPlayError, match=r"^--bot: unknown bot 'nobot'"):
        selfplay.play("nobot", 3, 1)
    with pytest.raises(selfplay.SelfPlayError, match=r"^--games: 0 must be an integer in 1\.\.2\^40-1"):
        selfplay.play("heuristic", 0, 1)


# ---------------------------------------------------------------- the one game loop

class _Watch:
    def __init__(self):
        self.seen = []

    def before(self, state):
        self.seen.append(("before", state.turns))

    def move(self, state, move):
        self.seen.append(("move", move))


def test_play_game_shows_every_decision_to_the_watch_and_stops_where_until_says():
    bots = [make_bot("heuristic", seed=i) for i in range(2)]
    watch = _Watch()
    played = play_game(bots, "italia", seed=2, watch=watch, until=lambda g: g.state.turns >= 3)
    assert not played.truncated and not played.game.is_over and played.game.state.turns == 3
    assert [m for kind, m in watch.seen if kind == "move"] == played.moves
    assert [kind for kind, _ in watch.seen] == ["before", "move"] * len(played.moves)
    # the rest of the game, continued from there, is the game played in one go
    rest = play_game(bots, game=played.game)
    whole = play_game([make_bot("heuristic", seed=i) for i in range(2)], "italia", seed=2)
    assert played.moves + rest.moves == whole.moves


def test_the_scripts_share_one_wilson_interval():
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "strength", os.path.join(os.path.dirname(__file__), "..", "scripts", "strength.py"))
    strength = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(strength)
    from concordia_ai.lab import ratings
    assert strength.wilson is ratings.wilson
    assert ratings.wilson(3, 10) == pytest.approx((0.10779126740630099, 0.6032218525388546), abs=1e-15)


def test_runner_options_of_the_scripts_check_the_cluster_settings(tmp_path):
    import argparse
    ap = argparse.ArgumentParser(prog="s")
    jobs.add_runner_options(ap)
    assert jobs.runner_options(ap.parse_args(["--jobs", "3"]), ap) == \
        dict(jobs=3, backend="loky", scheduler=None, tls=None)
    assert jobs.runner_options(ap.parse_args(["--backend", "dask", "--scheduler", "tcp://10.0.0.5:8786"]), ap) == \
        dict(jobs=1, backend="dask", scheduler="tcp://10.0.0.5:8786", tls=None)
    with pytest.raises(runner.BackendError, match=r"^--tls-ca-file: "):
        runner.tls_settings(str(tmp_path / "missing.pem"), None, None)
    for argv, message in ((["--scheduler", "tcp://h:1"], "--scheduler is for --backend dask"),
                          (["--backend", "dask", "--scheduler", "no address"], "is not a scheduler address")):
        with pytest.raises(SystemExit) as e:
            jobs.runner_options(ap.parse_args(argv), ap)
        assert e.value.code == 2, message


def test_research_takes_the_tls_options_of_tournaments(tmp_path):
    from click.testing import CliRunner

    from concordia_ai.cli import main
    ca = tmp_path / "ca.pem"
    ca.write_text("not checked before the scheduler answers\n")
    result = CliRunner().invoke(main, ["research", "cards", "--games", "2", "--players", "2", "--out",
                                       str(tmp_path / "r"), "--tls-ca-file", str(ca)])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines()[-1] == ("error: --tls-ca-file/--tls-cert/--tls-key are for a remote "
                                                      "cluster: add --backend dask --scheduler tls://HOST:PORT")
    result = CliRunner().invoke(main, ["research", "cards", "--games", "2", "--players", "2", "--out",
                                       str(tmp_path / "r"), "--backend", "dask", "--scheduler", "tcp://10.0.0.5:8786",
                                       "--tls-ca-file", str(ca)])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines()[-1] == \
        "error: --tls-ca-file/--tls-cert/--tls-key need a tls:// scheduler address"
    assert not (tmp_path / "r").exists()


def test_a_last_line_that_is_no_torn_record_is_named_and_never_cut_off(tmp_path):
    from concordia_ai.io.jsonl import LogError, read_records
    log = tmp_path / "log.jsonl"
    data = b'{"key":0}\n\x89PNG\x00\x01'
    log.write_bytes(data)
    with pytest.raises(LogError) as e:
        read_records(str(log), repair=True)
    assert str(e.value) == (f"log {log}: line 2 is not a record (not UTF-8 text (bad byte at offset 0)); "
                            f"the log is damaged")
    assert log.read_bytes() == data
    log.write_bytes(b'{"key":0}\n{"key":1,"v\xc3')      # cut inside the last character: torn
    assert read_records(str(log), repair=True) == [{"key": 0}] and log.read_bytes() == b'{"key":0}\n'
