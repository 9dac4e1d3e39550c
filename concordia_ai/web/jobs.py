"""Searches that take seconds (a hint, a review) run in a background thread while the page polls their
progress; the core's search releases the GIL, so the server keeps answering meanwhile.

A hint is the whole-turn search of `concordia hint` (ai.search.search, shown as protocol.analyze.turn_dicts
with the notes of ai.turns.hint_warnings); a review grades every recorded turn with table.review, as
`concordia review` does. Each job remembers the moves of the game it started from, so a result is never
applied to a game that has moved on.
"""
from __future__ import annotations

import itertools
import threading
import time

from .. import core
from ..ai.search import SearchConfig, figures_notes, ranking_rule, search
from ..ai.turns import hint_warnings, recorded_turns
from ..engine import limits
from ..engine.game import Game
from ..protocol import analyze
from ..table import budget
from ..table import review as rv
from . import targets
from .security import WebError

wall_clock = time.monotonic     # a hint's wall time (its note when the cores were busy); tests stub it
MAX_RUNNING = 2           # searches at once (this machine's other work needs its cores too)
KEEP_FINISHED = 20


class Job:
    def __init__(self, number: int, kind: str, file: str, moves: int):
        self.id = f"{kind}-{number}"
        self.kind, self.file, self.moves = kind, file, moves
        self.state = "running"
        self.progress = 0.0
        self.result: dict | None = None
        self.error: str | None = None
        self.stop = core.StopToken()
        self.started = time.monotonic()
        self.detail = ""

    def to_json(self) -> dict:
        return {"job": self.id, "kind": self.kind, "state": self.state, "progress": round(self.progress, 3),
                "detail": self.detail, "moveCount": self.moves, "result": self.result, "error": self.error}


class Jobs:
    def __init__(self):
        self._jobs: dict[str, Job] = {}
        self._numbers = itertools.count(1)
        self._lock = threading.Lock()

    def start(self, kind: str, file: str, moves: int, work) -> Job:
        """Run `work(job)` in a thread; its return value is the job's result, a WebError or a user error
        its one-line error."""
        with self._lock:
            running = [j for j in self._jobs.values() if j.state == "running"]
            if len(running) >= MAX_RUNNING:
                raise WebError(409, f"{len(running)} searches are running already ({', '.join(j.id for j in running)}); "
                                    "wait for one or stop it")
            job = Job(next(self._numbers), kind, file, moves)
            self._jobs[job.id] = job
            done = [k for k, j in self._jobs.items() if j.state != "running"]
            for k in done[:-KEEP_FINISHED]:
                del self._jobs[k]

        def run():
            try:
                job.result = work(job)
                job.state = "stopped" if job.stop.stopped else "done"
                job.progress = 1.0
            except WebError as e:
                job.error, job.state = e.message, "error"
            except (ValueError, KeyError) as e:     # the user errors of the layers below (GameError, ...)
                job.error, job.state = one_line(str(e)), "error"
            except Exception as e:                  # a bug: one line on the page, never a traceback
                job.error, job.state = f"internal error (please report): {type(e).__name__}: {one_line(str(e))}", "error"

        threading.Thread(target=run, name=job.id, daemon=True).start()
        return job

    def get(self, job_id: str) -> Job:
        job = self._jobs.get(job_id)
        if job is None:
            raise WebError(404, f"no job {job_id!r}: it finished long ago or never started")
        return job


def one_line(text: str) -> str:
    return " ".join(str(text).split())


def search_config(body: dict, default_seconds: float, timed_jobs: int = 1) -> tuple[SearchConfig, str]:
    """The budget a request asks for, taken as `concordia hint` and `review` take theirs (table/budget.py,
    the CLI's own helper: the same bounds, defaults and sentence): seconds or iterations (not both), jobs
    (a time budget runs `timed_jobs` searches at once, an iteration budget one) and seed, each a JSON
    number (the string "100" is refused, as `concordia analyze` refuses it)."""
    try:
        opts, described = budget.search_budget(body.get("seconds"), body.get("iterations"), body.get("jobs"),
                                               default_seconds=default_seconds, default_jobs=timed_jobs,
                                               names=budget.JSON_NAMES)
        seed = limits.SEED.check(body.get("seed", 0), "seed", strings=False)
    except (budget.BudgetError, limits.LimitError) as e:
        raise WebError(400, str(e)) from None
    return SearchConfig(**opts, seed=seed), described


def hint_work(game: Game, config: SearchConfig, top: int):
    """The work of a hint job: the search `concordia hint` runs (ai.search.search, the same budget and seed
    give the same turns), its best `top` whole turns as the page shows them (win %, VP, margin, loss, the
    elements each turn touches on the board). A time budget's progress follows the clock; an iteration
    budget has no clock to follow, so the page shows the seconds spent."""
    def work(job: Job) -> dict:
        total = config.seconds if config.seconds and not config.iterations else None
        watcher = threading.Thread(target=_clock, args=(job, total), daemon=True)
        watcher.start()
        t0 = wall_clock()
        result = search(game, config, job.stop)
        wall = wall_clock() - t0
        turns = analyze.turn_dicts(game, result, top)
        for t, cand in zip(turns, result.turns):
            t["targets"] = turn_targets(game, cand.moves)
        warnings = hint_warnings(result.turns, result.searches) + list(result.notes)
        busy = budget.busy_cores_note(config.seconds, config.iterations, wall)     # as `concordia hint` says it
        if busy:
            warnings.append(busy)
        return {"player": game.names[game.decider], "turns": turns, "iterations": result.iterations,
                "wallSeconds": round(wall, 2),
                "warnings": warnings, "order": ranking_rule(result.turns),
                "seats": result.turns[0].seats if result.turns else [],
                "seatsLabel": "after the hint's top turn (the hint's final-result model)"}
    return work


def _clock(job: Job, total: float | None) -> None:
    while job.state == "running":
        spent = time.monotonic() - job.started
        if total:
            job.progress = max(job.progress, min(0.99, spent / total))
        job.detail = f"{spent:.1f} s"
        time.sleep(0.1)


def turn_targets(game: Game, moves: list[int]) -> list[str]:
    """Every board element a whole turn touches, each move read in the position where it is played."""
    g = game.clone()
    g.state.set_chance(False, True)
    out: list[str] = []
    for a in moves:
        pos = g.to_json()
        hand = pos["players"][g.decider]["hand"] if g.decider is not None and g.decider >= 0 else None
        for el in targets.targets(g, g.text(a), hand):
            if el not in out:
                out.append(el)
        g.state.apply(a)
    return out


def review_work(initial: dict, moves: list[str], config: SearchConfig, out: str):
    """The work of a review job: every recorded turn graded (resuming from `out`, as the CLI does). A stop
    ends it at once: the running turn's search is cut and that turn is not recorded (a later review
    grades it in full); the result holds the turns graded so far."""
    def work(job: Job) -> dict:
        turns = recorded_turns(Game.from_json(initial), moves)
        total = max(1, len(turns))
        count = [0]

        def progress(n):
            count[0] += n
            job.progress = min(1.0, count[0] / total)
            job.detail = f"{count[0]} of {len(turns)} turns"

        result = rv.review_game(initial, moves, config, out, progress=progress, stop=job.stop)
        starts = {t.index: t.start for t in turns}
        records = [dict(r, start=starts.get(r["index"])) for r in result.records]
        game = Game.from_json(initial)
        # the figures' calibration, said once for the whole review as `concordia review` says it
        return {"records": records, "summary": rv.summary(result.records, game.names), "players": game.names,
                "searched": result.searched, "out": out, "notes": figures_notes(config, game)}
    return work
