"""Whole turns: the search's turn candidates, `hint` (whole turns, --move), `play --suggested`."""
import hashlib
import json
import re

import pytest

from concordia_ai.cli.budget import search_budget
from concordia_ai.cli.app import UserError
from concordia_ai.engine.game import CHANCE, Game
from concordia_ai.table.game_file import GameFile
from concordia_ai.ai import outcome
from concordia_ai.ai.search import TABLE_SEARCH, SearchConfig, TurnCandidate, merge_turns, rank_turns, search, win_se
from concordia_ai.ai.turns import (
    hint_warnings,
    line_after,
    parse_turn,
    recorded_turns,
    turn_effect,
    turn_over,
)
from concordia_ai.engine.notation import NotationError
from cli_helpers import new_game, run

ARCH = "play Architect; move sea Roma > Carthago-Massilia; build Massilia; build Carthago; done"
DISPLAY = "Architect/I,Prefect/I,Mercator/I,Colonist/I,Diplomat/I,Mason/I,Farmer/I"


def digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def one_line_error(result, *words):
    lines = [x for x in result.stderr.strip().splitlines() if "elapsed" not in x]    # but the progress bar
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for w in words:
        assert w in lines[0], (w, lines[0])


def assert_whole_turn(game, moves):
    """Every move legal, and the turn ends with the last one, not before."""
    g = game.clone()
    g.state.set_chance(False, True)
    seat, turn = game.decider, game.state.turns
    for i, a in enumerate(moves):
        assert not turn_over(g, seat, turn), (i, moves)
        assert g.state.is_legal(a)
        g.state.apply(a)
    assert turn_over(g, seat, turn)


# ---------------------------------------------------------------- the search's turns

def test_search_turns_are_legal_whole_turns():
    game = Game.new("imperium", 3, seed=7)
    r = search(game, SearchConfig(iterations=1500, seed=1))
    assert 5 <= len(r.turns) <= 32 and r.searches == 1
    assert sum(t.visits for t in r.turns) <= r.iterations
    for t in r.turns:
        assert_whole_turn(game, t.moves)
        assert t.texts[0].startswith("play ") and not any(x.startswith("reveal") for x in t.texts)
        assert (t.tree_moves < len(t.moves)) if t.partial else (t.tree_moves == len(t.moves))
        assert t.win_se == outcome.predict_stats(t.stats, game.decider, r.horizon, r.model)[1]
    assert r.turns == rank_turns(r.turns) and not r.turns[0].chosen     # focus 0: no final choice
    # transpositions (the same builds in another order) are one candidate
    ends = set()
    for t in r.turns:
        g = game.clone()
        g.state.set_chance(False, True)
        for a in t.moves:
            g.state.apply(a)
        key = g.state.key()
        assert key not in ends
        ends.add(key)


def test_turn_ends_before_a_reveal_at_a_real_table():
    cities = ",".join(f"{c}={g}" for c, g in Game.new("imperium", 3, seed=5).to_json()["cities"].items())
    game = Game.from_table("imperium", 3, dict(x.split("=") for x in cities.split(",")), DISPLAY.split(","))
    game.apply("play Senator")
    r = search(game, SearchConfig(iterations=1500, seed=2))
    assert any(x.startswith("buy") for t in r.turns for x in t.texts)
    for t in r.turns:
        g = game.clone()
        for a in t.moves:
            g.apply(a)
        # a card bought leaves a gap: the reveal follows the turn, and its statistics include every outcome
        bought = any(x.startswith("buy") for x in t.texts)
        assert g.decider == (CHANCE if bought else 1), t.texts


def test_win_se_of_hand_built_turns_and_ranking_by_win():
    assert win_se(0.5, 0) == 0.5
    assert win_se(1.0, 8) == pytest.approx(((0.9 * 0.1) / 8) ** 0.5)          # p = (8 + 1) / (8 + 2)
    assert win_se(0.25, 98) == pytest.approx(((25.5 / 100) * (74.5 / 100) / 98) ** 0.5)
    a = TurnCandidate([1], ["a"], 1000, 0.5, 0.60, 20, 1, win_se(0.60, 1000))
    b = TurnCandidate([2], ["b"], 5, 0.5, 0.80, 20, 1, win_se(0.80, 5))        # higher, but thin: after the firm
    c = TurnCandidate([3], ["c"], 900, 0.5, 0.62, 20, 1, win_se(0.62, 900))
    assert [t.texts for t in rank_turns([a, b, c])] == [["c"], ["a"], ["b"]]


