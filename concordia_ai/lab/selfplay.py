"""Self-play data for the value model: games played on the runner, one seed per game, one log record
per game, and the training file (npz) built from the log.

    >>> info = generate("ismcts:iterations=300,eval=hand", games=1000, seed=11, out="data/r1_0.npz", jobs=2)

Game i (a game id) is played on board i % 4 with 2 + (i // 4) % 4 players, deal seed * 1,000,003 + i,
seat s's bot seeded deal * 8 + s: everything a game does follows from (bot, seed, game id), so the
local pool and a Dask cluster give the same records. A position is recorded at the start of every
turn: every seat's features (the core's `value_features_of`); the labels are the game's winner (ties
broken as the rules do) and every seat's final VP. A game stopped at the turn cap is logged (so a
restart does not play it again) but kept out of the data.

The npz: `rows` (one per position and seat, seats in order) and `row_final`; per position `pos_first` (its
first row), `pos_game`, `pos_players`, `pos_board`, `pos_winner`, `pos_turn`. Data from searching bots
(lab.policy_data) may also hold the search's estimate at each position (SEARCH_TARGETS): `row_search_win`
and `row_search_vp` (every seat's win share and expected final VP as the deciding seat's search saw them;
NaN where there is none) and `pos_search_iters` (that search's iterations; 0: no estimate). A file without
them reads as having no estimate anywhere (search_targets).

Files: OUT.games.jsonl, the log (appended as each game ends; a restart plays only the missing game
ids); OUT, the npz written from the log once every game is in; OUT.json, what was asked and made.
"""
from __future__ import annotations

import base64
import io
import json
import time
import zlib

import numpy as np

from .. import core
from ..ai.bots import make_bot, parse_spec, play_game
from ..engine.errors import ConcordiaError
from ..io.atomic_write import write_atomic
from . import jobs as _jobs

BOARDS = ("imperium", "italia", "creta", "aegyptus")
SEARCH_TARGETS = ("row_search_win", "row_search_vp", "pos_search_iters")   # optional arrays (arrays())


class SelfPlayError(ConcordiaError):
    """A bad self-play request (bot, counts, seed) or an unusable log."""


