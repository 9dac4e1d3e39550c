"""A JSON-lines analysis engine in the style of KataGo's (`concordia analyze`), and the sliced search
that `concordia hint` and the engine's partial reports share.

One query per input line, one answer per output line (see docs/analyze.md):

    {"id": "q1", "file": "game.json", "iterations": 5000, "lines": 3}
    {"id": "q1", "player": "Ann", "seat": 0, "phase": "play", "candidates": [{"move": "play Architect",
     "visits": 2100, "winrate": 0.61, "scoreLead": 3.4, "vp": 54.2, "utility": 0.58, "lcb": 0.59,
     "order": 0, "pv": [...]}, ...], "rootInfo": {...}, "notes": [], "isDuringSearch": false}

Errors are answered as {"id": ..., "error": "...", "field": "..."} and the engine keeps serving.

Sliced search: the budget is split into slices, each an independent ISMCTS search with its own seed,
merged at the root as root parallelism does (visits summed, statistics weighted by visits). After each
slice the merged statistics are an honest partial result (for progress bars and partial reports).
"""
from __future__ import annotations

import json
import sys
import threading
from dataclasses import fields

from .. import core
from ..engine import limits
from ..io import safe_read
from ..ai.bots import BotSpecError, parse_spec
from ..engine.errors import ConcordiaError, GameError
from ..engine.game import CHANCE, Game
from ..table.game_file import GameFile, GameFileError
from ..engine.notation import NotationError
from ..engine.position import PositionError
from ..ai.search import TABLE_SEARCH, SearchConfig, SearchConfigError, SearchResult, search
from ..ai.sliced import sliced_search

DEFAULT_ITERATIONS = 5000
DEFAULT_LINES = 10
ENGINE_VERSION = 1
# a client names no files on this machine: weight directories (value_weights, policy_weights) are for bot specs
KNOBS = {f.name: f for f in fields(SearchConfig) if f.name not in ("value_weights", "policy_weights")}


# ---------------------------------------------------------------- sliced search

def lcb(win: float, se: float) -> float:
    """A lower confidence bound of the win rate: the shown figure less 1.96 of its one standard error."""
    return max(0.0, win - 1.96 * se)


def candidate_dicts(result: SearchResult, lines: int | None) -> list[dict]:
    cands = result.candidates if lines is None else result.candidates[:lines]
    return [dict(move=c.text, visits=c.visits, winrate=round(c.win, 4), winrateSe=round(c.win_se, 4),
                 winrateRaw=round(c.win_raw, 4), scoreLead=round(c.margin, 3),
                 vp=round(c.vp, 3), vpSe=round(c.vp_se, 3), utility=round(c.mean, 4),
                 lcb=round(lcb(c.win, c.win_se), 4), order=i, pv=c.pv)
            for i, c in enumerate(cands)]


def turn_dicts(game: Game, result: SearchResult, lines: int | None) -> list[dict]:
    """The whole-turn candidates as JSON (docs/analyze.md): best first, losses against the first."""
    from ..ai.turns import line_after
    turns = result.turns if lines is None else result.turns[:lines]
    if not turns:
        return []
    best = turns[0]
    return [dict(moves=t.texts, visits=t.visits, winrate=round(t.win, 4), winrateSe=round(t.win_se, 4),
                 scoreLead=round(t.margin, 3), vp=round(t.vp, 3), utility=round(t.mean, 4),
                 lossWinrate=round(best.win - t.win, 4), lossVp=round(best.vp - t.vp, 3), order=i,
                 partial=t.partial, treeMoves=t.tree_moves, after=line_after(game, t),
                 seatWinrates=[round(s, 4) for s in t.seats])
            for i, t in enumerate(turns)]


