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
from functools import partial
import io
import json
import math
import os
from dataclasses import dataclass

from ..engine import limits
from ..engine.errors import ConcordiaError
from ..engine.game import Game
from ..io.atomic_write import open_append, write_atomic
from ..io.jsonl import append_record, parse_object, read_records
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
    played_is_best = j.in_list and j.rank == 1
    if played_is_best:   # the played turn is the best: named as played (the search may word it otherwise)
        best = t
    return dict(rec, best=rt.texts if played_is_best else best.texts, grade=grade(loss_win, loss_vp, game.n_players, noise),
                winBest=round(best.win, 4), winPlayed=round(t.win, 4), vpBest=round(best.vp, 3),
                vpPlayed=round(t.vp, 3), lossWin=round(loss_win, 4), lossVp=round(loss_vp, 3), rank=j.rank,
                inList=j.in_list, visitsBest=best.visits, visitsPlayed=t.visits, noise=round(noise, 4))


class ReviewError(ConcordiaError):
    """A review log that cannot be used (a link, not a regular file, damaged, in use) or an unwritable plot."""


LOG_WHAT = "graded turn"
_NUMBER = (int, float)
# every field of a graded turn and the types it may hold (None: not searched, or a forced turn)
FIELDS = {"index": (int,), "turn": (int,), "round": (int,), "player": (str,), "seat": (int,), "played": (list,),
          "forced": (bool,), "key": (str,), "best": (list,), "grade": (str, type(None)),
          "winBest": _NUMBER + (type(None),), "winPlayed": _NUMBER + (type(None),),
          "vpBest": _NUMBER + (type(None),), "vpPlayed": _NUMBER + (type(None),),
          "lossWin": _NUMBER + (type(None),), "lossVp": _NUMBER + (type(None),), "rank": (int, type(None)),
          "inList": (bool,), "visitsBest": (int, type(None)), "visitsPlayed": (int, type(None)),
          "noise": _NUMBER + (type(None),)}
_TYPE_NAMES = {str: "a string", list: "a list", bool: "true or false", type(None): "null"}


def _type_words(types: tuple) -> str:
    words = ["a number"] if float in types else ["an integer"] if int in types else []
    return " or ".join(words + [_TYPE_NAMES[t] for t in _TYPE_NAMES if t in types])


def graded_record(raw: bytes) -> dict:
    """One line of a review log as a graded turn; ValueError naming the first field that is not one
    (a hand-edited `"lossWin": "lots"` must not reach the table or the summary)."""
    rec = parse_object(raw)
    for key, types in FIELDS.items():
        if key not in rec:
            raise ValueError(f"{key} is missing")
        value = rec[key]
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            raise ValueError(f"{key} must be {_type_words(types)}")
    for key in ("played", "best"):
        if not all(isinstance(x, str) for x in rec[key]):
            raise ValueError(f"{key} must be a list of moves in notation")
    if rec["grade"] is not None and rec["grade"] not in GRADES:
        raise ValueError(f"grade must be null or one of {', '.join(GRADES)}")
    return rec


def best_differs(rec: dict) -> bool:
    """Whether a graded turn's best is another turn than the one played (a `best:` line is worth showing)."""
    return rec["best"] != rec["played"] and not (rec.get("inList") and rec.get("rank") == 1)


def load_graded(path: str, repair: bool = False) -> dict[str, dict]:
    """Graded turns of an earlier (perhaps interrupted) run, by key. A torn last line (a kill during a
    write) is ignored, and cut off with repair=True so the next record starts on a line of its own;
    any other bad line is a ReviewError naming it (the log is the user's: it is never rewritten)."""
    out: dict[str, dict] = {}
    if not os.path.lexists(path):
        return out
    try:
        records = read_records(path, graded_record, repair, ReviewError, LOG_WHAT, limits.REVIEW_LOG_BYTES)
    except ReviewError as e:
        raise ReviewError(f"{e}; remove that line (or give another --out) to grade the turn again") from None
    for rec in records:
        out[rec["key"]] = rec
    return out


