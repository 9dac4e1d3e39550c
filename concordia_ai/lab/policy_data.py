"""Self-play data for the policy prior (expert iteration): games played by the search on the runner, and at
every recorded decision the policy features of each legal move with the root's statistics and the targets
made from them (lab.policy_targets: the visits, the pruned visits, the improved policy).

    >>> info = generate(dict(iterations=400), "italia", 3, games=100, seed=1, out="data/policy/g1.npz")
    >>> info = generate(dict(iterations=1600), ["italia", "imperium"], [2, 3, 4, 5], games=400, seed=1,
    ...                 out="data/policy/g2.npz", cap=PlayoutCap(share=0.25, fast=200), value=True)

Game i is dealt with seed * 1,000,003 + i (lab.selfplay.deal_seed) on board boards[i % B] with
counts[(i // B) % C] players; seat s searches with seeds from deal * 8 + s. Every seat plays the same search
(SearchConfig(**search)); a decision with one legal move is played without a search and not recorded.

Playout cap randomization (KataGo; `cap`): each searched decision is drawn full with probability
cap.share (the search's own iterations, recorded) or fast (cap.fast iterations, played, not recorded); the
draws come from a generator seeded by the seat's seed, so a game replays exactly. Without a cap every
searched decision is full.

A record holds, per recorded decision: the features (core.policy_features_of: one row per legal move,
legal_actions() order), the root visits and mean reward of every legal move (0 for a move the search never
expanded), the pruned visits and the improved policy (lab.policy_targets), the greedy bot's one-step value
of every move (the heuristic ordering the learned prior is compared with), the turn, the phase, the seat
and the player count. With `value`, also every seat's value features at the start of every turn (the value
model's data, lab.selfplay's format: OUT with .value.npz for .npz) and, when the decision made there was
searched (full or fast), that search's estimate as soft targets for the value model (SearchEstimates).

Files: OUT.games.jsonl, the log (one record per game, appended as each game ends; a restart plays only
the missing game ids); OUT, the npz built from the log; OUT.json, what was asked and made, with the
targets' entropy against uniform for each kind (`targets`).
"""
from __future__ import annotations

import io
import json
import random
import time
from dataclasses import asdict, dataclass, replace

import numpy as np

from .. import core
from ..ai.bots import Bot, play_game
from ..ai.search import SearchConfig, SearchConfigError, effective_eval, search, search_raw
from ..engine.errors import ConcordiaError
from ..io.atomic_write import write_atomic
from . import jobs as _jobs
from . import policy_targets, prior_weights, selfplay, value_weights
from .selfplay import BOARDS, _pack, deal_seed, unpack


class PolicyDataError(ConcordiaError):
    """A bad request for policy data (search knobs, board, counts)."""


@dataclass(frozen=True)
class PlayoutCap:
    """Playout cap randomization: a share of the searched decisions at the full budget (recorded), the rest
    at `fast` iterations (played only)."""
    share: float = 0.25
    fast: int = 200


class SearchEstimates(selfplay.TurnStarts):
    """The value features at every turn start (TurnStarts) and the estimate of the search that decides there
    (the deciding seat's, if that decision is searched: RecordingSearch calls `searched`): every seat's win
    share and expected final VP, and the search's iterations; NaN and 0 where the decision was not searched.

    The figures are the root's own means over the search's iterations (the core's `seat_win`, `seat_vp`),
    not the final-result model's (ai/outcome.py): a target the value model learns should not pass through a
    map fitted on another data set, and the raw means sum to 1 over the seats by construction (every
    iteration backs up a distribution: the value model's softmax, the leader's 1 by the hand formula, or the
    winner's 1 at the game's end). Under the hand formula (eval=hand) the backed-up VP is not on
    the final score's scale (the score now plus a share of the position's potential: about 15 VP at the
    opening of 2-player Italia, where games end above 100), so that search's VP is left out (NaN); its win
    share is kept."""

    def __init__(self):
        super().__init__()
        self.win, self.vp, self.iters = [], [], []
        self.at_turn_start = False

    def before(self, state) -> None:
        taken = len(self.turns)
        super().before(state)
        # only the decision right after a turn start (the next before() call closes the window)
        self.at_turn_start = len(self.turns) > taken
        if self.at_turn_start:
            self.win.append([np.nan] * state.n_players)
            self.vp.append([np.nan] * state.n_players)
            self.iters.append(0)

    def searched(self, raw: dict, eval_kind: str) -> None:
        """The decision now was searched (raw: the core's answer; eval_kind: its effective evaluation)."""
        if self.at_turn_start:
            self.win[-1] = raw["seat_win"]
            if eval_kind == "net":
                self.vp[-1] = raw["seat_vp"]
            self.iters[-1] = raw["iterations"]

    def record(self) -> dict:
        """The log record's fields (lab.selfplay's record format, under value_ names)."""
        return dict(value_turns=self.turns, value_feats=_pack(np.stack(self.taken)),
                    value_search_win=_pack(np.array(self.win)), value_search_vp=_pack(np.array(self.vp)),
                    value_search_iters=self.iters)