def flat_candidates(game: Game, config: SearchConfig) -> tuple[list[dict], int]:
    """Flat Monte Carlo statistics: visits and mean reward per legal move (no win rate or VP estimate)."""
    from .. import core
    stats, iterations = core.flat_monte_carlo(game.state, config.core_dict(players=game.n_players))
    legal = game.legal_moves()
    stats = sorted(stats, key=lambda s: (s[2], -legal.index(s[0])), reverse=True)
    return [dict(move=game.text(a), visits=int(v), winrate=None, scoreLead=None, vp=None, utility=round(m, 4),
                 lcb=None, order=i, pv=[game.text(a)]) for i, (a, v, m) in enumerate(stats)], iterations


def config_from_spec(spec: str) -> tuple[str, dict]:
    """An ismcts or flatmc bot spec as (kind, options) for a hint; other bots do not search."""
    kind, options = parse_spec(spec)
    if kind not in ("ismcts", "flatmc"):
        raise BotSpecError(f"--bot: a hint needs a searching bot (ismcts or flatmc), not {kind!r}")
    return kind, options


# ---------------------------------------------------------------- the engine

QUERY_FIELDS = ("id", "position", "file", "moves", "iterations", "seconds", "lines", "config", "reportEvery",
                "seed", "action")
ACTIONS = ("query_version", "terminate", "terminate_all")
FORMATS = ("concordia-game", "concordia-position")


class QueryError(Exception):
    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field


def _read_file_query(q: dict, root: str | None) -> Game:
    """The game of a `file` query. Anything the file holds is untrusted: it must be a regular file,
    small, UTF-8 JSON declaring a concordia format before any message quotes a value from it."""
    path = q["file"]
    if not isinstance(path, str) or not path:
        raise QueryError("file must be a path to a game file (concordia new) or a position file", "file")
    try:   # with --root: opened once, beneath the root, and read from that descriptor (no second open)
        raw = safe_read.read_bytes(path) if root is None else safe_read.read_beneath(path, root)
        data = safe_read.parse_json(safe_read.decode(raw, path), path)
    except safe_read.UserFileError as e:
        raise QueryError(str(e), "file") from None
    if not isinstance(data, dict) or data.get("format") not in FORMATS:
        raise QueryError(f"{path} is not a game file or a position file (a JSON object with format "
                         f"{' or '.join(repr(f) for f in FORMATS)})", "file")
    try:
        if data["format"] == "concordia-game":
            return GameFile.from_data(path, data).game
        return Game.from_json(data)
    except GameFileError as e:
        raise QueryError(str(e), "file") from None
    except PositionError as e:
        raise QueryError(f"{path}: {e.message}", "file:" + e.path) from None
    except (GameError, ValueError, TypeError, KeyError) as e:
        raise QueryError(f"{path}: {e}", "file") from None


def _game_from_query(q: dict, root: str | None = None) -> Game:
    has_pos, has_file = "position" in q, "file" in q
    if has_pos == has_file:
        raise QueryError("give exactly one of position (a position object) or file (a game or position file)",
                         "position" if has_pos else None)
    if has_pos:
        pos = q["position"]
        if not isinstance(pos, dict):
            raise QueryError("position must be a JSON object (Game.to_json(), `concordia show --json`)", "position")
        try:
            game = Game.from_json(pos)
        except PositionError as e:
            raise QueryError(e.message, "position" + e.path[1:]) from None
        except (GameError, ValueError, TypeError, KeyError) as e:
            raise QueryError(f"bad position: {e}", "position") from None
    else:
        game = _read_file_query(q, root)
    moves = q.get("moves", [])
    if not isinstance(moves, list):
        raise QueryError("moves must be a list of moves in notation", "moves")
    for i, m in enumerate(moves):
        if not isinstance(m, str):
            raise QueryError("a move must be a string in notation such as 'play Architect'", f"moves[{i}]")
        try:
            game.apply(m)
        except (GameError, NotationError) as e:
            raise QueryError(str(e), f"moves[{i}]") from None
    return game


def _bounded(q: dict, key: str, bound: limits.Bound):
    try:     # a query is JSON: a number is a JSON number, never the string "100"
        return bound.check(q[key], key, strings=False)
    except limits.LimitError as e:
        raise QueryError(str(e), key) from None


