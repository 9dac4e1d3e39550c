"""Writes never follow a planted link, game files are locked from load to save, failed starts leave
nothing behind, and workers die with their parent (issue 11, classes 2, 6 and 7)."""
import json
import os
import signal
import stat
import subprocess
import sys
import time

import pytest

from concordia_ai.lab import tournament
from concordia_ai.io.atomic_write import open_append, open_update, write_atomic
from concordia_ai.lab.tournament import TournamentConfig, TournamentError, prepare
from cli_helpers import run

CLI = [sys.executable, "-c", "from concordia_ai.cli import main; main()"]


def config():
    return TournamentConfig.create({"a": "random", "b": "random"}, players=2, games=2)


# ------------------------------------------------------------ write_atomic / open_append

def test_write_atomic_replaces_a_link_at_path_and_leaves_its_target(tmp_path):
    victim = tmp_path / "victim"
    victim.write_text("precious")
    link = tmp_path / "out.json"
    link.symlink_to(victim)
    write_atomic(str(link), "new")
    assert not link.is_symlink() and link.read_text() == "new"
    assert victim.read_text() == "precious"


def test_write_atomic_through_a_link_writes_the_target_and_keeps_the_link(tmp_path):
    target = tmp_path / "real.json"
    target.write_text("old")
    target.chmod(0o600)
    link = tmp_path / "link.json"
    link.symlink_to(target)
    assert write_atomic(str(link), "new", follow_link=True) == str(target)
    assert link.is_symlink() and target.read_text() == "new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.json", "real.json"]   # no temp left


def test_write_atomic_refuses_a_dangling_link_when_following(tmp_path):
    link = tmp_path / "link.json"
    link.symlink_to(tmp_path / "elsewhere" / "x.json")
    with pytest.raises(OSError, match="does not exist"):
        write_atomic(str(link), "new", follow_link=True)
    assert not (tmp_path / "elsewhere").exists()


def test_open_append_refuses_links_dangling_or_not(tmp_path):
    victim = tmp_path / "victim"
    victim.write_text("precious\n")
    (tmp_path / "a.jsonl").symlink_to(victim)
    (tmp_path / "b.jsonl").symlink_to(tmp_path / "nowhere")
    for name in ("a.jsonl", "b.jsonl"):
        with pytest.raises(OSError, match="symbolic link"):
            open_append(str(tmp_path / name))
        with pytest.raises(OSError, match="symbolic link"):
            open_update(str(tmp_path / name))
    assert victim.read_text() == "precious\n" and not (tmp_path / "nowhere").exists()


def test_open_append_refuses_a_fifo_without_blocking(tmp_path):
    fifo = tmp_path / "log.jsonl"
    os.mkfifo(fifo)
    with pytest.raises(OSError, match="not a regular file"):
        open_append(str(fifo))


# ------------------------------------------------------------ tournament files

def test_a_planted_tmp_link_is_not_followed(tmp_path):
    out = tmp_path / "t"
    out.mkdir()
    victim = tmp_path / "victim"
    victim.write_text("precious")
    (out / "tournament.json.tmp").symlink_to(victim)
    prepare(config(), str(out), resume=False)
    assert victim.read_text() == "precious"
    assert json.loads((out / "tournament.json").read_text())["format"] == "concordia-tournament"


@pytest.mark.parametrize("name", ["games.jsonl", "tournament.json"])
def test_a_linked_log_or_config_is_refused_before_anything_is_written(tmp_path, name):
    out = tmp_path / "t"
    out.mkdir()
    (out / name).symlink_to(tmp_path / "outside.jsonl")
    with pytest.raises(TournamentError, match=f"{name} is a symbolic link"):
        tournament.run(config(), str(out))
    assert not (tmp_path / "outside.jsonl").exists()
    assert sorted(p.name for p in out.iterdir()) == [name]