def test_merge_turns_by_the_position_reached():
    game = Game.new("imperium", 3, seed=7)
    one = parse_turn(game, ARCH)
    # the builds typed in the other order are put into the engine's one order: the same moves
    other = parse_turn(game, ARCH.replace("build Massilia; build Carthago", "build Carthago; build Massilia"))
    assert other == one
    prefect = parse_turn(game, "play Prefect; cash")

    def mk(moves, n, vp0, partial=False):
        st = outcome.NodeStats(n, [vp0, 20.0, 20.0], vp0 - 20.0, (vp0 - 20.0) ** 2 + 4.0)
        return TurnCandidate(moves, [], n, 0.5, 0.0, 0.0, 0.0, 0.0, partial, len(moves), stats=st)
    model = outcome.Model("net", 3, 1.0, log_sigma=(1.5, 0.0))
    merged = merge_turns(game, [[mk(one, 300, 30.0), mk(prefect, 100, 22.0)],
                                [mk(other, 100, 26.0), mk(prefect, 200, 25.0, partial=True)]], model, 0.5)
    assert len(merged) == 2
    arch, pre = merged
    # pooled over the visits: the seat's mean VP (300 * 30 + 100 * 26) / 400 = 29, and the figures from it
    assert arch.moves == one and arch.visits == 400 and arch.stats.seat_vp == pytest.approx([29.0, 20.0, 20.0])
    expect, se = outcome.predict_stats(arch.stats, game.decider, 0.5, model)
    assert arch.win == expect.win and arch.win_se == se and arch.vp == pytest.approx(29.0)
    assert pre.visits == 300 and pre.stats.seat_vp[0] == pytest.approx(24.0) and not pre.partial
    assert arch.texts == [x.strip() for x in ARCH.split(";")]


def test_turn_effect_and_line_after():
    game = Game.new("imperium", 3, seed=7, names=["Ann", "Bob", "Cid"])
    moves = parse_turn(game, ARCH)
    eff = turn_effect(game, moves)
    # Massilia is a brick city (1 coin + 1 food), Carthago a tool city (3 coins + brick + tool)
    assert eff["coins"] == {"before": 5, "after": 1}
    assert eff["goods.food"] == {"before": 2, "after": 1} and eff["goods.brick"] == {"before": 1, "after": 0}
    assert eff["goods.tool"] == {"before": 1, "after": 0} and eff["goods.wine"] == {"before": 1, "after": 1}
    assert eff["houses"] == {"before": 0, "after": 2} and eff["vp_now"] == {"before": 7, "after": 15}
    # a line of 12 more turns (4 rounds) played by a fixed rule: it stops before Ann's third turn after this
    g = game.clone()
    g.state.set_chance(False, True)       # as in the search tree: reveals are moves of chance
    for a in moves:
        g.apply(a)
    after = []
    while g.state.turns < 13:
        a = g.legal_moves()[-1]
        after.append(a)
        g.apply(a)
    t = TurnCandidate(moves, [], 10, 0.5, 0.5, 10, 0, 0.1, after=after)
    segs = line_after(game, t)
    assert [s["turn"] for s in segs if s["who"] != "chance"] == sorted({s["turn"] for s in segs if s["who"] != "chance"})
    assert {s["turn"] for s in segs} == set(range(2, 10))           # turns 4 and 7 are Ann's, 10 is not shown
    assert [s["who"] for s in segs if s["who"] != "chance"][:3] == ["Bob", "Cid", "Ann"]
    assert sum(len(s["moves"]) for s in segs) < len(after)