def _config_from_query(q: dict) -> SearchConfig:
    knobs = q.get("config", {})
    if not isinstance(knobs, dict):
        raise QueryError("config must be an object of search knobs, e.g. {\"c\": 0.7}", "config")
    opts = {}
    for key, value in knobs.items():
        if key not in KNOBS or key in ("iterations", "seconds"):
            valid = ", ".join(k for k in KNOBS if k not in ("iterations", "seconds"))
            hint = " (give the budget at the top level)" if key in ("iterations", "seconds") else ""
            raise QueryError(f"unknown search knob {limits.shown(key)}{hint}; valid: {valid}",
                             f"config.{key}" if len(key) <= 40 else "config")
        want = KNOBS[key].type
        auto = want == "float | str"      # a number or the word "auto" (c_puct_log: SearchConfig)
        want = {"int": int, "float": float, "str": str, "bool": bool, "float | str": float}.get(want, want)
        if want is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if auto and value == "auto":
            pass
        elif not isinstance(value, want) or (want is int and isinstance(value, bool)):
            words = f"a{'n' if want is int else ''} {want.__name__}" + (' or "auto"' if auto else "")
            raise QueryError(f"{key} must be {words}", f"config.{key}")
        opts[key] = value
    if "iterations" in q and q["iterations"] != 0:
        opts["iterations"] = _bounded(q, "iterations", limits.ITERATIONS)
    if "seconds" in q and q["seconds"] != 0:
        opts["seconds"] = _bounded(q, "seconds", limits.SECONDS)
    if "seed" in q:
        opts["seed"] = _bounded(q, "seed", limits.SEED)
    if not opts.get("iterations") and not opts.get("seconds"):
        if "iterations" in q or "seconds" in q:
            raise QueryError("give a budget: iterations > 0 or seconds > 0", "iterations" if "iterations" in q
                             else "seconds")
        opts["iterations"] = DEFAULT_ITERATIONS
    opts.setdefault("iterations", 0)
    opts.setdefault("seconds", 0.0)
    for key, value in TABLE_SEARCH.items():   # the same footing as hint and review
        opts.setdefault(key, value)
    try:
        return SearchConfig(**opts)
    except SearchConfigError as e:
        top = e.field in ("iterations", "seconds") or (e.field == "seed" and "seed" in q)
        raise QueryError(str(e), e.field if top else f"config.{e.field}") from None


def answer(q: dict, game: Game, result: SearchResult, lines: int, during: bool) -> dict:
    return {"id": q["id"], "player": game.names[result.player], "seat": result.player, "phase": game.phase,
            "turnNumber": game.state.turns, "candidates": candidate_dicts(result, lines),
            "turns": turn_dicts(game, result, lines),
            "rootInfo": {"iterations": result.iterations, "nodes": result.nodes,
                         "seconds": round(result.seconds, 4),
                         "visits": sum(c.visits for c in result.candidates)},
            "notes": list(result.notes), "isDuringSearch": during}


def parse_query(line) -> dict:
    """One input line as a query object; QueryError (field None) when it is not a JSON object."""
    if isinstance(line, bytes):
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError as e:
            raise QueryError(f"the query is not UTF-8 text (bad byte at offset {e.start})") from None
    if len(line) > limits.QUERY_BYTES:
        raise QueryError(f"the query is longer than {limits.QUERY_BYTES:,} bytes")
    try:
        q = safe_read.parse_json(line, "the query")
    except safe_read.UserFileError as e:
        raise QueryError(str(e).replace("the query is not valid JSON", "could not parse the query as JSON")) \
            from None
    if not isinstance(q, dict):
        raise QueryError("a query must be a JSON object")
    return q


MAX_ID_CHARS = 200


def id_problem(value) -> str | None:
    """Why `value` cannot be a query's id (None when it can): a string of at most MAX_ID_CHARS characters
    or an integer below 2^63. An id that is refused is never echoed (it may be 100,000 characters long)."""
    if isinstance(value, bool) or not isinstance(value, (str, int)) or (isinstance(value, int) and abs(value) >= 2 ** 63):
        return "must be a string or an integer"
    if isinstance(value, str) and len(value) > MAX_ID_CHARS:
        return f"must be at most {MAX_ID_CHARS} characters"
    return None


