"""Game review: every recorded turn searched and graded against the search's best turn.

Each turn of a game file is judged from the position before it (concordia_ai.ai.turns.judge_turn): the
best whole turn, the played turn's rank, its loss in the search's win estimate and in expected VP,
and a grade. Graded turns are appended to a JSON-lines file as they finish, so an interrupted review
resumes where it stopped (a turn is redone only if its position or the played moves changed).

Grades, in the style of lichess (drops in winning chances) and KaTrain (points lost), retuned for
more than two players. A win-probability drop means more with n players, where the fair share is 1/n,
than with two: the drop is scaled by n/2 to its two-player equivalent. The two-player thresholds are
lichess's (0.1, 0.2, 0.3 in winning chances 2p-1, i.e. 0.05, 0.10, 0.15 in p). Only the part of the
drop beyond the noise counts (the two estimates' standard errors combined). VP losses are graded on
their own with thresholds on the scale of Concordia's winning margins (3, 6, 12 VP); the grade is
the more severe of the two. A turn whose every step had one legal move is not graded.
"""
from __future__ import annotations

import hashlib
import json
import math
import os
from dataclasses import dataclass

from ..engine.game import Game
from ..ai.search import SearchConfig, search
from ..ai.turns import RecordedTurn, game_before, judge_turn, recorded_turns

GRADES = ("inaccuracy", "mistake", "blunder")
WIN_DROP_2P = (0.05, 0.10, 0.15)     # two-player drops in win probability (lichess's 0.1/0.2/0.3 in 2p-1)
VP_LOSS = (3.0, 6.0, 12.0)           # expected VP lost


def grade(loss_win: float, loss_vp: float, n_players: int, noise: float = 0.0) -> str | None:
    """The grade of a turn: None (fine), or inaccuracy, mistake, blunder (see the module text)."""
    scaled = max(0.0, loss_win - noise) * n_players / 2.0
    by_win = sum(1 for t in WIN_DROP_2P if scaled >= t)
    by_vp = sum(1 for t in VP_LOSS if loss_vp >= t)
    level = max(by_win, by_vp)
    return GRADES[level - 1] if level else None


def default_out(game_file: str) -> str:
    """game.json -> game.review.jsonl, next to the game."""
    root, ext = os.path.splitext(game_file)
    return (root if ext == ".json" else game_file) + ".review.jsonl"