def test_hint_warnings_in_words():
    firm = [TurnCandidate([1], ["a"], 5000, 0.5, 0.6, 20, 1, 0.007, tops=2),
            TurnCandidate([2], ["b"], 900, 0.5, 0.5, 20, 1, 0.017)]
    assert hint_warnings(firm, searches=2) == []
    thin = [TurnCandidate([1], ["a"], 150, 0.5, 0.6, 20, 1, 0.04, partial=True, tree_moves=2, tops=1),
            TurnCandidate([1, 2, 3], ["b"], 140, 0.5, 0.55, 20, 1, 0.042)]
    thin[0].moves = [1, 2, 3, 4]
    w = hint_warnings(thin, searches=2)
    assert w[0].startswith("Few visits: the top turn has only 150 (under 200)")
    assert w[1] == ("Close: the top two turns differ by 5.0 win % points, within noise of each other (4 standard "
                    "errors of the difference: 23.2 points, the final choice's tie); by this search either is about "
                    "as good.")
    assert w[2].startswith("The 2 independent searches did not all choose this turn (1 of them did)")
    assert w[3] == "The search explored only the first 2 of the top turn's 4 moves; the rest is the greedy continuation."
    assert hint_warnings([]) == ["The search found no whole turn: give it more time (--time) or iterations."]


def test_close_names_the_margin_the_pick_used_when_the_floor_is_wider():
    # shown errors of 0.05 points: 4 standard errors of the difference are 0.28 points, under the rule's floor of
    # 2 points (search.TIE_WIN); a gap of 1.5 points is tied by the floor, and the note says so with the floor's
    # figure
    from concordia_ai.ai import search as _search
    assert _search.TIE_WIN == 0.02
    turns = [TurnCandidate([1], ["a"], 5000, 0.5, 0.515, 20, 1, 0.0005),
             TurnCandidate([2], ["b"], 5000, 0.5, 0.500, 20, 1, 0.0005)]
    assert hint_warnings(turns) == [
        "Close: the top two turns differ by 1.5 win % points, within the final choice's tie floor of 2.0 points "
        "(wider here than 4 standard errors of the difference, the final choice's tie); by this search either is "
        "about as good."]


def test_close_means_the_final_choices_tie_not_a_narrower_one():
    # 3 standard errors apart: inside the tie rule of search.final_pick (TIE_Z 4), so "close"; 5 apart: not
    from concordia_ai.ai import search as _search
    se = 0.01
    gap = lambda z: [TurnCandidate([1], ["a"], 5000, 0.5, 0.5 + z * se * 2 ** 0.5, 20, 1, se),   # noqa: E731
                     TurnCandidate([2], ["b"], 5000, 0.5, 0.5, 20, 1, se)]
    assert _search.TIE_Z == 4.0
    assert any(n.startswith("Close:") for n in hint_warnings(gap(3)))
    assert not any(n.startswith("Close:") for n in hint_warnings(gap(5)))


def test_a_favourite_with_a_negative_margin_is_explained():
    """A 4-player first-round hint: 37.7 % to win (fair 25 %) and an expected margin of -15.6 VP over the best
    other seat. Both are right (the best of three uncertain scores is far above one seat's expectation); the
    hint says so once, and not where the figures agree (behind on both) or with 2 players (one other seat)."""
    def turns(win, margin, seats):
        return [TurnCandidate([1], ["a"], 5000, 0.5, win, 80, margin, 0.007, seats=seats),
                TurnCandidate([2], ["b"], 900, 0.5, win - 0.2, 78, margin - 3, 0.017, seats=seats)]
    w = hint_warnings(turns(0.377, -15.6, [0.377, 0.2, 0.2, 0.223]))
    assert w == ["The margin is over the best of the 3 others, whoever that turns out to be. While the final "
                 "scores are this uncertain, the best of them is likely to end ahead, so even a favourite (win % "
                 "37.7, against a fair 25.0) expects a negative margin. Compare turns by win %."]
    assert hint_warnings(turns(0.2, -15.6, [0.2, 0.3, 0.3, 0.2])) == []        # behind on both: no contradiction
    assert hint_warnings(turns(0.377, 2.0, [0.377, 0.2, 0.2, 0.223])) == []    # ahead on both
    assert hint_warnings(turns(0.6, -1.0, [0.6, 0.4])) == []                   # 2 players: the margin is the lead


