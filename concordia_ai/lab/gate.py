"""The gate of a learning-loop generation: the candidate (a search with the new prior) against the
incumbent in seat-rotated games, stopped by a sequential probability ratio test as soon as it is decided.

    >>> bots = dict(candidate=Side(dict(policy=0.3), "results/loop/gen-1/weights"), incumbent=Side({}, None))
    >>> Side(dict(policy=0.3), "gen-1/weights", value_weights="gen-1/value-weights")   # its own value model too
    >>> result = run_stage("fixed", bots, dict(iterations=400), "italia", 3, seed_start=51000,
    ...                    test=Sprt.against_fair_share(3, delta=0.1), max_games=120, log="gate-fixed.jsonl")

Games: for every deal seed the candidate plays once in every seat, the other seats held by the incumbent
(as scripts/strength.py, with its bot seeds: a seed per deal and seat). A stage gives both sides the same
budget (`budget`: iterations=I for the stage at fixed iterations, iterations=0,seconds=S at equal time),
which overrides their own. Each game is a line of the stage's log (resumable, lab.jobs), with the match it
belongs to (`setup`: the budget, both sides and what their knobs stand for, side_meaning); a log of another
match is refused (check_log).

Each side searches with its own policy weights (lab.prior_weights) and its own value weights (lab.value_weights,
when its search evaluates with the value model: eval "net", or "auto" with 3-5 players); a side without value
weights of its own searches with the shipped ones, never with the other side's.

The test (Sprt): H0 the candidate wins its fair share p0 = 1/players, H1 it wins p1 = p0 + delta. The games
are read in their fixed order (deal, then seat), whatever order the workers finish them in, and the test
stops at the first game where the log-likelihood ratio leaves (ln(beta / (1 - alpha)), ln((1 - beta) /
alpha)): "better" above, "worse" below. Games played past that point (the rest of a batch) are logged but not
counted. At max_games undecided: "undecided".
"""
from __future__ import annotations

import math
import os
import time
import zlib
from dataclasses import dataclass, field

from ..ai import outcome, policy
from ..ai.bots import Bot, meaning_changes, play_game
from ..ai.search import SearchConfig, best_move, effective_c_puct_log, effective_eval
from ..engine.errors import ConcordiaError
from ..io.jsonl import read_records
from . import jobs as _jobs
from . import prior_weights, value_weights
from .ratings import wilson

KEY = ("stage", "board", "players", "seed", "cand_seat")


@dataclass(frozen=True)
class Sprt:
    p0: float
    p1: float
    alpha: float = 0.05
    beta: float = 0.05

    @classmethod
    def against_fair_share(cls, players: int, delta: float = 0.1, alpha: float = 0.05,
                           beta: float = 0.05) -> "Sprt":
        p0 = 1.0 / players
        return cls(p0, min(p0 + delta, 0.99), alpha, beta)

    def bounds(self) -> tuple[float, float]:
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def step(self, win: int) -> float:
        """One game's addition to the log-likelihood ratio of H1 against H0."""
        return math.log(self.p1 / self.p0) if win else math.log((1 - self.p1) / (1 - self.p0))

    def run(self, wins: list[int], max_games: int) -> dict:
        """The test over the games in order: where it stopped and what it decided ("better", "worse",
        "continue" while fewer than max_games are in and it is undecided, "undecided" at max_games)."""
        lower, upper = self.bounds()
        llr, counted, won = 0.0, 0, 0
        decision = None
        for w in wins[:max_games]:
            llr += self.step(w)
            counted += 1
            won += w
            if llr >= upper:
                decision = "better"
                break
            if llr <= lower:
                decision = "worse"
                break
        if decision is None:
            decision = "undecided" if counted >= max_games else "continue"
        return dict(decision=decision, games=counted, wins=won, llr=round(llr, 4),
                    bounds=[round(lower, 4), round(upper, 4)], p0=self.p0, p1=self.p1, alpha=self.alpha,
                    beta=self.beta)


@dataclass(frozen=True)
class Side:
    """One side of the gate: its search knobs, the directory of its policy weights (None: the shipped
    weights, if its search asks for a prior at all: the default search does) and the directory of its value
    weights (None: the shipped ones, if its search evaluates with the value model)."""
    search: dict = field(default_factory=dict)
    weights: str | None = None
    value_weights: str | None = None
    budget: dict | None = None      # its own budget over the stage's (None: the stage's; e.g. four times the time)

    def as_task(self) -> dict:
        task = dict(search=self.search, weights=self.weights, value_weights=self.value_weights)
        if self.budget:
            task["budget"] = self.budget   # only when set, so that the logs of equal budgets read as before
        return task