def turn_key(initial: dict, moves: list[str], rt: RecordedTurn) -> str:
    """What a graded turn depends on: the start position and every move up to the turn's end."""
    blob = json.dumps([initial, moves[:rt.end]], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()[:24]


def review_turn(initial: dict, moves: list[str], rt: RecordedTurn, config: SearchConfig,
                search_fn=search) -> dict:
    """Search the position before one recorded turn and grade the turn (runs in a worker process)."""
    game = game_before(Game.from_json(initial), moves, rt)
    rec = {"index": rt.index, "turn": rt.turn + 1, "round": rt.turn // game.n_players + 1,
           "player": game.names[rt.seat], "seat": rt.seat, "played": rt.texts, "forced": rt.forced,
           "key": turn_key(initial, moves, rt)}
    if rt.forced:
        return dict(rec, best=rt.texts, grade=None, winBest=None, winPlayed=None, vpBest=None, vpPlayed=None,
                    lossWin=0.0, lossVp=0.0, rank=1, inList=True, visitsBest=None, visitsPlayed=None, noise=0.0)
    g = game.clone()
    played = [g.apply(text) for text in rt.texts]
    result = search_fn(game, config, named=[played])     # the played turn searched beside the search's own
    j = judge_turn(game, played, result)
    best, t = j.best, j.turn
    if t is None:   # the search never tried the played turn's last step: judge it by the best alone
        return dict(rec, best=best.texts, grade=None, winBest=round(best.win, 4), winPlayed=None,
                    vpBest=round(best.vp, 3), vpPlayed=None, lossWin=None, lossVp=None, rank=None,
                    inList=False, visitsBest=best.visits, visitsPlayed=0, noise=None)
    noise = math.hypot(best.win_se, t.win_se) if t is not best else 0.0
    loss_win, loss_vp = j.loss_win, j.loss_vp
    if j.in_list and j.rank == 1:   # the played turn is the best (perhaps with its builds in another order)
        best = t
    return dict(rec, best=best.texts, grade=grade(loss_win, loss_vp, game.n_players, noise),
                winBest=round(best.win, 4), winPlayed=round(t.win, 4), vpBest=round(best.vp, 3),
                vpPlayed=round(t.vp, 3), lossWin=round(loss_win, 4), lossVp=round(loss_vp, 3), rank=j.rank,
                inList=j.in_list, visitsBest=best.visits, visitsPlayed=t.visits, noise=round(noise, 4))


def load_graded(path: str) -> dict[str, dict]:
    """Graded turns of an earlier (perhaps interrupted) run, by key; a torn last line is ignored."""
    out: dict[str, dict] = {}
    if not os.path.exists(path):
        return out
    with open(path, encoding="utf-8") as f:
        for line in f:
            try:
                rec = json.loads(line)
            except ValueError:
                continue
            if isinstance(rec, dict) and "key" in rec:
                out[rec["key"]] = rec
    return out


@dataclass
class Review:
    records: list[dict]          # every selected turn, in game order
    searched: int                # turns searched in this run (the others were read from the file)
    out: str


def review_game(initial: dict, moves: list[str], config: SearchConfig, out: str,
                player: int | None = None, jobs: int = 1, search_fn=search, progress=None) -> Review:
    """Grade every recorded turn (of one seat, if `player`), resuming from `out` and appending to it.

    `progress(n)` is called as each turn is graded (n = 1); with jobs > 1 turns run in parallel
    processes (joblib) and arrive in any order, but each is written as soon as it finishes."""
    turns = recorded_turns(Game.from_json(initial), moves)
    if player is not None:
        turns = [t for t in turns if t.seat == player]
    graded = load_graded(out)
    todo = [t for t in turns if turn_key(initial, moves, t) not in graded]
    if progress:
        progress(len(turns) - len(todo))
    with open(out, "a", encoding="utf-8") as f:
        if jobs == 1 or len(todo) <= 1:
            results = (review_turn(initial, moves, t, config, search_fn) for t in todo)
        else:
            from joblib import Parallel, delayed
            results = Parallel(n_jobs=jobs, return_as="generator_unordered")(
                delayed(review_turn)(initial, moves, t, config, search_fn) for t in todo)
        for rec in results:
            f.write(json.dumps(rec, separators=(",", ":")) + "\n")
            f.flush()
            graded[rec["key"]] = rec
            if progress:
                progress(1)
    records = [graded[turn_key(initial, moves, t)] for t in turns]
    return Review(records, len(todo), out)


def summary(records: list[dict], names: list[str]) -> list[dict]:
    """Per player: turns graded, each grade's count, and the mean losses."""
    out = []
    for seat, name in enumerate(names):
        mine = [r for r in records if r["seat"] == seat]
        judged = [r for r in mine if r["lossWin"] is not None and not r["forced"]]
        row = {"player": name, "turns": len(mine), "graded": len(judged)}
        for g, plural in zip(GRADES, ("inaccuracies", "mistakes", "blunders")):
            row[plural] = sum(1 for r in judged if r["grade"] == g)
        row["meanLossWin"] = round(sum(r["lossWin"] for r in judged) / len(judged), 4) if judged else None
        row["meanLossVp"] = round(sum(r["lossVp"] for r in judged) / len(judged), 3) if judged else None
        out.append(row)
    return out


def plot(records: list[dict], names: list[str], path: str, title: str) -> None:
    """A PNG of each player's win estimate (the best turn's, before each of their turns) over the game."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=100)
    for seat, name in enumerate(names):
        pts = [(r["turn"], r["winBest"]) for r in records if r["seat"] == seat and r["winBest"] is not None]
        if pts:
            ax.plot([p[0] for p in pts], [100 * p[1] for p in pts], marker="o", markersize=3, label=name)
    bad = [(r["turn"], r["winBest"]) for r in records
           if r["grade"] in ("mistake", "blunder") and r["winBest"] is not None]
    if bad:
        ax.scatter([p[0] for p in bad], [100 * p[1] for p in bad], marker="x", color="black", zorder=3,
                   label="mistake or blunder")
    ax.axhline(100 / len(names), color="grey", linestyle=":", linewidth=1, label="fair share")
    ax.set_xlabel("turn")
    ax.set_ylabel("win % (search's estimate, before the turn)")
    ax.set_ylim(0, 100)
    ax.set_title(title)
    ax.legend(loc="best", fontsize="small")
    fig.tight_layout()
    fig.savefig(path, format="png")
    plt.close(fig)
