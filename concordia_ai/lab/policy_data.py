"""Self-play data for the policy prior (expert iteration): games played by the search on the runner, and at
every searched decision the policy features of each legal move with the root's visit distribution.

    >>> info = generate(dict(iterations=400), "italia", 3, games=100, seed=1, out="data/policy/g1.npz")

Game i is dealt with seed * 1,000,003 + i (lab.selfplay.deal_seed); seat s searches with seeds from
deal * 8 + s. Every seat plays the same search (SearchConfig(**search)); a decision with one legal move is
played without a search and not recorded. A record holds, per decision: the features
(core.policy_features_of: one row per legal move, legal_actions() order), the root visits of every legal
move (0 for a move the search never expanded), the greedy bot's one-step value of every move (the
heuristic ordering the learned prior is compared with), the turn, the phase and the seat.

Files: OUT.games.jsonl, the log (one record per game, appended as each game ends; a restart plays only
the missing game ids); OUT, the npz built from the log; OUT.json, what was asked and made.
"""
from __future__ import annotations

import io
import json
import time

import numpy as np

from .. import core
from ..ai.bots import Bot, play_game
from ..ai.search import SearchConfig, SearchConfigError, search, search_raw
from ..engine.errors import ConcordiaError
from ..io.atomic_write import write_atomic
from . import jobs as _jobs
from .selfplay import BOARDS, _pack, deal_seed, unpack


class PolicyDataError(ConcordiaError):
    """A bad request for policy data (search knobs, board, counts)."""


class RecordingSearch(Bot):
    """A search bot that keeps, at each decision it searches, what the policy is trained on."""
    kind = "ismcts"

    def __init__(self, seed: int, search: dict, rows: list):
        super().__init__(seed)
        self.search = search
        self.rows = rows

    def choose(self, game) -> int:
        legal = game.legal_moves()
        if len(legal) == 1:
            return legal[0]
        state = game.state
        config = SearchConfig(**self.search, seed=self.next_seed())
        if config.focus > 0:
            # the final choice's pick is made on the whole turns (search.final_pick), as the bots play it
            result = search(game, config)
            raw = result.raws[0]
            move = result.turns[0].moves[0] if result.turns else raw["children"][0]["action"]
        else:
            raw = search_raw(game, config)
            move = raw["children"][0]["action"]
        visits = dict((c["action"], c["visits"]) for c in raw["children"])
        self.rows.append(dict(feats=core.policy_features_of(state),
                              visits=np.array([visits.get(a, 0) for a in legal], np.float32),
                              greedy=np.array(core.greedy_values(state), np.float32),
                              turn=state.turns, phase=state.phase, seat=game.decider))
        return move


def play_task(task: dict) -> dict:
    """One self-play game (task: search, board, players, seed, game_id) as its log record."""
    deal = deal_seed(task["seed"], task["game_id"])
    rows: list = []
    bots = [RecordingSearch(deal * 8 + s, task["search"], rows) for s in range(task["players"])]
    played = play_game(bots, task["board"], deal)
    rec = dict(task, decisions=len(rows))
    if played.truncated:
        return dict(rec, truncated=True)
    game = played.game
    return dict(rec, winner=game.ranking()[0], final=[s["total"] for s in game.scores()],
                sizes=[len(r["visits"]) for r in rows], turn=[r["turn"] for r in rows],
                phase=[r["phase"] for r in rows], seat=[r["seat"] for r in rows],
                feats=_pack(np.concatenate([r["feats"] for r in rows])),
                visits=_pack(np.concatenate([r["visits"] for r in rows])),
                greedy=_pack(np.concatenate([r["greedy"] for r in rows])))


def record_key(rec: dict) -> tuple:
    return rec["seed"], rec["game_id"]


def check_request(search: dict, board: str, players: int, games: int, seed: int) -> None:
    try:
        SearchConfig(**search)
    except (SearchConfigError, TypeError) as e:
        raise PolicyDataError(f"--search: {e}") from None
    if board not in BOARDS:
        raise PolicyDataError(f"--board: {board!r}; valid: {', '.join(BOARDS)}")
    if players not in (2, 3, 4, 5):
        raise PolicyDataError(f"--players: {players!r} must be 2..5")
    for name, value, low in (("--games", games, 1), ("--seed", seed, 0)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low or value >= 2 ** 40:
            raise PolicyDataError(f"{name}: {value!r} must be an integer in {low}..2^40-1")


def arrays(records: list[dict]) -> dict[str, np.ndarray]:
    """The training file from finished games: rows (every legal move of every decision) and per decision
    its first row, size, game id, turn, phase and seat (truncated games left out)."""
    feats, visits, greedy = [], [], []
    dec = {k: [] for k in ("dec_first", "dec_size", "dec_game", "dec_turn", "dec_phase", "dec_seat")}
    r = 0
    for g in records:
        if g.get("truncated") or not g["decisions"]:
            continue
        feats.append(unpack(g["feats"]))
        visits.append(unpack(g["visits"]))
        greedy.append(unpack(g["greedy"]))
        for n, t, ph, s in zip(g["sizes"], g["turn"], g["phase"], g["seat"]):
            dec["dec_first"].append(r)
            dec["dec_size"].append(n)
            dec["dec_game"].append(g["game_id"])
            dec["dec_turn"].append(t)
            dec["dec_phase"].append(ph)
            dec["dec_seat"].append(s)
            r += n
    width = core.POLICY_FEATURES
    out = dict(feats=np.concatenate(feats) if feats else np.zeros((0, width), np.float32),
               visits=np.concatenate(visits) if visits else np.zeros(0, np.float32),
               greedy=np.concatenate(greedy) if greedy else np.zeros(0, np.float32))
    out.update({k: np.array(v, np.int64) for k, v in dec.items()})
    return out


def generate(search: dict, board: str, players: int, games: int, seed: int, out: str, command: str = "",
             **runner_options) -> dict:
    """Play (or resume) the games and write OUT (npz) and OUT.json; returns the info written."""
    check_request(search, board, players, games, seed)
    t0 = time.time()
    tasks = [dict(search=search, board=board, players=players, seed=seed, game_id=i) for i in range(games)]
    try:
        records, new = _jobs.run_logged(play_task, tasks, record_key, out + ".games.jsonl", **runner_options)
    except _jobs.JobError as e:
        raise PolicyDataError(str(e)) from None
    data = arrays(records)
    buf = io.BytesIO()
    np.savez_compressed(buf, **data)
    write_atomic(out, buf.getvalue())
    kept = [g for g in records if not g.get("truncated")]
    info = dict(search=search, board=board, players=players, seed=seed, games_asked=games, games_kept=len(kept),
                decisions=int(len(data["dec_first"])), rows=int(len(data["feats"])), played_now=new,
                seconds=round(time.time() - t0, 1), log=out + ".games.jsonl", command=command)
    write_atomic(out + ".json", json.dumps(info, indent=2) + "\n")
    return info