class GateBot(Bot):
    """A search bot that puts its own policy and value weights into the core before each search."""
    kind = "ismcts"

    def __init__(self, seed: int, search: dict, weights: str | None, value_weights: str | None = None):
        super().__init__(seed)
        self.search, self.weights, self.value_weights = search, weights, value_weights

    def choose(self, game) -> int:
        legal = game.legal_moves()
        if len(legal) == 1:
            return legal[0]
        config = SearchConfig(**self.search, seed=self.next_seed())
        # never the other side's prior: a side without weights of its own searches with the shipped ones
        prior_weights.hold(self.weights or (str(policy.DATA_DIR) if config.reads_prior else None))
        if effective_eval(config.eval, game.n_players) == "net":
            value_weights.hold(self.value_weights)      # None: the shipped set, likewise
        return best_move(game, config)


def bot_seed(board: str, seed: int, cand_seat: int, seat: int) -> int:
    """scripts/strength.py's seed per bot: it depends only on the deal and the seat."""
    return zlib.crc32(f"{board}/{seed}/{cand_seat}/{seat}".encode()) * 7919 + seed


def stage_search(side: dict, budget: dict) -> dict:
    """A side's knobs with the stage's budget over its own, and the side's own budget (Side.budget) over that."""
    return {**side["search"], **budget, **(side.get("budget") or {})}


def play_gate_game(task: dict) -> dict:
    """One gate game (task: stage, board, players, seed, cand_seat, candidate, incumbent, budget)."""
    players, seat = task["players"], task["cand_seat"]
    sides = [task["candidate"] if i == seat else task["incumbent"] for i in range(players)]
    bots = [GateBot(bot_seed(task["board"], task["seed"], seat, i), stage_search(s, task["budget"]), s["weights"],
                    s.get("value_weights"))
            for i, s in enumerate(sides)]
    choices = [0] * players

    class Count:
        def before(self, state):
            choices[state.decider] += len(state.legal_actions()) > 1

    played = play_game(bots, task["board"], task["seed"], watch=Count(), clock=time.process_time)
    game = played.game
    totals = [s["total"] for s in game.scores()]
    rank = game.ranking().index(seat) + 1
    others = [i for i in range(players) if i != seat]
    return dict({k: task[k] for k in KEY}, setup=setup(task), win=int(rank == 1), rank=rank, vp=totals[seat],
                margin=totals[seat] - max(totals[i] for i in others), totals=totals, truncated=played.truncated,
                cand_seconds=played.think[seat], cand_choices=choices[seat],
                inc_seconds=sum(played.think[i] for i in others), inc_choices=sum(choices[i] for i in others),
                moves=played.moves)


class GateLogError(ConcordiaError):
    """A gate log that holds games of another match (other sides or budget) than the one asked for."""


def side_meaning(side: dict, budget: dict, players: int) -> dict:
    """What a side's knobs stand for in this match with today's code and weights: eval and c_puct_log as
    "auto" resolves with `players` players, and the sha256 of the shipped weights it reads (a side with weights
    of its own names their directory in its knobs). The knobs alone do not say it: eval auto meant the hand
    formula with 2 players until 2026-12-04 (8th session), the value model since."""
    config = SearchConfig(**stage_search(side, budget))
    out = dict(eval=effective_eval(config.eval, players), c_puct_log=effective_c_puct_log(config.c_puct_log, players))
    if out["eval"] == "net" and side.get("value_weights") is None:
        out["value_sha256"] = outcome.current_sha("value", config.value_weights)
    if config.reads_prior and side.get("weights") is None:
        out["policy_sha256"] = outcome.current_sha("policy", config.policy_weights)
    return out


def setup(task: dict) -> dict:
    """What a game's result depends on besides its key: the budget, both sides (knobs, weights, own budget) and
    what their knobs stand for (side_meaning)."""
    meaning = {s: side_meaning(task[s], task["budget"], task["players"]) for s in ("candidate", "incumbent")}
    return dict(budget=task["budget"], candidate=task["candidate"], incumbent=task["incumbent"], meaning=meaning)


