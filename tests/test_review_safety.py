"""`concordia review` and its log: no link, FIFO or device is written or read, a damaged log is named
and kept, a torn last line is repaired, two reviews of one game never grade a turn twice, and every
bad input is one line with exit code 2 before any work (issue 17)."""
import json
import os
import threading

import pytest

from concordia_ai.ai.bots import make_bot
from concordia_ai.ai.search import SearchConfig, search
from concordia_ai.engine.game import Game
from concordia_ai.io import atomic_write
from concordia_ai.table import review as rv
from concordia_ai.table.game_file import GameFile
from cli_helpers import run

FAST = ["--iterations", 40, "--jobs", 1, "-q"]
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def game(tmp_path):
    """Four turns of a 2-player game played by the heuristic bot."""
    g = Game.new("italia", 2, seed=5, names=["Ann", "Bob"])
    gf = GameFile.create(str(tmp_path / "g.json"), g)
    bots = [make_bot("heuristic", seed=i) for i in range(2)]
    texts = []
    while g.state.turns < 4:
        m = bots[g.decider].choose(g)
        texts.append(g.text(m))
        g.apply(m)
    gf.apply(texts)
    gf.save()
    return tmp_path / "g.json"


def error(result):
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return lines[0][len("error: "):]


def log_of(game):
    return game.parent / "g.review.jsonl"


def test_a_planted_review_log_link_is_refused_and_its_target_kept(game, tmp_path):
    victim = tmp_path / "victim"
    victim.write_text("precious\n")
    log_of(game).symlink_to(victim)
    msg = error(run("review", game, *FAST, code=2))
    assert msg == f"cannot write the review log {log_of(game)}: it is a symbolic link; refusing to write through it"
    assert victim.read_text() == "precious\n"


def test_a_planted_plot_link_is_replaced_not_followed(game, tmp_path):
    victim = tmp_path / "victim.png"
    victim.write_bytes(b"precious")
    plot = tmp_path / "p.png"
    plot.symlink_to(victim)
    run("review", game, *FAST, "--plot", plot)
    assert victim.read_bytes() == b"precious"
    assert not plot.is_symlink() and plot.read_bytes()[:8] == PNG_MAGIC


def test_a_fifo_as_review_log_is_refused_without_blocking(game):
    os.mkfifo(log_of(game))
    msg = error(run("review", game, *FAST, code=2))
    assert msg == f"cannot write the review log {log_of(game)}: it is not a regular file"


def test_a_review_log_linked_to_dev_zero_is_refused(game):
    log_of(game).symlink_to("/dev/zero")
    msg = error(run("review", game, *FAST, code=2))
    assert msg == f"cannot write the review log {log_of(game)}: it is a symbolic link; refusing to write through it"


def test_jobs_out_of_range_is_refused_before_the_log_is_made(game):
    msg = error(run("review", game, "--iterations", 40, "--jobs", 10 ** 20, code=2))
    assert msg == ("--jobs: 100000000000000000000 is out of range for turns searched at once; "
                   "give an integer in 1..1,024")
    assert not log_of(game).exists()


@pytest.mark.parametrize("option", ["--out", "--plot"])
def test_an_unwritable_out_or_plot_is_found_before_the_review_runs(game, option):
    name = "/proc/x.review.jsonl" if option == "--out" else "/proc/x.png"
    msg = error(run("review", game, *FAST, option, name, code=2))
    assert msg == f"{option}: cannot write into /proc: No such file or directory"
    assert not log_of(game).exists()        # no turn was searched


@pytest.mark.parametrize("option", ["--out", "--plot"])
def test_a_read_only_folder_is_found_before_the_review_runs(game, tmp_path, monkeypatch, option):
    # a read-only folder refuses mkstemp (simulated: the tests may run as root, whom no mode stops)
    real = atomic_write.tempfile.mkstemp
    ro = tmp_path / "ro"
    ro.mkdir()

    def mkstemp(*args, dir=None, **kwargs):
        if os.path.abspath(dir) == str(ro):
            raise PermissionError(13, "Permission denied")
        return real(*args, dir=dir, **kwargs)
    monkeypatch.setattr(atomic_write.tempfile, "mkstemp", mkstemp)
    name = ro / ("r.review.jsonl" if option == "--out" else "p.png")
    msg = error(run("review", game, *FAST, option, name, code=2))
    assert msg == f"{option}: cannot write into {ro}: Permission denied"
    assert not log_of(game).exists() and list(ro.iterdir()) == []


def test_a_binary_review_log_is_named_and_kept(game):
    data = PNG_MAGIC + bytes(range(256)) * 4          # say, a plot given as --out by mistake
    log_of(game).write_bytes(data)
    msg = error(run("review", game, *FAST, code=2))
    assert msg == (f"log {log_of(game)}: line 1 is not a graded turn (not UTF-8 text (bad byte at offset 0)); "
                   f"the log is damaged; remove that line (or give another --out) to grade the turn again")
    assert log_of(game).read_bytes() == data


@pytest.mark.parametrize("field,value,why", [("lossWin", "lots", "lossWin must be a number or null"),
                                             ("played", 7, "played must be a list"),
                                             ("seat", True, "seat must be an integer"),
                                             ("grade", "awful", "grade must be null or one of inaccuracy, "
                                                                "mistake, blunder")])
def test_an_edited_review_record_is_named_and_kept(game, field, value, why):
    run("review", game, *FAST)
    lines = log_of(game).read_text().splitlines()
    rec = json.loads(lines[1])
    rec[field] = value
    lines[1] = json.dumps(rec)
    log_of(game).write_text("\n".join(lines) + "\n")
    before = log_of(game).read_bytes()
    msg = error(run("review", game, *FAST, code=2))
    assert msg == (f"log {log_of(game)}: line 2 is not a graded turn ({why}); the log is damaged; "
                   f"remove that line (or give another --out) to grade the turn again")
    assert log_of(game).read_bytes() == before


def test_a_resumed_review_repairs_a_torn_last_line_and_keeps_every_grade(game):
    first = json.loads(run("review", game, *FAST, "--json").stdout)
    whole = log_of(game).read_text()
    lines = whole.splitlines(keepends=True)
    assert len(lines) == 4
    log_of(game).write_text("".join(lines[:3]) + lines[3][:25])       # killed while writing turn 4
    again = json.loads(run("review", game, *FAST, "--json").stdout)
    assert again["searched"] == 1 and again["turns"] == first["turns"]
    assert log_of(game).read_text() == whole                           # turn 4 on a line of its own


def test_two_reviews_of_one_game_at_once_grade_each_turn_once(game):
    gf = GameFile.load(str(game))
    out = str(log_of(game))
    config = SearchConfig(iterations=40, seed=0)
    searching, second_done = threading.Event(), threading.Event()
    outcome = {}

    def slow_search(g, cfg, **kw):            # the first review holds the log until the second has tried
        searching.set()
        second_done.wait(60)
        return search(g, cfg, **kw)

    def first():
        outcome["first"] = rv.review_game(gf.initial, gf.moves, config, out, search_fn=slow_search)
    t = threading.Thread(target=first)
    t.start()
    assert searching.wait(60), "the first review never started searching"      # so it holds the lock
    try:
        with pytest.raises(rv.ReviewError) as e:
            rv.review_game(gf.initial, gf.moves, config, out)
    finally:
        second_done.set()
        t.join()
    assert str(e.value) == f"{out} is in use by another review of this game; wait for it to finish, or give another --out"
    keys = [json.loads(x)["key"] for x in log_of(game).read_text().splitlines()]
    assert len(keys) == 4 == len(set(keys)) and outcome["first"].searched == 4