class RecordingSearch(Bot):
    """A search bot that keeps, at each decision it searches at the full budget, what the policy is trained
    on, and tells `estimates` (SearchEstimates, if given) of every search it makes. `counts` tallies the
    searched decisions: full and fast."""
    kind = "ismcts"

    def __init__(self, seed: int, search: dict, rows: list, cap: PlayoutCap | None = None,
                 estimates: SearchEstimates | None = None):
        super().__init__(seed)
        self.search = search
        self.rows = rows
        self.cap = cap
        self.estimates = estimates
        # its own generator: the draws do not shift the search seeds, and replay with the seat's seed
        self.cap_rng = random.Random(f"playout-cap/{seed}")
        self.counts = dict(full=0, fast=0)

    def full_budget(self) -> bool:
        return self.cap is None or self.cap_rng.random() < self.cap.share

    def choose(self, game) -> int:
        legal = game.legal_moves()
        if len(legal) == 1:
            return legal[0]
        state = game.state
        full = self.full_budget()
        config = SearchConfig(**self.search, seed=self.next_seed())
        if not full:
            config = replace(config, iterations=self.cap.fast)
        self.counts["full" if full else "fast"] += 1
        if config.focus > 0:
            # the final choice's pick is made on the whole turns (search.final_pick), as the bots play it
            result = search(game, config)
            raw = result.raws[0]
            move = result.turns[0].moves[0] if result.turns else raw["children"][0]["action"]
        else:
            raw = search_raw(game, config)
            move = raw["children"][0]["action"]
        if full:
            self.rows.append(decision_row(state, legal, raw, config, game.decider))
        if self.estimates is not None:
            self.estimates.searched(raw, effective_eval(config.eval, game.n_players))
        return move


def decision_row(state, legal: list[int], raw: dict, config: SearchConfig, seat: int) -> dict:
    """What one searched decision records: the features and the root statistics of every legal move, the
    targets made from them, the greedy values."""
    stats = dict((c["action"], (c["visits"], c["mean"])) for c in raw["children"])
    visits = np.array([stats.get(a, (0, 0.0))[0] for a in legal], np.float64)
    means = np.array([stats.get(a, (0, 0.0))[1] for a in legal], np.float64)
    greedy = np.array(core.greedy_values(state), np.float64)
    sel = policy_targets.Selection.of(config, state.n_players)
    prior = root_prior(state, config, greedy)
    parent = max(float(raw.get("root_visits") or visits.sum()), 2.0)
    return dict(feats=core.policy_features_of(state), visits=visits.astype(np.float32),
                means=means.astype(np.float32),
                pruned=policy_targets.pruned_visits(visits, means, parent, sel,
                                                    prior if sel.needs_prior() else None).astype(np.float32),
                improved=policy_targets.improved_policy(visits, means, prior).astype(np.float32),
                greedy=greedy.astype(np.float32), turn=state.turns, phase=state.phase, seat=seat)


def root_prior(state, config: SearchConfig, greedy: np.ndarray) -> np.ndarray | None:
    """The prior the search put on the root's legal moves (cext/puct.pxi node_prior): the learned one with
    policy > 0; with the PUCT selection, the heuristic's softmax(greedy value / prior_temp) with prior = true,
    else uniform; None for today's UCB without the policy (it has no prior)."""
    if config.policy > 0:
        return np.array(core.policy_priors(state), np.float64)
    if getattr(config, "select", "ucb") != "puct":
        return None
    if config.prior:
        return policy_targets.softmax(greedy / config.prior_temp)
    return np.full(len(greedy), 1.0 / len(greedy))


