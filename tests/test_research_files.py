"""`concordia research`: every file goes through atomic_write (no planted link is followed), bounds are
checked before the run folder is made, and a run that fails to start leaves nothing behind (issue 17)."""
import json
import os

import pytest

from concordia_ai.io import atomic_write
from concordia_ai.lab import runner
from cli_helpers import run

FAST = ["--map", "italia", "--players", 2, "--bot", "random", "--seed", 1, "--jobs", 1, "--bootstrap", 20,
        "--min-n", 2, "--games", 2, "-q"]


def error(result):
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return lines[0][len("error: "):]


@pytest.mark.slow      # four plots: about 10 s on a busy 2-core machine
def test_planted_tmp_and_plot_links_are_not_followed(tmp_path):
    out = tmp_path / "r"
    (out / "plots").mkdir(parents=True)
    victim = tmp_path / "victim"
    victim.write_text("precious")
    for name in ("research.json.tmp", "report.json.tmp", "report.md.tmp", "plots/gods.png",
                 "plots/seats.png.tmp"):
        (out / name).symlink_to(victim)
    run("research", "cards", *FAST, "--out", out)
    assert victim.read_text() == "precious"
    assert json.loads((out / "report.json").read_text())["games"] == 2
    pngs = sorted(p for p in (out / "plots").iterdir() if p.suffix == ".png")
    assert [p.name for p in pngs] == ["card-values.png", "gods.png", "seats.png", "timing.png"]
    assert all(not p.is_symlink() and p.read_bytes()[:4] == b"\x89PNG" for p in pngs)


@pytest.mark.parametrize("name", ["games.jsonl", "research.json", "plots", "report.md"])
@pytest.mark.parametrize("dangling", [False, True])
def test_a_planted_link_in_out_is_refused_before_anything_is_written(tmp_path, name, dangling):
    out = tmp_path / "r"
    out.mkdir()
    victim = tmp_path / "victim"
    if not dangling:
        victim.mkdir() if name == "plots" else victim.write_text("")
    (out / name).symlink_to(victim)
    msg = error(run("research", "cards", *FAST, "--out", out, code=2))
    assert msg == (f"--out: {out / name} is a symbolic link; a research run writes only files of its own in {out} "
                   f"(remove the link or choose another --out)")
    assert sorted(p.name for p in out.iterdir()) == [name]
    assert not victim.exists() if dangling else (list(victim.iterdir()) == [] if name == "plots"
                                                 else victim.read_text() == "")


@pytest.mark.parametrize("args,msg", [
    (["--games", 10 ** 12], "--games: 1000000000000 is out of range for research games; give an integer in 1..100,000"),
    (["--jobs", 10 ** 14], "--jobs: 100000000000000 is out of range for parallel games; give an integer in 1..1,024"),
    (["--bootstrap", 10 ** 9], "--bootstrap: 1000000000 is out of range for bootstrap resamples; give an integer in "
                               "0..10,000"),
])
def test_bounds_are_refused_before_the_run_folder_is_made(tmp_path, args, msg):
    out = tmp_path / "r"
    assert error(run("research", "cards", *FAST, *args, "--out", out, code=2)) == msg
    assert not out.exists()


def test_intervention_games_are_bounded_over_every_card(tmp_path):
    msg = error(run("research", "intervene", *FAST, "--card", "all", "--games", 5000, "--out", tmp_path / "r",
                    code=2))
    assert msg == ("--games: 5,000 pairs for 11 cards are 110,000 games; a run plays at most 100,000 "
                   "(fewer --games or fewer --card)")
    assert not (tmp_path / "r").exists()


def test_report_bootstrap_is_bounded(tmp_path):
    out = tmp_path / "r"
    run("research", "cards", *FAST, "--out", out, "--no-plots")
    before = (out / "report.json").read_bytes()
    msg = error(run("research", "report", out, "--bootstrap", 10 ** 9, code=2))
    assert msg == "--bootstrap: 1000000000 is out of range for bootstrap resamples; give an integer in 0..10,000"
    assert (out / "report.json").read_bytes() == before


def _unreachable(*args, **kwargs):
    raise runner.BackendError("--scheduler: cannot connect to tcp://127.0.0.1:9: Timed out")
    yield


def test_an_unreachable_scheduler_leaves_nothing_and_the_same_command_then_runs(tmp_path, monkeypatch):
    out = tmp_path / "runs" / "r"
    args = ["research", "cards", *FAST, "--out", out, "--no-plots", "--backend", "dask", "--scheduler",
            "tcp://127.0.0.1:9"]
    monkeypatch.setattr(runner, "_dask", _unreachable)
    assert error(run(*args, code=2)) == "--scheduler: cannot connect to tcp://127.0.0.1:9: Timed out"
    assert not (tmp_path / "runs").exists()
    monkeypatch.setattr(runner, "_dask", lambda fn, tasks, *a: (fn(t) for t in tasks))   # reachable now
    assert "2 games played now" in run(*args).stdout


def test_a_failed_start_in_an_existing_folder_keeps_the_folder_and_what_it_held(tmp_path, monkeypatch):
    out = tmp_path / "r"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    monkeypatch.setattr(runner, "_dask", _unreachable)
    run("research", "cards", *FAST, "--out", out, "--backend", "dask", "--scheduler", "tcp://127.0.0.1:9", code=2)
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]


def test_report_in_a_read_only_folder_is_one_line(tmp_path, monkeypatch):
    out = tmp_path / "r"
    run("research", "cards", *FAST, "--out", out, "--no-plots")
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    real = atomic_write.tempfile.mkstemp

    def mkstemp(*args, dir=None, **kwargs):       # a read-only folder (the tests may run as root)
        if os.path.abspath(dir) == str(out):
            raise PermissionError(13, "Permission denied")
        return real(*args, dir=dir, **kwargs)
    monkeypatch.setattr(atomic_write.tempfile, "mkstemp", mkstemp)
    msg = error(run("research", "report", out, "--no-plots", code=2))
    assert msg == f"--out: cannot write {out / 'report.json'}: Permission denied"
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