def test_resume_through_a_linked_log_does_not_truncate_its_target(tmp_path):
    out = tmp_path / "t"
    tournament.run(config(), str(out))
    log = out / "games.jsonl"
    victim = tmp_path / "victim.jsonl"
    victim.write_bytes(log.read_bytes() + b'{"torn')     # a torn last line: resume would cut it off
    before = victim.read_bytes()
    log.unlink()
    log.symlink_to(victim)
    with pytest.raises(TournamentError, match="symbolic link"):
        tournament.run(config(), str(out), resume=True)
    assert victim.read_bytes() == before


def test_a_failed_start_leaves_no_out_folder(tmp_path, monkeypatch):
    out = tmp_path / "new" / "t"

    def broken(*args, **kwargs):
        raise TournamentError("--scheduler: cannot connect to tcp://nowhere:1")
        yield  # noqa: unreachable (a generator, like the real one)
    monkeypatch.setattr(tournament, "_loky_results", broken)
    with pytest.raises(TournamentError, match="cannot connect"):
        tournament.run(config(), str(out))
    assert not (tmp_path / "new").exists()
    monkeypatch.undo()
    tournament.run(config(), str(out))         # the rerun is not refused as "already holds a tournament"
    assert len((out / "games.jsonl").read_text().splitlines()) == 2


def test_a_failed_start_in_an_existing_folder_keeps_the_folder_and_its_files(tmp_path, monkeypatch):
    out = tmp_path / "t"
    out.mkdir()
    (out / "notes.txt").write_text("mine")

    def broken(tasks, jobs):
        raise RuntimeError("the first game failed")
        yield  # noqa: unreachable
    monkeypatch.setattr(tournament, "_loky_results", broken)
    with pytest.raises(RuntimeError):
        tournament.run(config(), str(out))
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]


def test_a_bad_scheduler_address_leaves_no_out_folder(tmp_path):
    pytest.importorskip("dask.distributed")
    out = tmp_path / "t"
    with pytest.raises(Exception):      # which exception and message: the error-path part of issue 11
        tournament.run(config(), str(out), backend="dask", scheduler="no address")
    assert not out.exists()


# ------------------------------------------------------------ game files: links and locks

def test_play_through_a_symlinked_game_file_writes_the_target(tmp_path):
    real = tmp_path / "real.json"
    run("new", real, "--players", "2", "--seed", "1")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    run("play", link, "play Diplomat")
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert json.loads(real.read_text())["moves"] == ["play Diplomat"]
    run("undo", link)
    assert link.is_symlink() and json.loads(real.read_text())["moves"] == []


def test_new_force_through_a_dangling_link_is_refused_and_creates_nothing(tmp_path):
    link = tmp_path / "g.json"
    link.symlink_to(tmp_path / "gone" / "g.json")
    result = run("new", link, "--players", "2", "--seed", "1", "--force", code=2)
    assert "which does not exist" in result.output and "Traceback" not in result.output
    assert link.is_symlink() and not (tmp_path / "gone").exists()


def test_play_keeps_the_game_files_permissions_and_leaves_no_temporary_file(tmp_path):
    path = tmp_path / "g.json"
    run("new", path, "--players", "2", "--seed", "1")
    path.chmod(0o640)
    run("play", path, "play Diplomat")
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["g.json"]


def test_two_concurrent_plays_never_lose_a_move(tmp_path):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    for round_ in range(10):
        path = tmp_path / f"g{round_}.json"
        run("new", path, "--players", "2", "--seed", str(round_))
        # "play Diplomat" is legal for both seats in turn: the first ends its turn (nothing to copy)
        procs = [subprocess.Popen(CLI + ["play", str(path), "play Diplomat"], env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True) for _ in range(2)]
        results = [(p.wait(timeout=120), p.stderr.read()) for p in procs]
        for p in procs:
            p.stdout.close()
            p.stderr.close()
        moves = json.loads(path.read_text())["moves"]
        ok = [code for code, _ in results if code == 0]
        refused = [err for code, err in results if code == 2]
        assert len(ok) + len(refused) == 2, results
        assert all("being changed by another concordia command" in err for err in refused), results
        assert moves == ["play Diplomat"] * len(ok), (results, moves)