def _query_id(q: dict):
    if "id" not in q:
        raise QueryError("every query needs an id (a string or number echoed in the answer)", "id")
    problem = id_problem(q["id"])
    if problem:
        raise QueryError(f"id {problem}", "id")
    return q["id"]


def handle(line, emit, root: str | None = None, stop=None) -> None:
    """Answer one query line through emit(dict) (partial reports first, then the final answer).

    `root` confines `file` queries to a folder; `stop` (a core.StopToken) ends the search early,
    and the answer then says `"terminated": true` with the statistics so far."""
    qid = None          # echoed only once it is a valid id
    try:
        q = parse_query(line) if not isinstance(line, dict) else line
        qid = _query_id(q)
        action = q.get("action")
        if action is not None:
            if action == "query_version":
                emit({"id": qid, "version": ENGINE_VERSION, "engine": "concordia-ai"})
                return
            if action in ("terminate", "terminate_all"):
                raise QueryError(f"{action} is answered by the serving engine (concordia analyze), not here",
                                 "action")
            raise QueryError(f"unknown action {limits.shown(action)}; valid: {', '.join(ACTIONS)}", "action")
        extra = [k for k in q if k not in QUERY_FIELDS]
        if extra:
            raise QueryError(f"unknown field {limits.shown(extra[0])}; valid: {', '.join(sorted(QUERY_FIELDS))}",
                             extra[0] if len(extra[0]) <= 40 else None)
        if stop is not None and stop.stopped:
            emit({"id": qid, "terminated": True})
            return
        game = _game_from_query(q, root)
        config = _config_from_query(q)
        lines = _bounded(q, "lines", limits.TOP_K) if "lines" in q else DEFAULT_LINES
        every = _bounded(q, "reportEvery", limits.REPORT_EVERY) if "reportEvery" in q else None
        if game.decider is None:
            raise QueryError("the game is over: nobody decides", "position" if "position" in q else "file")
        if game.decider == CHANCE:
            raise QueryError("a card must be revealed (chance decides): add the card seen as a move "
                             "'reveal CARD/DECK' first", "moves")
        if every:
            result = sliced_search(game, config, slice_seconds=every, stop=stop,
                                   on_slice=lambda r: emit(answer(q, game, r, lines, True)))
        else:
            result = search(game, config, stop)
        if stop is not None and stop.stopped:
            out = answer(q, game, result, lines, False) if result.iterations else {"id": qid}
            out["terminated"] = True
            emit(out)
            return
        emit(answer(q, game, result, lines, False))
    except QueryError as e:
        emit({"id": qid, "error": e.message, "field": e.field})
    except ConcordiaError as e:
        emit({"id": qid, "error": str(e), "field": getattr(e, "field", None)})
    except Exception as e:   # a bug must not end the engine: answer it and keep serving
        emit({"id": qid, "error": f"internal error (please report): {type(e).__name__}: {e}"[:500], "field": None})


# ---------------------------------------------------------------- serving

class _Job:
    __slots__ = ("line", "qid", "stop")

    def __init__(self, line, qid):
        self.line, self.qid = line, qid
        self.stop = core.StopToken()


def _lines(stdin):
    """Input lines as bytes (or str from a text stream without a buffer), each at most QUERY_BYTES;
    a longer line is yielded as None after it has been skipped to its end."""
    stream = getattr(stdin, "buffer", stdin)
    while True:
        line = stream.readline(limits.QUERY_BYTES + 1)
        if not line:
            return
        if len(line) > limits.QUERY_BYTES and not line.endswith(b"\n" if isinstance(line, bytes) else "\n"):
            while True:       # skip the rest of the over-long line without keeping it
                rest = stream.readline(1 << 20)
                if not rest or rest.endswith(b"\n" if isinstance(rest, bytes) else "\n"):
                    break
            yield None
            continue
        yield line