ROW_ARRAYS = ("feats", "visits", "means", "pruned", "improved", "greedy")


def game_setting(boards: list[str], counts: list[int], game_id: int) -> tuple[str, int]:
    """The board and player count of a game id: the boards cycle fastest, then the player counts."""
    return boards[game_id % len(boards)], counts[(game_id // len(boards)) % len(counts)]


def play_task(task: dict) -> dict:
    """One self-play game (task: search, boards, counts, seed, game_id, cap, value) as its log record."""
    board, players = game_setting(task["boards"], task["counts"], task["game_id"])
    deal = deal_seed(task["seed"], task["game_id"])
    prior_weights.hold(task.get("weights"))        # a prior from a directory (the loop's incumbent)
    value_weights.hold(task.get("value_weights"))  # its value model (None: the shipped one, never a stale set)
    t0 = time.process_time()
    cap = PlayoutCap(**task["cap"]) if task.get("cap") else None
    rows: list = []
    watch = SearchEstimates() if task.get("value") else None
    bots = [RecordingSearch(deal * 8 + s, task["search"], rows, cap, watch) for s in range(players)]
    played = play_game(bots, board, deal, watch=watch)
    rec = dict(task, board=board, players=players, decisions=len(rows),
               full=sum(b.counts["full"] for b in bots), fast=sum(b.counts["fast"] for b in bots),
               cpu_seconds=round(time.process_time() - t0, 3))
    if played.truncated:
        return dict(rec, truncated=True)
    game = played.game
    rec.update(winner=game.ranking()[0], final=[s["total"] for s in game.scores()],
               sizes=[len(r["visits"]) for r in rows], turn=[r["turn"] for r in rows],
               phase=[r["phase"] for r in rows], seat=[r["seat"] for r in rows])
    for k in ROW_ARRAYS:
        rec[k] = _pack(np.concatenate([r[k] for r in rows]) if rows else
                       np.zeros((0, core.POLICY_FEATURES) if k == "feats" else 0, np.float32))
    if watch is not None:
        rec.update(watch.record())
    return rec


def record_key(rec: dict) -> tuple:
    return rec["seed"], rec["game_id"]


def as_list(value) -> list:
    return list(value) if isinstance(value, (list, tuple)) else [value]


def check_request(search: dict, boards: list[str], counts: list[int], games: int, seed: int,
                  cap: PlayoutCap | None = None, first_id: int = 0) -> None:
    try:
        config = SearchConfig(**search)
    except (SearchConfigError, TypeError) as e:
        raise PolicyDataError(f"--search: {e}") from None
    for board in boards:
        if board not in BOARDS:
            raise PolicyDataError(f"--board: {board!r}; valid: {', '.join(BOARDS)}")
    for players in counts:
        if players not in (2, 3, 4, 5):
            raise PolicyDataError(f"--players: {players!r} must be 2..5")
    if not boards or not counts:
        raise PolicyDataError("--board and --players: give at least one of each")
    for name, value, low in (("--games", games, 1), ("--seed", seed, 0), ("--first-id", first_id, 0)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low or value >= 2 ** 40:
            raise PolicyDataError(f"{name}: {value!r} must be an integer in {low}..2^40-1")
    if cap is not None:
        if not 0 < cap.share <= 1:
            raise PolicyDataError(f"--cap-share: {cap.share!r} must be in (0, 1]")
        if config.iterations <= 0 or not 1 <= cap.fast <= config.iterations:
            raise PolicyDataError(f"--cap-fast: {cap.fast!r} must be 1..the full budget (--search iterations="
                                  f"{config.iterations}); the cap needs an iteration budget")


def arrays(records: list[dict]) -> dict[str, np.ndarray]:
    """The training file from finished games: rows (every legal move of every recorded decision) and per
    decision its first row, size, game id, turn, phase, seat and player count (truncated games left out)."""
    rows = {k: [] for k in ROW_ARRAYS}
    dec = {k: [] for k in ("dec_first", "dec_size", "dec_game", "dec_turn", "dec_phase", "dec_seat",
                           "dec_players")}
    r = 0
    for g in records:
        if g.get("truncated") or not g["decisions"]:
            continue
        for k in ROW_ARRAYS:
            rows[k].append(unpack(g[k]))
        for n, t, ph, s in zip(g["sizes"], g["turn"], g["phase"], g["seat"]):
            for k, v in (("dec_first", r), ("dec_size", n), ("dec_game", g["game_id"]), ("dec_turn", t),
                         ("dec_phase", ph), ("dec_seat", s), ("dec_players", g["players"])):
                dec[k].append(v)
            r += n
    width = core.POLICY_FEATURES
    out = {k: np.concatenate(v) if v else np.zeros((0, width) if k == "feats" else 0, np.float32)
           for k, v in rows.items()}
    out.update({k: np.array(v, np.int64) for k, v in dec.items()})
    return out


def value_arrays(records: list[dict]) -> dict[str, np.ndarray]:
    """The value model's training file (lab.selfplay's format) from the same games' turn starts, with the
    search targets (a record logged before they were, e.g. in a resumed chunk, has no estimate)."""
    kept = [dict(game_id=g["game_id"], board=g["board"], players=g["players"], winner=g["winner"],
                 final=g["final"], turns=g["value_turns"], feats=g["value_feats"],
                 search_win=g.get("value_search_win"), search_vp=g.get("value_search_vp"),
                 search_iters=g.get("value_search_iters"))
            for g in records if not g.get("truncated") and "value_feats" in g]
    return selfplay.arrays(kept) if kept else {}


def target_report(data: dict[str, np.ndarray]) -> dict:
    """The entropy of each kind of target against uniform (policy_targets.entropy_report), over the
    decisions with at least two legal moves."""
    keep = data["dec_size"] >= 2
    first, size = data["dec_first"][keep], data["dec_size"][keep]
    return {k: policy_targets.entropy_report(data[k], first, size) for k in policy_targets.TARGETS}


def save_npz(path: str, data: dict) -> None:
    buf = io.BytesIO()
    np.savez_compressed(buf, **data)
    write_atomic(path, buf.getvalue())


def value_path(out: str) -> str:
    return (out[:-4] if out.endswith(".npz") else out) + ".value.npz"


def generate(search: dict, board, players, games: int, seed: int, out: str, command: str = "",
             cap: PlayoutCap | None = None, first_id: int = 0, value: bool = False, log: str | None = None,
             weights: str | None = None, value_weights: str | None = None, **runner_options) -> dict:
    """Play (or resume) game ids first_id .. first_id + games - 1 and write OUT (npz) and OUT.json (and
    with `value` the value model's file, value_path(OUT)); returns the info written. `board` and `players`:
    one or a list (game_setting). `log`: the games' log (default OUT.games.jsonl). `weights`: a directory
    of policy weights the search's prior uses (lab.prior_weights; default the shipped ones); `value_weights`:
    a directory of value weights its leaf evaluation uses (lab.value_weights; default the shipped ones)."""
    boards, counts = as_list(board), as_list(players)
    check_request(search, boards, counts, games, seed, cap, first_id)
    log = log or out + ".games.jsonl"
    t0 = time.time()
    tasks = [dict(search=search, boards=boards, counts=counts, seed=seed, game_id=i,
                  cap=asdict(cap) if cap else None, value=value, weights=weights, value_weights=value_weights)
             for i in range(first_id, first_id + games)]
    try:
        records, new = _jobs.run_logged(play_task, tasks, record_key, log, **runner_options)
    except _jobs.JobError as e:
        raise PolicyDataError(str(e)) from None
    data = arrays(records)
    save_npz(out, data)
    if value:
        save_npz(value_path(out), value_arrays(records))
    kept = [g for g in records if not g.get("truncated")]
    full, fast = sum(g.get("full", 0) for g in records), sum(g.get("fast", 0) for g in records)
    info = dict(search=search, board=board, players=players, seed=seed, first_id=first_id, games_asked=games,
                games_kept=len(kept), cap=asdict(cap) if cap else None, searched=dict(full=full, fast=fast),
                decisions=int(len(data["dec_first"])), rows=int(len(data["feats"])),
                targets=target_report(data), played_now=new, seconds=round(time.time() - t0, 1),
                cpu_seconds=round(sum(g.get("cpu_seconds", 0) for g in records), 1), log=log,
                value=value_path(out) if value else None, weights=weights, value_weights=value_weights,
                command=command)
    write_atomic(out + ".json", json.dumps(info, indent=2) + "\n")
    return info