def test_budget_helper():
    opts, text = search_budget(None, None, None, default_jobs=4)
    assert opts == {"seconds": 3.0, "iterations": 0, "jobs": 4, **TABLE_SEARCH}
    assert text.startswith("3 s of CPU time in each of 4 search threads")
    opts, text = search_budget(None, 500, None)
    assert opts == {"iterations": 500, "seconds": 0.0, "jobs": 1, **TABLE_SEARCH} and text == "500 iterations in each of 1 search thread"
    opts, _ = search_budget(None, None, 2, {"iterations": 400, "c": 0.5, "focus": 0.0})
    assert opts == {**TABLE_SEARCH, "iterations": 400, "c": 0.5, "jobs": 2, "focus": 0.0}   # a bot spec's own focus counts
    for args in ((0.0, None, None), (None, 0, None), (1.0, 5, None), (float("nan"), None, None)):
        with pytest.raises(UserError):
            search_budget(*args)


# ---------------------------------------------------------------- the CLI

def test_hint_whole_turns_text_and_json(tmp_path):
    f = new_game(tmp_path)
    before = digest(f)
    r = run("hint", f, "--iterations", 1500, "--top", 3)
    out = r.stdout.splitlines()
    head = ("Ann decides (turn 1 (round 1), play); whole turns: the final choice's turn first (sequential "
            "halving over whole turns by win %; among the turns within noise of the best finalist, the "
            "better end position), then the others by win %, best first")
    # and, when the list holds turns too thin to rank (a PUCT search leaves some on few visits), where they go
    assert re.fullmatch(re.escape(head) + r"( \(the turns on fewer than \d+ visits after the others\))?", out[0])
    assert out[1].startswith("budget: 1500 iterations in each of 1 search thread; took ")
    assert out[2].split() == ["#", "win", "%", "VP", "margin", "loss:", "win", "%", "VP", "visits", "turn"]
    assert [line.split()[0] for line in out[3:6]] == ["1", "2", "3"]
    assert out[6].startswith("The top turn changes: coins 5")
    data = json.loads(run("hint", f, "--iterations", 1500, "--top", 3, "--json", "-q").stdout)
    assert digest(f) == before
    game = Game.new("imperium", 3, seed=7)
    assert len(data["turns"]) == 3 and data["candidateTurns"] >= 3 and data["rootInfo"]["searches"] == 1
    for i, t in enumerate(data["turns"]):
        assert_whole_turn(game, parse_turn(game, "; ".join(t["moves"])))
        row = " ".join(out[3 + i].split())
        assert f"{100 * t['winrate']:.1f} ± {100 * t['winrateSe']:.1f}" in row and row.endswith("; ".join(t["moves"]))
        assert t["lossWinrate"] == pytest.approx(data["turns"][0]["winrate"] - t["winrate"], abs=2e-4)
        assert t["order"] == i and str(t["visits"]) in row
    eff = data["effect"]
    c0, c1 = eff["coins"]["before"], eff["coins"]["after"]
    coins = f"coins {c0} (unchanged)" if c0 == c1 else f"coins {c0} -> {c1} ({c1 - c0:+d})"
    assert out[6] == "The top turn changes: " + coins + out[6].split(")", 1)[1]
    assert data["warnings"] == [line[len("note: "):] for line in out if line.startswith("note: ")]


def test_suggested_plays_exactly_that_turn(tmp_path):
    f = new_game(tmp_path)
    data = json.loads(run("hint", f, "--iterations", 1200, "--top", 3, "--json", "-q").stdout)
    for n, turn in enumerate(data["turns"], 1):
        g = tmp_path / f"s{n}.json"
        g.write_bytes(f.read_bytes())
        r = run("play", g, "--suggested", n, "--iterations", 1200, "-q")
        assert r.stdout.splitlines()[1:-1] == [f"played: {m} (Ann, turn 1, round 1)" for m in turn["moves"]]
        gf = GameFile.load(str(g))
        assert gf.moves == turn["moves"]
        assert gf.game.decider == 1 and gf.game.state.turns == 1 and gf.game.phase == "play"
        assert r.stdout.splitlines()[-1].startswith("next: turn 2 (round 1): Bob's turn; Bob decides now")
    # --suggested alone is candidate 1
    g = tmp_path / "s.json"
    g.write_bytes(f.read_bytes())
    run("play", g, "--suggested", "--iterations", 1200, "-q")
    assert GameFile.load(str(g)).moves == data["turns"][0]["moves"]