def schedule(game_id: int) -> tuple[str, int]:
    """The board and player count of a game id."""
    return BOARDS[game_id % 4], 2 + (game_id // 4) % 4


def deal_seed(seed: int, game_id: int) -> int:
    return seed * 1_000_003 + game_id


class TurnStarts:
    """Watches a game (bots.play_game's `watch`): take(state) at the start of every turn (default: the
    value features; a copy of the state to search it later)."""

    def __init__(self, take=core.value_features_of):
        self.take = take
        self.taken, self.turns = [], []

    def before(self, state) -> None:
        if not self.turns or state.turns != self.turns[-1]:
            if state.decider != core.NOBODY and state.decider >= 0:
                self.turns.append(state.turns)
                self.taken.append(self.take(state))


def play_scheduled(bot: str, seed: int, game_id: int, take=core.value_features_of):
    """Game `game_id` of the schedule played by `bot` in every seat: (bots.PlayedGame, its TurnStarts)."""
    board, players = schedule(game_id)
    deal = deal_seed(seed, game_id)
    bots = [make_bot(bot, seed=deal * 8 + i) for i in range(players)]
    watch = TurnStarts(take)
    return play_game(bots, board, deal, watch=watch), watch


def _pack(a: np.ndarray) -> dict:
    """A float32 array as exact plain data (JSON would round-trip it too, at four times the size)."""
    a = np.ascontiguousarray(a, dtype="<f4")
    return dict(shape=list(a.shape), f4=base64.b64encode(zlib.compress(a.tobytes(), 6)).decode("ascii"))


def unpack(packed: dict) -> np.ndarray:
    return np.frombuffer(zlib.decompress(base64.b64decode(packed["f4"])), dtype="<f4").reshape(packed["shape"])


def play_task(task: dict) -> dict:
    """One self-play game (task: bot, seed, game_id) as its log record. Top-level and plain data."""
    board, players = schedule(task["game_id"])
    played, watch = play_scheduled(task["bot"], task["seed"], task["game_id"])
    rec = dict(bot=task["bot"], seed=task["seed"], game_id=task["game_id"], board=board, players=players)
    if played.truncated:
        return dict(rec, truncated=True)
    game = played.game
    return dict(rec, winner=game.ranking()[0], final=[s["total"] for s in game.scores()], turns=watch.turns,
                feats=_pack(np.stack(watch.taken)))


def record_key(rec: dict) -> tuple:
    return rec["bot"], rec["seed"], rec["game_id"]


def tasks(bot: str, games: int, seed: int, first_id: int = 0) -> list[dict]:
    return [dict(bot=bot, seed=seed, game_id=i) for i in range(first_id, first_id + games)]


def play(bot: str, games: int, seed: int, first_id: int = 0, log: str | None = None, limit: int | None = None,
         **runner_options) -> tuple[list[dict], int]:
    """The records of game ids first_id .. first_id + games - 1 (those in `log` are not played again);
    returns (records in game-id order, games played now). runner_options: jobs, backend, scheduler, tls,
    progress (see lab.jobs.run_logged)."""
    try:
        parse_spec(bot)
    except ConcordiaError as e:
        raise SelfPlayError(f"--bot: {e}") from None
    for name, value, low in (("--games", games, 1), ("--seed", seed, 0), ("--first-id", first_id, 0)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low or value >= 2 ** 40:
            raise SelfPlayError(f"{name}: {value!r} must be an integer in {low}..2^40-1")
    try:
        return _jobs.run_logged(play_task, tasks(bot, games, seed, first_id), record_key, log, limit=limit,
                                **runner_options)
    except _jobs.JobError as e:
        raise SelfPlayError(str(e)) from None


def no_estimates(rows: int, positions: int) -> dict[str, np.ndarray]:
    """Search targets saying "no estimate" for so many rows and positions: NaN win shares and VP, 0
    iterations."""
    return dict(row_search_win=np.full(rows, np.nan, np.float32), row_search_vp=np.full(rows, np.nan, np.float32),
                pos_search_iters=np.zeros(positions, np.int32))


def search_targets(z) -> dict[str, np.ndarray]:
    """A value file's search targets (z: its arrays); a file without them (older, or played by bots that do
    not search) has no estimate anywhere."""
    if all(k in z for k in SEARCH_TARGETS):
        return {k: z[k] for k in SEARCH_TARGETS}
    return no_estimates(len(z["rows"]), len(z["pos_first"]))


def record_estimates(g: dict, positions: int, seats: int) -> dict[str, np.ndarray]:
    """One game record's search targets, as the file holds them (no estimate for a record without them)."""
    if g.get("search_win") is None:
        return no_estimates(positions * seats, positions)
    return dict(row_search_win=unpack(g["search_win"]).ravel(), row_search_vp=unpack(g["search_vp"]).ravel(),
                pos_search_iters=np.array(g["search_iters"], np.int32))


def arrays(records: list[dict]) -> dict[str, np.ndarray]:
    """The training file's arrays from finished games' records (truncated games left out). Records with
    `search_win`, `search_vp` (packed, positions x seats) and `search_iters` add the search targets
    (SEARCH_TARGETS); a record without them, beside such records, counts as having no estimate."""
    rows, row_final = [], []
    search = {k: [] for k in SEARCH_TARGETS}
    pos = {k: [] for k in ("pos_first", "pos_game", "pos_players", "pos_board", "pos_winner", "pos_turn")}
    r = 0
    for g in records:
        if g.get("truncated"):
            continue
        feats = unpack(g["feats"])
        for k, v in record_estimates(g, len(g["turns"]), g["players"]).items():
            search[k].append(v)
        for t, f in zip(g["turns"], feats):
            pos["pos_first"].append(r)
            pos["pos_game"].append(g["game_id"])
            pos["pos_players"].append(g["players"])
            pos["pos_board"].append(BOARDS.index(g["board"]))
            pos["pos_winner"].append(g["winner"])
            pos["pos_turn"].append(t)
            rows.append(f)
            row_final.extend(g["final"])
            r += g["players"]
    width = records[0]["feats"]["shape"][1] if any(not g.get("truncated") for g in records) else 0
    types = dict(pos_first=np.int64, pos_game=np.int64, pos_players=np.int8, pos_board=np.int8, pos_winner=np.int8,
                 pos_turn=np.int32)
    out = dict(rows=np.concatenate(rows).astype(np.float32) if rows else np.zeros((0, width), np.float32),
               row_final=np.array(row_final, np.float32))
    out.update({k: np.array(v, types[k]) for k, v in pos.items()})
    if any(g.get("search_win") is not None for g in records if not g.get("truncated")):
        out.update({k: np.concatenate(v) for k, v in search.items()})
    return out


def generate(bot: str, games: int, seed: int, out: str, first_id: int = 0, command: str = "",
             **runner_options) -> dict:
    """Play (or resume) a self-play data set and write OUT (npz) and OUT.json; returns the info written."""
    t0 = time.time()
    records, new = play(bot, games, seed, first_id, log=out + ".games.jsonl", **runner_options)
    kept = [g for g in records if not g.get("truncated")]
    buf = io.BytesIO()
    data = arrays(records)
    np.savez_compressed(buf, **data)
    write_atomic(out, buf.getvalue())
    info = dict(bot=bot, games_asked=games, games_kept=len(kept), seed=seed, first_id=first_id,
                positions=len(data["pos_first"]), played_now=new, seconds=round(time.time() - t0, 1),
                log=out + ".games.jsonl", command=command)
    write_atomic(out + ".json", json.dumps(info, indent=2) + "\n")
    return info