def check_log(log: str | None, tasks: list[dict]) -> None:
    """Refuse to resume a log whose games were played by another match: its records would be counted as this
    one's. Records written before games kept their `setup` cannot be checked and are taken as they are; those
    written before the setup kept its `meaning` are checked on the rest."""
    if log is None or not tasks or not os.path.exists(log):
        return
    want = setup(tasks[0])
    for rec in read_records(log, repair=True, error=GateLogError):
        had = rec.get("setup")
        if had is None:
            continue
        mine = want if "meaning" in had else {k: v for k, v in want.items() if k != "meaning"}
        if had == mine:
            continue
        parts = [", ".join(sorted(k for k in mine if k != "meaning" and had.get(k) != mine[k]))]
        if "meaning" in mine and had["meaning"] != mine["meaning"]:
            for s in ("candidate", "incumbent"):
                changes = meaning_changes(had["meaning"].get(s, {}), mine["meaning"][s])
                if changes:
                    parts.append(f"what the {s} stands for: {', '.join(changes)}")
        raise GateLogError(f"the log {log} holds games of another match (they differ in "
                           f"{'; '.join(p for p in parts if p)}); give another --log, or the same sides and budget "
                           f"to resume it")


def key(r: dict) -> tuple:
    return tuple(r[k] for k in KEY)


def stage_tasks(stage: str, sides: dict, budget: dict, board: str, players: int, seed_start: int,
                max_games: int) -> list[dict]:
    deals = -(-max_games // players)
    tasks = [dict(stage=stage, board=board, players=players, seed=s, cand_seat=seat, budget=budget,
                  candidate=sides["candidate"].as_task(), incumbent=sides["incumbent"].as_task())
             for s in range(seed_start, seed_start + deals) for seat in range(players)]
    return tasks[:max_games]


def summarize(records: list[dict], players: int) -> dict:
    n = len(records)
    wins = sum(r["win"] for r in records)
    lo, hi = wilson(wins, n)
    cand_choices = sum(r["cand_choices"] for r in records)
    inc_choices = sum(r["inc_choices"] for r in records)
    return dict(games=n, wins=wins, win_rate=round(wins / n, 4) if n else 0.0, ci95=[round(lo, 4), round(hi, 4)],
                fair_share=round(1 / players, 4),
                mean_margin=round(sum(r["margin"] for r in records) / n, 2) if n else 0.0,
                cand_ms_per_move=round(1000 * sum(r["cand_seconds"] for r in records) / max(1, cand_choices), 2),
                inc_ms_per_move=round(1000 * sum(r["inc_seconds"] for r in records) / max(1, inc_choices), 2))


def run_stage(stage: str, sides: dict, budget: dict, board: str, players: int, seed_start: int, test: Sprt,
              max_games: int, log: str | None, batch: int | None = None, on_batch=None, stop: bool = True,
              **runner_options) -> dict:
    """Play the stage's games in batches (default: a deal's seat rotation per worker) until the test is
    decided or max_games are in; returns the test's answer and the counted games' summary. on_batch(result)
    is called after every batch (the loop rewrites its page there). stop=False plays all max_games (a
    match of fixed size, to confirm what a sequential screen decided): the summary then counts every game,
    and the test's answer is where it stood on them."""
    tasks = stage_tasks(stage, sides, budget, board, players, seed_start, max_games)
    check_log(log, tasks)
    batch = batch or players * max(1, runner_options.get("jobs", 1))
    upto = 0
    while True:
        upto = min(len(tasks), upto + batch)
        records, _ = _jobs.run_logged(play_gate_game, tasks[:upto], key, log, **runner_options)
        result = test.run([r["win"] for r in records], max_games)
        counted = records[:result["games"]] if stop else records
        if not stop:
            result["sprt_games"] = result["games"]      # where the test stood, before every game is counted
            if upto < len(tasks):
                result["decision"] = "continue"
        result.update(summarize(counted, players), played=len(records), stage=stage,
                      budget=budget, board=board, players=players, seeds=[seed_start, tasks[upto - 1]["seed"]])
        if on_batch is not None:
            on_batch(result)
        if result["decision"] != "continue" or upto >= len(tasks):
            if result["decision"] == "continue":
                result["decision"] = "undecided"
            return result