class Engine:
    """The serving loop: the reader (this thread) reads lines and answers `terminate` at once; one
    worker thread answers the queries in order. The core's search releases the GIL, so the reader
    stays responsive, and a `terminate` stops a running search within a few iterations."""

    def __init__(self, stdout, root: str | None = None):
        self.stdout, self.root = stdout, root
        self.lock = threading.Lock()           # one answer line at a time
        self.jobs: list[_Job] = []             # queued or running, in input order
        self.ready = threading.Condition(self.lock)
        self.done_reading = False              # end of input: finish the queued queries, then stop
        self.closed = False                    # the reader of our answers went away: stop at once

    def emit(self, obj: dict) -> None:
        text = json.dumps(obj, separators=(",", ":")) + "\n"
        with self.lock:
            if self.closed:
                return
            try:
                self.stdout.write(text)
                self.stdout.flush()
            except (BrokenPipeError, OSError, ValueError):
                self._abandon()

    def _abandon(self) -> None:
        """Nobody reads our answers any more: stop everything (called with the lock held)."""
        self.closed = True
        for job in self.jobs:
            job.stop.stop()
        self.jobs.clear()
        self.ready.notify_all()

    def terminate(self, q: dict, qid) -> None:
        """Answer a terminate line at once; its id, and the id it names, are checked as a query's id is
        (a refused one is never echoed)."""
        action = q["action"]
        problem = id_problem(qid)
        if problem:
            self.emit({"id": None, "error": f"id {problem}", "field": "id"})
            return
        if action == "terminate":
            target = q.get("terminateId", qid)
            problem = id_problem(target)
            if problem:
                self.emit({"id": qid, "error": f"terminateId must be the id of a query (it {problem})",
                           "field": "terminateId"})
                return
        with self.lock:
            hit = [j for j in self.jobs if action == "terminate_all" or j.qid == target]
            for job in hit:
                job.stop.stop()
        ack = {"id": qid, "action": action, "queries": len(hit)}
        if action == "terminate":
            ack["terminateId"] = target
        self.emit(ack)

    def read(self, stdin) -> None:
        for line in _lines(stdin):
            if line is None:
                self._queue(_Job({"id": None, "__error__": f"the query is longer than {limits.QUERY_BYTES:,} bytes"},
                                 None))
                continue
            if not line.strip():
                continue
            try:
                q = parse_query(line)
            except QueryError as e:
                self._queue(_Job({"id": None, "__error__": e.message}, None))
                continue
            qid = q.get("id")
            if q.get("action") in ("terminate", "terminate_all") and isinstance(qid, (str, int)) \
                    and not isinstance(qid, bool):
                self.terminate(q, qid)
                continue
            self._queue(_Job(q, qid))
            if self.closed:
                return

    def _queue(self, job: _Job) -> None:
        with self.lock:
            if not self.closed:
                self.jobs.append(job)
                self.ready.notify()

    def work(self) -> None:
        while True:
            with self.lock:
                while not self.jobs and not self.done_reading:
                    self.ready.wait()
                if not self.jobs:
                    return
                job = self.jobs[0]
            if isinstance(job.line, dict) and "__error__" in job.line:
                self.emit({"id": None, "error": job.line["__error__"], "field": None})
            else:
                handle(job.line, self.emit, self.root, job.stop)
            with self.lock:
                if self.jobs and self.jobs[0] is job:
                    self.jobs.pop(0)

    def serve(self, stdin) -> int:
        worker = threading.Thread(target=self.work, name="analyze-worker", daemon=True)
        worker.start()
        try:
            self.read(stdin)
        finally:
            with self.lock:
                self.done_reading = True
                self.ready.notify_all()
        worker.join()
        return 0


def serve(stdin=None, stdout=None, root: str | None = None) -> int:
    """Read queries until end of input; one answer line per query (plus partial reports).
    `root` confines `file` queries to that folder (symlinks resolved)."""
    return Engine(stdout or sys.stdout, root).serve(stdin or sys.stdin)
