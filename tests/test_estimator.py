"""One estimator for every figure compared (issue 15, 3 and 5): a named turn is searched beside the search's
own candidates in the same tree, the final choice is made over whole turns, and the same seed and
budget give the same answer."""
import json
import math

import pytest

from concordia_ai import core
from concordia_ai.ai import search as search_module
from concordia_ai.ai.search import TABLE_SEARCH, SearchConfig, best_move, search, thin_bar, turn_end_key
from concordia_ai.ai.turns import judge_turn, recorded_turns
from concordia_ai.engine.game import Game
from concordia_ai.table import review as rv
from concordia_ai.table.game_file import GameFile
from cli_helpers import run
from positions import heuristic_mid_game

CFG = SearchConfig(iterations=2400, seed=5, **TABLE_SEARCH)


@pytest.fixture(scope="module")
def mid_game():
    """A 3-player Italia game after a few heuristic turns: the first seat decides its play card."""
    return heuristic_mid_game()


def keys(game, turns):
    return [turn_end_key(game, t.moves) for t in turns]


def test_final_choice_leads_and_the_rest_rank_by_win(mid_game):
    r = search(mid_game, CFG)
    focus = [t.focus for t in r.turns]
    # the final pick leads: a candidate of the final choice, a finalist or (search.TIE_ROUNDS) a turn of an earlier
    # round tied with the best finalist, on TIE_VISITS of its visits or more
    top = r.turns[0]
    assert top.chosen and top.candidate and top.focus > 0 and sum(t.chosen for t in r.turns) == 1
    assert search_module.final_pick(mid_game, r.turns, eval_kind=r.model.eval) is top
    if top.focus < max(focus):
        best = max((t for t in r.turns if t.candidate and t.focus == max(focus)), key=lambda t: (t.win, t.visits))
        assert top.visits >= search_module.TIE_VISITS * best.visits
        assert best.win - top.win <= max(search_module.TIE_WIN * best.scale,
                                         search_module.TIE_Z * math.hypot(best.win_se, top.win_se))
    # the rest by the figure the list names, the thin turns (too few visits to rank) after the others
    bar = thin_bar(r.turns)
    full = [t.win for t in r.turns[1:] if t.visits >= bar]
    thin = [t.win for t in r.turns[1:] if t.visits < bar]
    assert [t.visits >= bar for t in r.turns[1:]] == [True] * len(full) + [False] * len(thin)
    assert full == sorted(full, reverse=True) and thin == sorted(thin, reverse=True) and len(full) >= 2
    assert sum(1 for f in focus if f > 0) >= 2
    # the bot plays the first move of the turn the final choice picked
    assert best_move(mid_game, CFG) == r.turns[0].moves[0]


def test_a_listed_turn_named_keeps_its_rank_and_figures(mid_game):
    r = search(mid_game, CFG)
    listed = [i for i, t in enumerate(r.turns) if t.focus > 0]
    i = listed[2]                                    # the third of the final choice's candidates
    named = search(mid_game, CFG, named=[r.turns[i].moves])
    j = judge_turn(mid_game, r.turns[i].moves, named)
    assert j.in_list and j.rank == i + 1 and j.turn.named
    assert abs(j.turn.win - r.turns[i].win) <= r.turns[i].win_se
    assert j.turn.visits == r.turns[i].visits        # naming a candidate changes nothing