def test_hint_move_judges_an_intended_turn(tmp_path):
    f = new_game(tmp_path)
    data = json.loads(run("hint", f, "--iterations", 1500, "--json", "-q", "--top", 32).stdout)
    second = "; ".join(data["turns"][1]["moves"])
    judged = json.loads(run("hint", f, "--iterations", 1500, "--json", "-q", "--move", second, "--top", 32).stdout)
    j = judged["move"]
    # the named turn is searched again beside the candidates: its rank and loss are those of that answer's list
    mine = [i for i, t in enumerate(judged["turns"]) if "; ".join(t["moves"]) == second]
    assert j["inList"] and j["source"] == "candidates" and mine and j["rank"] == mine[0] + 1
    assert j["lossWinrate"] == pytest.approx(max(0.0, judged["turns"][0]["winrate"] - judged["turns"][mine[0]]["winrate"]),
                                             abs=2e-4)
    listed = {tuple(t["moves"]) for t in data["turns"]}
    # a legal whole turn that the search did not keep (the first of a few plausible-but-odd ones)
    odds = ["play Prefect; cash", "play Mercator/3; sell 1 wine; done", "play Mercator/3; sell 1 tool; done",
            "play Mercator/3; buy 1 brick; done", "play Senator; done"]
    odd = next(t for t in odds if tuple(t.split("; ")) not in listed)
    r = run("hint", f, "--iterations", 1500, "-q", "--move", odd)
    line = next(x for x in r.stdout.splitlines() if x.startswith("Your turn"))
    assert "(searched beside them in the same tree)" in line and "loss against the top turn" in line
    j = json.loads(run("hint", f, "--iterations", 1500, "--json", "-q", "--move", odd).stdout)["move"]
    # a turn the search did not keep joins the final choice: it is in the list, with its place and figures
    assert j["inList"] and j["source"] == "candidates" and j["visits"] > 0 and j["rank"] >= 1
    assert j["moves"] == odd.split("; ") and j["lossWinrate"] >= 0 and j["lossVp"] >= 0


@pytest.mark.parametrize("args, words", [
    (["--move", "play Architekt; done"], ["--move", "move 1 of 2", "Architekt"]),
    (["--move", "play Architect"], ["not finished", "continue with one of"]),
    (["--move", "play Prefect; cash; play Architect"], ["turn ends after 'cash'"]),
    (["--move", " ; "], ["give a whole turn"]),
    (["--move", "play Prefect; cash", "--step"], ["cannot be combined with --step"]),
    (["--bot", "flatmc:iterations=100"], ["add --step"]),
    (["--time", "0"], ["--time"]),
    (["--time", "nan"], ["--time"]),
    (["--iterations", "-3"], ["--iterations"]),
    (["--time", "1", "--iterations", "5"], ["one budget"]),
    (["--jobs", "0"], ["--jobs"]),
    (["--top", "0"], ["--top"]),
])
def test_hint_bad_options(tmp_path, args, words):
    f = new_game(tmp_path)
    before = digest(f)
    one_line_error(run("hint", f, "--iterations", 100, "-q", *args, code=2) if "--time" not in args and
                   "--iterations" not in args else run("hint", f, "-q", *args, code=2), *words)
    assert digest(f) == before


@pytest.mark.parametrize("args, words", [
    (["--suggested", "0"], ["--suggested", "0"]),
    (["--suggested", "x"], ["--suggested", "x"]),
    (["--suggested", "99", "--iterations", "300"], ["--suggested: 99 is not a candidate", "give 1 to"]),
    (["--suggested", "1", "--iterations", "0"], ["--iterations"]),
    (["--suggested", "1", "--time", "-2"], ["--time"]),
    (["--suggested", "1", "--iterations", "300", "play Architect"], ["moves or --suggested"]),
    (["play Architect", "--iterations", "300"], ["budget of --suggested"]),
    (["--suggested", "1", "--seed", "-1"], ["--seed"]),
    (["--suggested", "1", "--jobs", "0"], ["--jobs"]),
    (["--suggested", "1", "--time", "1", "--iterations", "5"], ["one budget"]),
])
def test_play_suggested_bad_values(tmp_path, args, words):
    f = new_game(tmp_path)
    before = digest(f)
    one_line_error(run("play", f, *args, code=2), *words)
    assert digest(f) == before


