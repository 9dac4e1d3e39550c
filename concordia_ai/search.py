"""ISMCTS configuration and results. The search loop itself runs in the core (cext/search.pxi).

    >>> from concordia_ai.search import SearchConfig, search
    >>> result = search(game, SearchConfig(iterations=5000, seed=1))
    >>> result.best.text, result.best.win, result.best.pv

Root parallelism: with `jobs > 1`, independent searches with different seeds run in worker processes
(joblib) and their root statistics are merged (visits summed, means weighted by visits).
"""
from __future__ import annotations

import math
import os
from dataclasses import asdict, dataclass, field, fields

from . import core
from .errors import GameError
from .workers import call_in_worker

REWARDS = ("win", "rank", "margin", "mix")
ROLLOUTS = ("random", "greedy", "none")
FINALS = ("visits", "mean")
EVALS = ("hand", "net")
CHANCES = ("branch", "merge")


@dataclass(frozen=True)
class SearchConfig:
    """Every knob strategy research sweeps. Defaults are the measured ones (results/strength.md)."""
    iterations: int = 5000        # budget in iterations (0: use `seconds` only)
    seconds: float = 0.0          # budget in CPU seconds per search (0: use `iterations` only)
    c: float = 0.7                # UCB exploration constant (rewards are in [0, 1])
    final: str = "visits"         # final choice: most visited child, or best mean reward
    reward: str = "mix"           # win, rank, margin (normalised VP margin over the best opponent) or mix
    mix: float = 0.5              # weight of the win in the 'mix' reward
    margin_scale: float = 20.0    # VP margin that maps to a reward of 0 or 1
    rollout: str = "random"       # rollout policy: uniform random, greedy one-step lookahead, or none (judge the leaf)
    epsilon: float = 0.2          # greedy rollouts: chance of a random move instead
    rollout_turns: int = 8        # cut-off after this many turns with a static evaluation (0: to the end)
    fpu: float = 0.0              # first-play urgency: expand an untried move only if it beats the best UCB (0: always)
    prior: bool = False           # expand untried moves in the heuristic's order instead of at random
    pw_k: float = 0.0             # progressive widening: at most pw_k * visits^pw_alpha children (0: off)
    pw_alpha: float = 0.5
    eval: str = "hand"            # leaf evaluation: the value model ("net") or the hand-set formula ("hand")
    chance: str = "branch"        # revealed cards: a child per outcome ("branch") or one shared child ("merge")
    root_floor: float = 0.0       # root children get at least this share of an even split of the visits
    jobs: int = 1                 # root parallelism over processes
    seed: int = 0

    def __post_init__(self):
        checks = [
            (self.iterations >= 0, "iterations must be >= 0"),
            (self.seconds >= 0, "seconds must be >= 0"),
            (self.iterations > 0 or self.seconds > 0, "give a budget: iterations > 0 or seconds > 0"),
            (self.c >= 0, "c must be >= 0"),
            (self.final in FINALS, f"final must be one of {', '.join(FINALS)}"),
            (self.reward in REWARDS, f"reward must be one of {', '.join(REWARDS)}"),
            (0 <= self.mix <= 1, "mix must be in 0..1"),
            (self.margin_scale > 0, "margin_scale must be > 0"),
            (self.rollout in ROLLOUTS, f"rollout must be one of {', '.join(ROLLOUTS)}"),
            (0 <= self.epsilon <= 1, "epsilon must be in 0..1"),
            (self.rollout_turns >= 0, "rollout_turns must be >= 0"),
            (0 <= self.fpu <= 1, "fpu must be in 0..1"),
            (self.pw_k >= 0 and 0 < self.pw_alpha <= 1, "pw_k must be >= 0 and pw_alpha in (0, 1]"),
            (self.eval in EVALS, f"eval must be one of {', '.join(EVALS)}"),
            (self.chance in CHANCES, f"chance must be one of {', '.join(CHANCES)}"),
            (0 <= self.root_floor <= 1, "root_floor must be in 0..1"),
            (self.jobs >= 1, "jobs must be >= 1"),
            (0 <= self.seed < 2 ** 63, "seed must be in 0..2^63-1"),
        ]
        for ok, message in checks:
            if not ok:
                raise GameError(f"search config: {message}")

    def core_dict(self, seed: int | None = None) -> dict:
        d = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "jobs"}
        if seed is not None:
            d["seed"] = seed
        return d