def test_an_unlisted_turn_is_searched_beside_the_candidates(mid_game):
    r = search(mid_game, SearchConfig(iterations=2400, seed=5, **TABLE_SEARCH))
    listed = set(keys(mid_game, r.turns))
    # a legal whole turn the search did not list: the k-th legal move (or the last) at every step
    for k in range(40):
        g = mid_game.clone()
        g.state.set_chance(False, True)
        moves, seat, turn = [], g.decider, g.state.turns
        while g.decider == seat and g.state.turns == turn and not g.is_over:
            legal = g.legal_moves()
            moves.append(legal[min(k, len(legal) - 1)])
            g.state.apply(moves[-1])
        if turn_end_key(mid_game, moves) not in listed:
            break
    assert turn_end_key(mid_game, moves) not in listed
    named = search(mid_game, CFG, named=[moves])
    j = judge_turn(mid_game, moves, named)
    # searched beside the candidates in the final choice's first round at least: its share of that round (a
    # quarter of 2,400 iterations over 3 rounds, shared by 8 candidates and the named turn: about 22 visits),
    # whatever the tree gave it before (a PUCT tree may give a low-prior turn none)
    assert j.in_list and j.turn.named and j.turn.focus >= 1 and j.turn.visits >= 15
    assert j.rank == 1 + [t.named for t in named.turns].index(True)
    # naming it changed neither the final choice nor the figures of the search's own candidates
    own = [t for t in named.turns if not t.named and t.focus > 0]
    assert [(t.moves, t.visits, t.focus) for t in own] == [(t.moves, t.visits, t.focus) for t in r.turns if t.focus > 0]
    assert named.turns[0].moves == r.turns[0].moves and not named.turns[0].named


def test_named_turns_are_checked_by_the_core(mid_game):
    r = search(mid_game, SearchConfig(iterations=300, seed=1))
    turn = next(t.moves for t in r.turns if len(t.moves) > 1)
    cfg = SearchConfig(iterations=300, seed=1).core_dict(players=3)
    cfg["eval"] = "hand"
    cfg["turns"] = 32
    with pytest.raises(ValueError, match=r"named turn 1: move 1 \(123456\) is not legal there"):
        core.search(mid_game.state, cfg, None, [[123456]])
    with pytest.raises(ValueError, match="named turn 1: not a whole turn"):
        core.search(mid_game.state, cfg, None, [turn[:1]])
    with pytest.raises(ValueError, match="named turn 1: the turn ends after move"):
        core.search(mid_game.state, cfg, None, [turn + turn])
    with pytest.raises(ValueError, match=r"named turn 1: move 1 is 'x', not an action code"):
        core.search(mid_game.state, cfg, None, [["x"]])


def test_same_seed_and_budget_same_answer_with_threads(mid_game):
    cfg = SearchConfig(iterations=1200, seed=3, **TABLE_SEARCH, jobs=2)
    answers = set()
    for _ in range(3):
        r = search(mid_game, cfg)
        answers.add(json.dumps([(t.moves, t.visits, round(t.win, 9), round(t.win_se, 9)) for t in r.turns[:6]]))
    assert len(answers) == 1


def test_the_hint_top_turn_played_and_reviewed_is_graded_best(tmp_path, mid_game):
    f = tmp_path / "g.json"
    gf = GameFile.create(str(f), mid_game.clone())
    gf.save()
    hint = json.loads(run("hint", f, "--iterations", 1600, "--seed", 4, "--json", "-q").stdout)
    run("play", f, "--suggested", "--iterations", 1600, "--seed", 4, "-q")
    gf = GameFile.load(str(f))
    assert gf.moves[-len(hint["turns"][0]["moves"]):] == hint["turns"][0]["moves"]
    rt = recorded_turns(Game.from_json(gf.initial), gf.moves)[-1]
    rec = rv.review_turn(gf.initial, gf.moves, rt, SearchConfig(iterations=1600, seed=4, **TABLE_SEARCH))
    assert rec["rank"] == 1 and rec["lossWin"] == 0.0 and rec["lossVp"] == 0.0 and rec["inList"]
    assert rec["best"] == hint["turns"][0]["moves"]


# ---------------------------------------------------------------- coherent figures (issue 15, 4)

