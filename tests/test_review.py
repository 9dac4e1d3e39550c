"""`concordia review`: grades, the JSON and the table, the plot, resuming an interrupted review."""
import hashlib
import json

import pytest

from concordia_ai.table import review as rv
from concordia_ai.ai.bots import make_bot
from concordia_ai.engine.game import Game
from concordia_ai.table.game_file import GameFile
from concordia_ai.ai.search import SearchConfig, search
from concordia_ai.ai.turns import recorded_turns
from cli_helpers import run

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def short_game(tmp_path):
    """Six turns of a 3-player game played by the heuristic bot."""
    g = Game.new("imperium", 3, seed=11, names=["Ann", "Bob", "Cid"])
    gf = GameFile.create(str(tmp_path / "short.json"), g)
    bots = [make_bot("heuristic", seed=i) for i in range(3)]
    texts = []
    while g.state.turns < 6:
        m = bots[g.decider].choose(g)
        texts.append(g.text(m))
        g.apply(m)
    gf.apply(texts)
    gf.save()
    return tmp_path / "short.json"


def test_grades_scaled_to_the_number_of_players():
    # two players: lichess's drops in p (0.05, 0.10, 0.15)
    assert rv.grade(0.049, 0.0, 2) is None
    assert rv.grade(0.05, 0.0, 2) == "inaccuracy"
    assert rv.grade(0.10, 0.0, 2) == "mistake"
    assert rv.grade(0.15, 0.0, 2) == "blunder"
    # four players: a drop counts twice as much (fair share 0.25 instead of 0.5)
    assert rv.grade(0.024, 0.0, 4) is None
    assert rv.grade(0.025, 0.0, 4) == "inaccuracy"
    assert rv.grade(0.05, 0.0, 4) == "mistake"
    assert rv.grade(0.075, 0.0, 4) == "blunder"
    # only the drop beyond the noise counts
    assert rv.grade(0.05, 0.0, 4, noise=0.03) is None
    assert rv.grade(0.08, 0.0, 4, noise=0.03) == "mistake"
    # VP losses on their own; the more severe grade wins
    assert rv.grade(0.0, 2.9, 4) is None
    assert rv.grade(0.0, 3.0, 4) == "inaccuracy"
    assert rv.grade(0.0, 6.0, 3) == "mistake"
    assert rv.grade(0.0, 12.0, 5) == "blunder"
    assert rv.grade(0.03, 6.5, 4) == "mistake"
    assert rv.grade(0.08, 3.5, 4) == "blunder"


def test_review_grades_every_turn_json_matches_table_and_plot(short_game, tmp_path):
    before = hashlib.sha256(short_game.read_bytes()).hexdigest()
    png = tmp_path / "plot.png"
    data = json.loads(run("review", short_game, "--iterations", 300, "--jobs", 1, "--json", "-q",
                          "--plot", png).stdout)
    gf = GameFile.load(str(short_game))
    turns = recorded_turns(gf._initial_game(), gf.moves)
    assert len(turns) == 6 and [r["index"] for r in data["turns"]] == list(range(6))
    assert [r["played"] for r in data["turns"]] == [t.texts for t in turns]
    assert [r["player"] for r in data["turns"]] == ["Ann", "Bob", "Cid"] * 2
    for r in data["turns"]:
        assert r["forced"] or (r["lossWin"] is not None and r["winBest"] is not None)
        assert r["grade"] in (None, *rv.GRADES)
        assert r["grade"] == rv.grade(r["lossWin"], r["lossVp"], 3, r["noise"])
    assert data["searched"] == 6 and (tmp_path / "short.review.jsonl").exists()
    assert [s["player"] for s in data["summary"]] == ["Ann", "Bob", "Cid"]
    assert all(s["turns"] == 2 for s in data["summary"])
    # the PNG is a real image
    blob = png.read_bytes()
    assert blob[:8] == PNG_MAGIC and len(blob) > 5000
    assert hashlib.sha256(short_game.read_bytes()).hexdigest() == before
    # the table (a rerun: everything is read back from the file) shows the same numbers
    out = run("review", short_game, "--iterations", 300, "--jobs", 1, "-q").stdout.splitlines()
    assert out[0].startswith(f"review of {short_game}: 6 turns (0 searched now, 6 read from ")
    rows = [line for line in out[2:] if line[:4].strip().isdigit()]
    assert len(rows) == 6
    for line, r in zip(rows, data["turns"]):
        cells = line.split()
        assert int(cells[0]) == r["turn"] and cells[1] == r["player"]
        assert cells[2] == (r["grade"] or "-")
        assert cells[3:7] == [f"{100 * r['winBest']:.1f}", f"{100 * r['winPlayed']:.1f}",
                              f"{100 * r['lossWin']:.1f}", f"{r['lossVp']:.1f}"]
        assert line.endswith("; ".join(r["played"]))
    for s in data["summary"]:
        word = lambda n, w: f"{n} {w if n == 1 else w[:-1] + 'ies' if w.endswith('y') else w + 's'}"  # noqa: E731
        head = (f"  {s['player']}: {word(s['graded'], 'turn')} graded; {word(s['inaccuracies'], 'inaccuracy')}, "
                f"{word(s['mistakes'], 'mistake')}, {word(s['blunders'], 'blunder')}; mean loss "
                f"{100 * s['meanLossWin']:.1f} win %, {s['meanLossVp']:.1f} VP")
        assert head in out


