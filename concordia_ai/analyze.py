"""A JSON-lines analysis engine in the style of KataGo's (`concordia analyze`), and the sliced search
that `concordia hint` and the engine's partial reports share.

One query per input line, one answer per output line (see docs/analyze.md):

    {"id": "q1", "file": "game.json", "iterations": 5000, "lines": 3}
    {"id": "q1", "player": "Ann", "seat": 0, "phase": "play", "candidates": [{"move": "play Architect",
     "visits": 2100, "winrate": 0.61, "scoreLead": 3.4, "vp": 54.2, "utility": 0.58, "lcb": 0.59,
     "order": 0, "pv": [...]}, ...], "rootInfo": {...}, "isDuringSearch": false}

Errors are answered as {"id": ..., "error": "...", "field": "..."} and the engine keeps serving.

Sliced search: the budget is split into slices, each an independent ISMCTS search with its own seed,
merged at the root as root parallelism does (visits summed, statistics weighted by visits). After each
slice the merged statistics are an honest partial result (for progress bars and partial reports).
"""
from __future__ import annotations

import json
import math
import sys
import time
from dataclasses import fields, replace

from .bots import BotSpecError, parse_spec
from .errors import ConcordiaError, GameError
from .game import CHANCE, Game
from .gamefile import GameFile, GameFileError
from .notation import NotationError
from .position import PositionError
from .search import Candidate, SearchConfig, SearchConfigError, SearchResult, search

DEFAULT_ITERATIONS = 5000
DEFAULT_LINES = 10
ENGINE_VERSION = 1
KNOBS = {f.name: f for f in fields(SearchConfig)}


# ---------------------------------------------------------------- sliced search

def merge_results(game: Game, results: list[SearchResult], config: SearchConfig) -> SearchResult:
    """Root statistics of independent searches merged (visits summed, means weighted by visits)."""
    merged: dict[int, dict] = {}
    for res in results:
        for c in res.candidates:
            m = merged.setdefault(c.move, dict(text=c.text, visits=0, mean=0.0, win=0.0, vp=0.0, margin=0.0,
                                               pv=[], pv_v=-1))
            for key in ("mean", "win", "vp", "margin"):
                m[key] += getattr(c, key) * c.visits
            m["visits"] += c.visits
            if c.visits > m["pv_v"]:
                m["pv"], m["pv_v"] = c.pv, c.visits
    cands = []
    for move, m in merged.items():
        v = max(1, m["visits"])
        cands.append(Candidate(move, m["text"], m["visits"], m["mean"] / v, m["win"] / v, m["vp"] / v,
                               m["margin"] / v, m["pv"]))
    if config.final == "mean":
        cands.sort(key=lambda c: (c.mean, c.visits), reverse=True)
    else:
        cands.sort(key=lambda c: (c.visits, c.mean), reverse=True)
    return SearchResult(game.decider, cands, sum(r.iterations for r in results), sum(r.nodes for r in results),
                        sum(r.bytes for r in results), sum(r.seconds for r in results), config)


def sliced_search(game: Game, config: SearchConfig, slices: int = 1, slice_seconds: float | None = None,
                  on_slice=None) -> SearchResult:
    """ISMCTS in slices, merged; on_slice(partial_result) after each slice but the last.

    With `slice_seconds`, each slice runs at most that many seconds (and the iteration budget, if any,
    caps the total); otherwise the budget is split into `slices` equal parts."""
    results: list[SearchResult] = []
    t0 = time.perf_counter()
    i = 0
    while True:
        seed = config.seed if i == 0 else (config.seed * 1000003 + 7919 * i) % 2 ** 63
        done_it = sum(r.iterations for r in results)
        elapsed = time.perf_counter() - t0
        if slice_seconds:
            left_it = config.iterations - done_it if config.iterations else 0
            left_s = config.seconds - elapsed if config.seconds else 0.0
            cfg = replace(config, seed=seed, iterations=max(0, left_it),
                          seconds=min(slice_seconds, left_s) if config.seconds else slice_seconds)
        else:
            if config.iterations:
                share = config.iterations // slices + (1 if i < config.iterations % slices else 0)
                cfg = replace(config, seed=seed, iterations=share,
                              seconds=config.seconds / slices if config.seconds else 0.0)
            else:
                cfg = replace(config, seed=seed, seconds=config.seconds / slices)
        results.append(search(game, cfg))
        i += 1
        done_it = sum(r.iterations for r in results)
        elapsed = time.perf_counter() - t0
        if slice_seconds:
            last = ((config.iterations and done_it >= config.iterations) or
                    (config.seconds and elapsed >= config.seconds - 1e-3))
        else:
            last = i >= slices
        if last:
            break
        if on_slice is not None:
            on_slice(merge_results(game, results, config))
    return merge_results(game, results, config) if len(results) > 1 else results[0]