def test_a_held_lock_makes_play_refuse_after_the_wait(tmp_path, monkeypatch):
    from concordia_ai.table import game_file
    path = tmp_path / "g.json"
    run("new", path, "--players", "2", "--seed", "1")
    before = path.read_bytes()
    monkeypatch.setattr(game_file, "LOCK_WAIT_SECONDS", 0.1)
    with game_file.locked(str(path)):
        result = run("play", path, "play Diplomat", code=2)
    assert "is being changed by another concordia command" in result.output
    assert path.read_bytes() == before


# ------------------------------------------------------------ workers die with their parent

PARENT = """
import os, sys, time
from joblib import Parallel, delayed
from concordia_ai.lab.workers import call_in_worker

def report(path):
    with open(path, "a") as f:
        f.write(f"{os.getpid()}\\n")
    time.sleep(600)

Parallel(n_jobs=2)(delayed(call_in_worker)(os.getpid(), report, sys.argv[1]) for _ in range(2))
"""


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ")[1][0] != "Z"
    except OSError:
        return True


def test_workers_die_after_kill_9_of_their_parent(tmp_path):
    pids_file = tmp_path / "pids"
    parent = subprocess.Popen([sys.executable, "-c", PARENT, str(pids_file)],
                              env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    try:
        deadline = time.monotonic() + 120          # hang guard only: workers start in a second or two
        while time.monotonic() < deadline:
            if pids_file.exists() and len(pids_file.read_text().split()) == 2:
                break
            assert parent.poll() is None, "the parent ended before its workers started"
            time.sleep(0.1)
        workers = [int(x) for x in pids_file.read_text().split()]
        assert len(workers) == 2 and parent.pid not in workers
        assert all(_alive(w) for w in workers)
    finally:
        parent.send_signal(signal.SIGKILL)
        parent.wait()
    deadline = time.monotonic() + 60
    while any(_alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = [w for w in workers if _alive(w)]
    for w in left:
        os.kill(w, signal.SIGKILL)
    assert not left, f"workers {left} outlived their parent"


def _children(pid):
    """Every process whose parent is `pid` (Linux /proc)."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(") ", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.append(int(entry))
    return out


def _kill_parent_then_wait_for_children(cmd, tmp_path, stdin=None, want=2):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    parent = subprocess.Popen(cmd, cwd=tmp_path, env=env, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, text=True)
    try:
        if stdin:
            parent.stdin.write(stdin)
            parent.stdin.flush()
        deadline = time.monotonic() + 120        # hang guard: the workers start within seconds
        kids = []
        while time.monotonic() < deadline and len(kids) < want:
            assert parent.poll() is None, "the command ended before its workers started"
            kids = _children(parent.pid)
            time.sleep(0.1)
        assert len(kids) >= want, kids
        time.sleep(0.5)             # let every worker reach its first task (the watchdog starts there)
        kids = _children(parent.pid)
    finally:
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        parent.stdin.close()
    deadline = time.monotonic() + 60
    while any(_alive(k) for k in kids) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = [k for k in kids if _alive(k)]
    for k in left:
        os.kill(k, signal.SIGKILL)
    assert not left, f"processes {left} outlived their parent"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_tournament_workers_die_after_kill_9_of_the_parent(tmp_path):
    spec = "ismcts:iterations=100000000"          # far longer than the test: killed mid-game
    _kill_parent_then_wait_for_children(
        CLI + ["tournament", "--out", "t", "--jobs", "2", "--players", "2", "--games", "2",
               "--bot", f"a={spec}", "--bot", f"b={spec}"], tmp_path)


def _thread_ticks(pid):
    """CPU time (utime + stime, in clock ticks) of each thread of `pid` (Linux /proc)."""
    out = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/stat") as f:
                fields = f.read().rsplit(") ", 1)[1].split()
        except OSError:
            continue
        out[tid] = int(fields[11]) + int(fields[12])
    return out


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_analyze_searches_in_threads_without_worker_processes_and_dies_with_kill_9(tmp_path):
    # root-parallel searches (jobs > 1) run in threads of the analyze process itself: there is no
    # worker process that could outlive it, and a kill -9 ends the whole search at once
    run("new", tmp_path / "g.json", "--players", "2", "--seed", "1")
    query = json.dumps({"id": 1, "file": "g.json", "iterations": 100000000, "config": {"jobs": 2}})
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    proc = subprocess.Popen(CLI + ["analyze"], cwd=tmp_path, env=env, stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True)
    try:
        proc.stdin.write(query + "\n")
        proc.stdin.flush()
        # two threads of the analyze process itself search at once (jobs 2), and no child process exists
        deadline = time.monotonic() + 120        # hang guard: the search starts within seconds
        busy, seen = 0, set()
        while time.monotonic() < deadline and busy < 2:
            assert proc.poll() is None, "analyze ended before its search started"
            before = _thread_ticks(proc.pid)
            for _ in range(10):
                seen.update(_children(proc.pid))
                time.sleep(0.1)
            after = _thread_ticks(proc.pid)
            busy = sum(after[t] > before.get(t, after[t]) for t in after)
        assert busy >= 2, "analyze with jobs 2 does not search in two threads"
        seen.update(_children(proc.pid))
        assert not seen, f"analyze started processes {sorted(seen)}"
    finally:
        proc.send_signal(signal.SIGKILL)
        rc = proc.wait(timeout=30)
        proc.stdin.close()
    assert rc == -signal.SIGKILL
    assert not _alive(proc.pid)


def test_position_template_out_replaces_a_planted_link_and_never_writes_through_it(tmp_path):
    victim = tmp_path / "victim"
    victim.write_text("precious")
    out = tmp_path / "t.json"
    out.symlink_to(victim)
    r = run("position", "template", "--map", "italia", "--players", 2, "--out", out, code=2)
    assert r.stderr == f"error: --out: {out} already exists; choose another name or pass --force to replace it\n"
    run("position", "template", "--map", "italia", "--players", 2, "--out", out, "--force")
    assert victim.read_text() == "precious"
    assert not out.is_symlink() and json.loads(out.read_text())["format"] == "concordia-position"


def _loky_workers(pid):
    out = []
    for kid in _children(pid):
        try:
            with open(f"/proc/{kid}/cmdline", "rb") as f:
                if b"popen_loky" in f.read():
                    out.append(kid)
        except OSError:
            pass
    return out


@pytest.mark.slow       # the workers start and end within seconds each way on a loaded 2-core machine
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_workers_that_never_got_a_task_die_after_kill_9_of_the_tournament(tmp_path):
    # 4 workers for 2 games: two of them never get a task, and must watch the parent from their start
    spec = "ismcts:iterations=100000000"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    parent = subprocess.Popen(CLI + ["tournament", "--out", "t", "--jobs", "4", "--players", "2", "--games", "2",
                                     "--bot", f"a={spec}", "--bot", f"b={spec}"], cwd=tmp_path, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120        # hang guard: the workers start within seconds
        while time.monotonic() < deadline and len(_loky_workers(parent.pid)) < 4:
            assert parent.poll() is None, "the tournament ended before its workers started"
            time.sleep(0.1)
        kids = _children(parent.pid)             # the workers and loky's resource trackers
        assert len(_loky_workers(parent.pid)) == 4
    finally:
        parent.send_signal(signal.SIGKILL)
        parent.wait()
    deadline = time.monotonic() + 60
    while any(_alive(k) for k in kids) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = [k for k in kids if _alive(k)]
    for k in left:
        os.kill(k, signal.SIGKILL)
    assert not left, f"processes {left} outlived their parent"