def test_interrupted_review_resumes_without_redoing(short_game, tmp_path):
    gf = GameFile.load(str(short_game))
    config = SearchConfig(iterations=300, seed=0)
    calls: list[int] = []

    def counting(game, cfg, **kw):
        calls.append(game.state.turns)
        return search(game, cfg, **kw)

    full = rv.review_game(gf.initial, gf.moves, config, str(tmp_path / "full.jsonl"), search_fn=counting)
    per_turn = {t: calls.count(t) for t in set(calls)}
    assert set(per_turn) == set(range(6)) and full.searched == 6

    def interrupted(game, cfg, **kw):
        if game.state.turns == 3:
            raise KeyboardInterrupt
        return search(game, cfg, **kw)

    out = tmp_path / "part.jsonl"
    with pytest.raises(KeyboardInterrupt):
        rv.review_game(gf.initial, gf.moves, config, str(out), search_fn=interrupted)
    assert len(out.read_text().splitlines()) == 3          # turns 1-3 were written as they finished
    calls.clear()
    again = rv.review_game(gf.initial, gf.moves, config, str(out), search_fn=counting)
    assert again.searched == 3 and sorted(set(calls)) == [3, 4, 5]
    assert len(calls) == sum(per_turn[t] for t in (3, 4, 5))
    assert again.records == full.records
    # a torn last line (killed while writing) is ignored and that turn redone
    out.write_text(out.read_text() + '{"key": "x", "tor')
    calls.clear()
    assert rv.review_game(gf.initial, gf.moves, config, str(out), search_fn=counting).searched == 0 and not calls


def test_review_one_player(short_game):
    data = json.loads(run("review", short_game, "--iterations", 200, "--jobs", 1, "--json", "-q",
                          "--player", "bob").stdout)
    assert [r["player"] for r in data["turns"]] == ["Bob", "Bob"]
    assert [s["player"] for s in data["summary"]] == ["Bob"]


@pytest.mark.parametrize("args, words", [
    (["--player", "Zed"], ["--player", "'Zed'", "Ann, Bob, Cid"]),
    (["--plot", "out.txt"], ["--plot", ".png"]),
    (["--plot", "/no/such/folder/x.png"], ["--plot", "does not exist"]),
    (["--out", "x.json"], ["--out", ".jsonl"]),
    (["--time", "0"], ["--time"]),
    (["--iterations", "0"], ["--iterations"]),
    (["--time", "1", "--iterations", "10"], ["one budget"]),
    (["--jobs", "0"], ["--jobs"]),
    (["--seed", "-1"], ["--seed"]),
    (["--plot", "."], ["--plot"]),
])
def test_review_bad_options(short_game, args, words):
    before = hashlib.sha256(short_game.read_bytes()).hexdigest()
    r = run("review", short_game, "-q", *args, code=2)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert all(w in lines[0] for w in words), lines[0]
    assert hashlib.sha256(short_game.read_bytes()).hexdigest() == before
    assert not (short_game.parent / "short.review.jsonl").exists()


def test_parallel_review_gives_the_same_grades(short_game, tmp_path):
    gf = GameFile.load(str(short_game))
    config = SearchConfig(iterations=200, seed=3)
    one = rv.review_game(gf.initial, gf.moves, config, str(tmp_path / "one.jsonl"), jobs=1)
    from concordia_ai.lab.runner import map_unordered
    two = rv.review_game(gf.initial, gf.moves, config, str(tmp_path / "two.jsonl"), jobs=2, map_fn=map_unordered)
    assert two.records == one.records and two.searched == 6     # in game order, whatever order they finished
    assert sorted(json.loads(x)["index"] for x in (tmp_path / "two.jsonl").read_text().splitlines()) == list(range(6))


def test_review_says_once_when_its_figures_are_not_calibrated(short_game):
    """300 iterations are far from the budgets the final-result model was fitted at: the review says so once,
    in the table and in the JSON, as hint does; at the default budget (1 s) it says nothing."""
    from concordia_ai.ai import outcome
    from concordia_ai.ai.search import TABLE_SEARCH
    expected = outcome.note(outcome.find("net", 3, 300 / outcome.ITERATIONS_PER_SECOND), 300 / outcome.ITERATIONS_PER_SECOND)
    assert expected and "far from it" in expected
    data = json.loads(run("review", short_game, "--iterations", 300, "--jobs", 1, "--json", "-q").stdout)
    assert data["notes"] == [expected]
    out = run("review", short_game, "--iterations", 300, "--jobs", 1, "-q").stdout.splitlines()
    assert out[1] == f"note: {expected}" and sum(line.startswith("note: ") for line in out) == 1
    config = SearchConfig(**TABLE_SEARCH, seconds=1.0, iterations=0)
    from concordia_ai.ai.search import figures_notes
    assert figures_notes(config, GameFile.load(str(short_game))._initial_game()) == []