def open_log(out: str):
    """The review log open for appending, locked against a second review of the same log.

    A link, a FIFO or a device at `out` is refused without blocking (atomic_write.open_append); the lock
    (flock, released when the file is closed) makes a second review of the same game refuse at once
    instead of grading every turn again beside the first."""
    import fcntl
    try:
        f = open_append(out)
    except OSError as e:
        raise ReviewError(f"cannot write the review log {out}: {_reason(e, out)}") from None
    try:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        f.close()
        raise ReviewError(f"{out} is in use by another review of this game; wait for it to finish, "
                          f"or give another --out") from None
    return f


def _reason(e: OSError, path: str) -> str:
    """The OSError's reason, with the path it already names replaced by 'it'."""
    why = str(e.strerror or e)
    return "it" + why[len(path):] if why.startswith(path + " ") else why


@dataclass
class Review:
    records: list[dict]          # every selected turn, in game order (stopped: those graded so far)
    searched: int                # turns searched in this run (the others were read from the file)
    out: str
    stopped: bool = False        # ended early by its stop token


def review_game(initial: dict, moves: list[str], config: SearchConfig, out: str,
                player: int | None = None, jobs: int = 1, search_fn=search, progress=None,
                map_fn=None, stop=None) -> Review:
    """Grade every recorded turn (of one seat, if `player`), resuming from `out` and appending to it.

    `progress(n)` is called as each turn is graded (n = 1); with jobs > 1 turns run in parallel
    processes through `map_fn(fn, tasks, jobs)` (the lab's runner, concordia_ai.lab.runner.map_unordered,
    whose workers die with this process even when it is killed by kill -9; this layer sits below it, so
    the caller passes it in) and arrive in any order, but each is written as soon as it finishes.
    `stop` (a core.StopToken, set from another thread) ends the review early: one turn at a time, the
    running search is handed the token and cut at once, and a turn whose search was cut is not recorded
    (its grade would rest on less than the budget; the next review grades it in full). With jobs > 1 the
    turns already under way in other processes are not waited for. The Review then holds the turns
    graded so far, with `stopped` set."""
    turns = recorded_turns(Game.from_json(initial), moves)
    if player is not None:
        turns = [t for t in turns if t.seat == player]

    def stopped() -> bool:
        return stop is not None and stop.stopped

    def one_by_one(todo):
        fn = search_fn if stop is None else partial(search_fn, stop=stop)
        for t in todo:
            if stopped():
                return
            rec = review_turn(initial, moves, t, config, fn)
            if stopped():
                return       # this turn's search was cut: not recorded
            yield rec

    searched = 0
    with open_log(out) as f:     # locked before it is read: a second review refuses, it never grades twice
        graded = load_graded(out, repair=True)
        todo = [t for t in turns if turn_key(initial, moves, t) not in graded]
        if progress:
            progress(len(turns) - len(todo))
        if jobs == 1 or len(todo) <= 1:
            results = one_by_one(todo)
        else:
            if map_fn is None:
                raise ValueError("review_game: jobs > 1 needs map_fn (concordia_ai.lab.runner.map_unordered)")
            results = map_fn(partial(_review_one, initial, moves, config, search_fn), todo, jobs)
        for rec in results:
            if stopped():
                break
            append_record(f, rec)
            graded[rec["key"]] = rec
            searched += 1
            if progress:
                progress(1)
    keys = [turn_key(initial, moves, t) for t in turns]
    if stopped():
        return Review([graded[k] for k in keys if k in graded], searched, out, stopped=True)
    return Review([graded[k] for k in keys], len(todo), out)


def _review_one(initial: dict, moves: list[str], config: SearchConfig, search_fn, rt: RecordedTurn) -> dict:
    return review_turn(initial, moves, rt, config, search_fn)     # one task of map_fn (picklable by name)


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
    png = io.BytesIO()
    fig.savefig(png, format="png")
    plt.close(fig)
    try:     # atomically: a link planted at the plot's name is replaced, never written through
        write_atomic(path, png.getvalue())
    except OSError as e:
        raise ReviewError(f"--plot: cannot write {path}: {_reason(e, path)}") from None