def lcb(win: float, visits: int) -> float:
    """A lower confidence bound of the win rate (normal approximation, 95 %)."""
    if visits <= 0:
        return 0.0
    return max(0.0, win - 1.96 * math.sqrt(max(win * (1 - win), 1e-9) / visits))


def candidate_dicts(result: SearchResult, lines: int | None) -> list[dict]:
    cands = result.candidates if lines is None else result.candidates[:lines]
    return [dict(move=c.text, visits=c.visits, winrate=round(c.win, 4), scoreLead=round(c.margin, 3),
                 vp=round(c.vp, 3), utility=round(c.mean, 4), lcb=round(lcb(c.win, c.visits), 4), order=i,
                 pv=c.pv)
            for i, c in enumerate(cands)]


def flat_candidates(game: Game, config: SearchConfig) -> tuple[list[dict], int]:
    """Flat Monte Carlo statistics: visits and mean reward per legal move (no win rate or VP estimate)."""
    from . import core
    stats, iterations = core.flat_monte_carlo(game.state, config.core_dict())
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

class QueryError(Exception):
    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field


def _game_from_query(q: dict) -> Game:
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
        path = q["file"]
        if not isinstance(path, str) or not path:
            raise QueryError("file must be a path to a game file (concordia new) or a position file", "file")
        try:
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
        except OSError as e:
            raise QueryError(f"cannot read {path}: {e.strerror or e}", "file") from None
        except ValueError as e:
            raise QueryError(f"{path} is not valid JSON: {e}", "file") from None
        try:
            if isinstance(data, dict) and data.get("format") == "concordia-game":
                game = GameFile.load(path).game
            else:
                game = Game.from_json(data)
        except GameFileError as e:
            raise QueryError(str(e), "file") from None
        except PositionError as e:
            raise QueryError(f"{path}: {e.message}", "file:" + e.path) from None
        except (GameError, ValueError, TypeError, KeyError) as e:
            raise QueryError(f"{path}: {e}", "file") from None
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


def _number(q: dict, key: str, kind, low, low_ok: bool = False):
    value = q[key]
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (kind is int and not float(value).is_integer()):
        raise QueryError(f"{key} must be a{'n integer' if kind is int else ' number'}", key)
    if value < low or (value == low and not low_ok):
        raise QueryError(f"{key} must be {'>=' if low_ok else '>'} {low}", key)
    return kind(value)