def test_every_players_win_share_sums_to_one(mid_game):
    r = search(mid_game, CFG)
    for t in r.turns[:8]:
        assert len(t.seats) == 3 and sum(t.seats) == pytest.approx(1.0, abs=1e-6)
        assert t.win == pytest.approx(t.seats[mid_game.decider], abs=1e-9)
    for c in r.candidates:
        assert sum(c.seats) == pytest.approx(1.0, abs=1e-6) and c.win == pytest.approx(c.seats[mid_game.decider])


def test_seat_line_adds_up_to_100():
    from concordia_ai.cli.search import seat_line
    assert seat_line(["Ann", "Bob", "Cid"], [1 / 3, 1 / 3, 1 / 3]) == "Ann 33.4 · Bob 33.3 · Cid 33.3"
    assert seat_line(["Ann", "Bob"], [0.12345, 0.87655]) == "Ann 12.3 · Bob 87.7"
    # the deciding seat as the turn table shows it (4 places, then one decimal); the other takes the rest
    table = f"{100 * round(0.73054, 4):.1f}"
    line = seat_line(["Ann", "Bob"], [0.73054, 0.26946], fixed=0)
    assert line.startswith(f"Ann {table} · ") and round(sum(float(x.split()[1]) for x in line.split(" · ")), 1) == 100.0


def test_hint_shows_every_players_win_on_one_line(tmp_path, mid_game):
    f = tmp_path / "g.json"
    GameFile.create(str(f), mid_game.clone()).save()
    out = run("hint", f, "--iterations", 1200, "-q").stdout.splitlines()
    line = next(x for x in out if x.startswith("Win % after it, every player: "))
    shares = [float(part.split()[-1]) for part in line.split(": ", 1)[1].split(" · ")]
    assert len(shares) == 3 and round(sum(shares), 1) == 100.0
    data = json.loads(run("hint", f, "--iterations", 1200, "-q", "--json").stdout)
    assert sum(data["turns"][0]["seatWinrates"]) == pytest.approx(1.0, abs=2e-4)


def test_settled_positions_rank_by_vp_and_are_not_unstable():
    from concordia_ai.ai.search import TurnCandidate, rank_turns, settled
    from concordia_ai.ai.turns import hint_warnings

    def mk(name, win, vp, visits=500):
        return TurnCandidate([1], [name], visits, 0.1, win, vp, vp - 90, 0.004)
    turns = [mk("a", 0.0, 80.0), mk("b", 0.009, 78.0), mk("c", 0.001, 85.0)]
    assert settled(turns)
    assert [t.texts[0] for t in rank_turns(turns)] == ["c", "a", "b"]     # by VP, the figure the rule names
    # one turn that can still win: not settled, and the list goes by win % (the thin one, on 20 of 500 visits,
    # after the firm ones)
    assert not settled(turns + [mk("d", 0.2, 99.0, visits=20)])
    assert [t.texts[0] for t in rank_turns(turns + [mk("d", 0.2, 99.0, visits=20)])] == ["b", "c", "a", "d"]
    w = hint_warnings(rank_turns(turns))
    assert w[0] == "Settled: by this search the player cannot win (win % 0.1); the turns are ranked by expected VP instead."
    assert not any(x.startswith("Close") for x in w)
    assert not settled([mk("a", 0.0, 80.0), mk("b", 0.05, 78.0)])


def test_sliced_and_unsliced_answers_carry_standard_errors(mid_game):
    # issue 17: merged slices kept no sums of squares (winrateSe 0.0, winrateRaw the calibrated figure)
    from concordia_ai.ai.sliced import sliced_search
    cfg = SearchConfig(iterations=3000, seed=2)
    one = search(mid_game, cfg)
    three = sliced_search(mid_game, cfg, slices=3)
    assert three.iterations == 3000 and three.searches == 3
    for r in (one, three):
        b = r.best
        assert b.win_se > 0 and b.vp_se > 0 and b.win_raw != b.win
    assert 0.3 < three.best.win_se / one.best.win_se < 3
    assert sum(c.visits for c in three.candidates) == sum(sum(ch["visits"] for ch in raw["children"])
                                                           for raw in three.raws)