def test_parse_turn_and_recorded_turns():
    game = Game.new("imperium", 3, seed=7)
    assert [game.text(m) for m in parse_turn(game, "pl pref; cash")] == ["play Prefect", "cash"]
    with pytest.raises(NotationError, match="not finished"):
        parse_turn(game, "play Prefect")
    g = game.clone()
    texts = []
    for turn in (ARCH, "play Prefect; cash", "play Senator; done"):
        for a in parse_turn(g, turn):
            texts.append(g.text(a))
            g.apply(a)
    turns = recorded_turns(game, texts)
    assert [(t.seat, t.turn, t.start, t.end) for t in turns] == [(0, 0, 0, 5), (1, 1, 5, 7), (2, 2, 7, 9)]
    assert turns[1].texts == ["play Prefect", "cash"] and not turns[0].forced
    # an unfinished last turn is not a recorded turn
    assert len(recorded_turns(game, texts[:-1])) == 2


def test_analyze_answers_the_same_whole_turns(tmp_path):
    from concordia_ai.protocol.analyze import handle
    f = new_game(tmp_path)
    replies = []
    handle(json.dumps({"id": "t", "file": str(f), "iterations": 1200, "lines": 4}), replies.append)
    answer = replies[-1]
    hint = json.loads(run("hint", f, "--iterations", 1200, "--top", 4, "--json", "-q").stdout)
    assert answer["turns"] == hint["turns"] and len(answer["turns"]) == 4
    t = answer["turns"][0]
    assert set(t) == {"moves", "visits", "winrate", "winrateSe", "scoreLead", "vp", "utility", "lossWinrate",
                      "lossVp", "order", "partial", "treeMoves", "after", "seatWinrates"}
    assert t["lossWinrate"] == 0 and t["lossVp"] == 0 and t["order"] == 0
    # the single moves lead with the first move of the turn the final choice picked
    assert answer["candidates"] and answer["candidates"][0]["move"] == t["moves"][0]
    for seg in t["after"]:
        assert set(seg) == {"who", "turn", "moves"} and seg["who"] in ("Ann", "Bob", "Cid", "chance")


@pytest.mark.parametrize("board, players, steps", [
    ("imperium", 4, 60), ("italia", 5, 140), ("creta", 3, 90), ("aegyptus", 4, 200), ("imperium", 2, 300)])
def test_turns_are_whole_turns_in_mid_game_positions(board, players, steps):
    import random
    game = Game.new(board, players, seed=steps)
    rng = random.Random(steps)
    for _ in range(steps):          # random sub-decisions: positions in the middle of a turn too
        game.state.apply(rng.choice(game.legal_moves()))
    while game.decider == CHANCE:
        game.state.apply(rng.choice(game.legal_moves()))
    assert game.decider is not None
    r = search(game, SearchConfig(iterations=400, seed=steps))
    assert r.turns
    for t in r.turns:
        assert_whole_turn(game, t.moves)


def test_a_keep_choice_is_a_turn_of_its_own():
    import random
    game, rng = Game.new("imperium", 4, seed=1), random.Random(1)
    while game.phase != "keep":         # random play until a storehouse overflows (seed 1: turn 477)
        game.state.apply(rng.choice(game.legal_moves()))
    assert (game.decider, game.state.turns) == (0, 476)
    r = search(game, SearchConfig(iterations=500, seed=1))
    assert sorted(t.texts for t in r.turns) == [["keep brick"], ["keep tool"]]
    for t in r.turns:
        assert_whole_turn(game, t.moves)


def test_a_note_that_calls_one_figure_higher_never_shows_two_equal_numbers():
    from concordia_ai.ai.turns import distinct_pcts
    assert distinct_pcts(0.4641, 0.4638) == ("46.41", "46.38")
    assert distinct_pcts(0.46412, 0.46408) == ("46.412", "46.408")
    assert distinct_pcts(0.52, 0.41) == ("52.0", "41.0")
    top = TurnCandidate([1], ["a"], 900, 0.0, 0.4638, 100.0, 0.0, 0.0001, focus=3, candidate=True, chosen=True)
    second = TurnCandidate([2], ["b"], 800, 0.0, 0.4641, 100.0, 0.0, 0.0001, focus=3, candidate=True)
    note = next(w for w in hint_warnings([top, second]) if w.startswith("#1 is the final choice's turn"))
    assert "(46.41 against 46.38)" in note