def _config_from_query(q: dict) -> SearchConfig:
    knobs = q.get("config", {})
    if not isinstance(knobs, dict):
        raise QueryError("config must be an object of search knobs, e.g. {\"c\": 0.7}", "config")
    opts = {}
    for key, value in knobs.items():
        if key not in KNOBS or key in ("iterations", "seconds"):
            valid = ", ".join(k for k in KNOBS if k not in ("iterations", "seconds"))
            hint = " (give the budget at the top level)" if key in ("iterations", "seconds") else ""
            raise QueryError(f"unknown search knob {key!r}{hint}; valid: {valid}", f"config.{key}")
        want = KNOBS[key].type
        want = {"int": int, "float": float, "str": str, "bool": bool}.get(want, want)
        if want is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if not isinstance(value, want) or (want is int and isinstance(value, bool)):
            raise QueryError(f"{key} must be a{'n' if want is int else ''} {want.__name__}", f"config.{key}")
        opts[key] = value
    iterations = _number(q, "iterations", int, 0) if "iterations" in q else 0
    seconds = _number(q, "seconds", float, 0) if "seconds" in q else 0.0
    if not iterations and not seconds:
        if "iterations" in q or "seconds" in q:
            raise QueryError("give a budget: iterations > 0 or seconds > 0", "iterations")
        iterations = DEFAULT_ITERATIONS
    try:
        return SearchConfig(iterations=iterations, seconds=seconds, **opts)
    except SearchConfigError as e:
        raise QueryError(str(e), e.field if e.field in ("iterations", "seconds", "seed") else f"config.{e.field}") \
            from None


def answer(q: dict, game: Game, result: SearchResult, lines: int, during: bool) -> dict:
    return {"id": q["id"], "player": game.names[result.player], "seat": result.player, "phase": game.phase,
            "turnNumber": game.state.turns, "candidates": candidate_dicts(result, lines),
            "rootInfo": {"iterations": result.iterations, "nodes": result.nodes,
                         "seconds": round(result.seconds, 4),
                         "visits": sum(c.visits for c in result.candidates)},
            "isDuringSearch": during}


def handle(line: str, emit) -> None:
    """Answer one query line through emit(dict) (partial reports first, then the final answer)."""
    try:
        q = json.loads(line)
    except ValueError as e:
        emit({"id": None, "error": f"could not parse the query as JSON: {e}", "field": None})
        return
    if not isinstance(q, dict):
        emit({"id": None, "error": "a query must be a JSON object", "field": None})
        return
    qid = q.get("id")
    try:
        if "id" not in q:
            raise QueryError("every query needs an id (a string or number echoed in the answer)", "id")
        if not isinstance(qid, (str, int)) or isinstance(qid, bool):
            raise QueryError("id must be a string or a number", "id")
        action = q.get("action")
        if action is not None:
            if action == "query_version":
                emit({"id": qid, "version": ENGINE_VERSION, "engine": "concordia-ai"})
                return
            raise QueryError(f"unknown action {action!r}; valid: query_version", "action")
        known = {"id", "position", "file", "moves", "iterations", "seconds", "lines", "config", "reportEvery",
                 "seed", "action"}
        extra = [k for k in q if k not in known]
        if extra:
            raise QueryError(f"unknown field {extra[0]!r}; valid: {', '.join(sorted(known))}", extra[0])
        game = _game_from_query(q)
        config = _config_from_query(q)
        if "seed" in q:
            seed = _number(q, "seed", int, 0, low_ok=True)
            config = replace(config, seed=seed)
        lines = _number(q, "lines", int, 0) if "lines" in q else DEFAULT_LINES
        every = _number(q, "reportEvery", float, 0) if "reportEvery" in q else None
        if game.decider is None:
            raise QueryError("the game is over: nobody decides", "position" if "position" in q else "file")
        if game.decider == CHANCE:
            raise QueryError("a card must be revealed (chance decides): add the card seen as a move "
                             "'reveal CARD/DECK' first", "moves")
        if every:
            result = sliced_search(game, config, slice_seconds=every,
                                   on_slice=lambda r: emit(answer(q, game, r, lines, True)))
        else:
            result = search(game, config)
        emit(answer(q, game, result, lines, False))
    except QueryError as e:
        emit({"id": qid, "error": e.message, "field": e.field})
    except ConcordiaError as e:
        emit({"id": qid, "error": str(e), "field": None})


def serve(stdin=None, stdout=None) -> int:
    """Read queries until end of input; one answer line per query (plus partial reports)."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout

    def emit(obj):
        stdout.write(json.dumps(obj, separators=(",", ":")) + "\n")
        stdout.flush()

    for line in stdin:
        if line.strip():
            handle(line, emit)
    return 0