@dataclass
class Candidate:
    move: int
    text: str
    visits: int
    mean: float              # mean reward of the deciding player through this move
    win: float               # fraction of iterations in which the deciding player came first
    vp: float                # expected final VP of the deciding player (estimated at cut-offs)
    margin: float            # expected VP margin over the best opponent
    pv: list[str] = field(default_factory=list)
    win_se: float = 0.0      # standard error of `win` (from the spread of the values backed up)
    vp_se: float = 0.0       # standard error of `vp`


@dataclass
class SearchResult:
    player: int
    candidates: list[Candidate]
    iterations: int
    nodes: int
    bytes: int
    seconds: float
    config: SearchConfig

    @property
    def best(self) -> Candidate:
        return self.candidates[0]

    def to_dict(self) -> dict:
        d = asdict(self)
        d["config"] = asdict(self.config)
        return d


def _run(state: core.CoreState, config: dict) -> dict:
    if config.get("eval") == "net":
        from . import value
        value.ensure_loaded()       # worker processes load the weights once
    return core.search(state, config)


def search(game, config: SearchConfig | None = None) -> SearchResult:
    """ISMCTS for whoever decides now in `game`; the game itself is not changed."""
    config = config or SearchConfig()
    if game.decider is None or game.decider < 0:
        raise GameError("no player decides now (the game is over, or a card must be revealed)")
    if config.jobs == 1:
        raws = [_run(game.state, config.core_dict())]
    else:
        from joblib import Parallel, delayed
        seeds = [config.seed * 1000003 + j for j in range(config.jobs)]
        # workers end with this process (a killed `analyze` or `hint` leaves no searching workers)
        raws = Parallel(n_jobs=config.jobs)(
            delayed(call_in_worker)(os.getpid(), _run, game.state.copy(), config.core_dict(s)) for s in seeds)
    return _merge(game, raws, config)


def best_move(game, config: SearchConfig) -> int:
    """The move a search bot plays: the search's choice, without the notation and principal variations
    that `search` builds for people (the bots' hot path)."""
    if config.jobs > 1:
        return search(game, config).best.move
    children = _run(game.state, config.core_dict())["children"]
    return children[0]["action"]


def _merge(game, raws: list[dict], config: SearchConfig) -> SearchResult:
    merged: dict[int, dict] = {}
    for raw in raws:
        for ch in raw["children"]:
            m = merged.setdefault(ch["action"], dict(visits=0, mean=0.0, win=0.0, vp=0.0, margin=0.0, win2=0.0,
                                                     vp2=0.0, pv=[], pv_v=-1))
            v = ch["visits"]
            for key in ("mean", "win", "vp", "margin", "win2", "vp2"):
                m[key] += ch[key] * v
            m["visits"] += v
            if v > m["pv_v"]:
                m["pv"], m["pv_v"] = ch["pv"], v
    candidates = []
    for action, m in merged.items():
        v = max(1, m["visits"])
        win, vp = m["win"] / v, m["vp"] / v
        candidates.append(Candidate(action, game.text(action), m["visits"], m["mean"] / v, win, vp,
                                    m["margin"] / v, pv_texts(game, m["pv"]),
                                    standard_error(m["win2"] / v, win, v), standard_error(m["vp2"] / v, vp, v)))
    if config.final == "mean":
        candidates.sort(key=lambda c: (c.mean, c.visits), reverse=True)
    else:
        candidates.sort(key=lambda c: (c.visits, c.mean), reverse=True)
    return SearchResult(game.decider, candidates, sum(r["iterations"] for r in raws),
                        sum(r["nodes"] for r in raws), sum(r["bytes"] for r in raws),
                        max(r["seconds"] for r in raws), config)


def standard_error(mean_square: float, mean: float, n: int) -> float:
    """The standard error of a mean of n values from their mean and mean square. The values backed up
    through one node are correlated (they share the tree above), so this is a lower bound on the true
    uncertainty of the estimate; it says how much the sampling alone moves it."""
    if n < 2:
        return float("inf")
    return math.sqrt(max(0.0, mean_square - mean * mean) / (n - 1))


def pv_texts(game, actions: list[int]) -> list[str]:
    """A principal variation in notation; cards revealed on the way appear as `reveal` moves."""
    g = game.clone()
    g.state.set_chance(False, True)
    out = []
    for a in actions:
        if not g.state.is_legal(a):
            break
        out.append(g.text(a))
        g.state.apply(a)
    return out
