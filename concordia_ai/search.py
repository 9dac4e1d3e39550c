"""ISMCTS configuration and results. The search loop itself runs in the core (cext/search.pxi).

    >>> from concordia_ai.search import SearchConfig, search
    >>> result = search(game, SearchConfig(iterations=5000, seed=1))
    >>> result.best.text, result.best.win, result.best.pv

Root parallelism: with `jobs > 1`, independent searches with different seeds run in threads (the
core releases the GIL) and their root statistics are merged (visits summed, means weighted by visits).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields

from . import core, limits
from .errors import GameError

REWARDS = ("win", "rank", "margin", "mix")
ROLLOUTS = ("random", "greedy")
FINALS = ("visits", "mean")


class SearchConfigError(GameError):
    """A bad search knob; `field` names it (for analyze's error answers and CLI messages)."""

    def __init__(self, field: str, message: str):
        super().__init__(f"search config: {message}")
        self.field = field


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
    rollout: str = "random"       # rollout policy: uniform random, or greedy one-step lookahead
    epsilon: float = 0.2          # greedy rollouts: chance of a random move instead
    rollout_turns: int = 8        # cut-off after this many turns with a static evaluation (0: to the end)
    fpu: float = 0.0              # first-play urgency: expand an untried move only if it beats the best UCB (0: always)
    prior: bool = False           # expand untried moves in the heuristic's order instead of at random
    pw_k: float = 0.0             # progressive widening: at most pw_k * visits^pw_alpha children (0: off)
    pw_alpha: float = 0.5
    jobs: int = 1                 # root parallelism over processes
    seed: int = 0

    def __post_init__(self):
        for f in fields(self):     # types first: a bool is not a number, a float field takes an int
            value, want = getattr(self, f.name), _TYPES[f.name]
            if want is float and isinstance(value, int) and not isinstance(value, bool):
                object.__setattr__(self, f.name, float(value))
            elif not isinstance(value, want) or (want is not bool and isinstance(value, bool)):
                raise SearchConfigError(f.name, f"{f.name}: {value!r} is not {_TYPE_WORDS[want]}")
        for name, bound in _BOUNDS.items():
            value = getattr(self, name)
            if not (value == 0 and name in ("iterations", "seconds")):   # 0: no budget of that kind
                try:
                    bound.check(value, name)
                except limits.LimitError as e:
                    raise SearchConfigError(name, str(e)) from None
        checks = [
            (self.iterations > 0 or self.seconds > 0, "iterations", "give a budget: iterations > 0 or seconds > 0"),
            (self.final in FINALS, "final", f"final must be one of {', '.join(FINALS)}"),
            (self.reward in REWARDS, "reward", f"reward must be one of {', '.join(REWARDS)}"),
            (self.margin_scale > 0, "margin_scale", "margin_scale must be > 0"),
            (self.rollout in ROLLOUTS, "rollout", f"rollout must be one of {', '.join(ROLLOUTS)}"),
            (self.pw_alpha > 0, "pw_alpha", "pw_alpha must be in (0, 1]"),
        ]
        for ok, name, message in checks:
            if not ok:
                raise SearchConfigError(name, message)

    def core_dict(self, seed: int | None = None) -> dict:
        d = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "jobs"}
        if seed is not None:
            d["seed"] = seed
        return d


_TYPES = {"iterations": int, "seconds": float, "c": float, "final": str, "reward": str, "mix": float,
          "margin_scale": float, "rollout": str, "epsilon": float, "rollout_turns": int, "fpu": float,
          "prior": bool, "pw_k": float, "pw_alpha": float, "jobs": int, "seed": int}
_TYPE_WORDS = {int: "an integer", float: "a number", str: "a string", bool: "true or false"}
_BOUNDS = {
    "iterations": limits.ITERATIONS, "seconds": limits.SECONDS, "rollout_turns": limits.ROLLOUT_TURNS,
    "jobs": limits.SEARCH_JOBS, "seed": limits.SEED,
    "c": limits.Bound("the exploration constant", 0, 100, integer=False),
    "mix": limits.Bound("a weight", 0, 1, integer=False),
    "margin_scale": limits.Bound("a VP margin scale", 0, 1000, integer=False),
    "epsilon": limits.Bound("a probability", 0, 1, integer=False),
    "fpu": limits.Bound("first-play urgency", 0, 1, integer=False),
    "pw_k": limits.Bound("the widening factor", 0, 1e6, integer=False),
    "pw_alpha": limits.Bound("the widening exponent", 0, 1, integer=False),
}


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


def search(game, config: SearchConfig | None = None, stop: "core.StopToken | None" = None) -> SearchResult:
    """ISMCTS for whoever decides now in `game`; the game itself is not changed.

    With jobs > 1, that many independent searches run in threads (the core releases the GIL and
    counts each thread's own CPU time against `seconds`) and are merged at the root. `stop`
    (a core.StopToken) lets another thread end the search early; the statistics so far are returned."""
    config = config or SearchConfig()
    if game.decider is None or game.decider < 0:
        raise GameError("no player decides now (the game is over, or a card must be revealed)")
    if config.jobs == 1:
        raws = [core.search(game.state, config.core_dict(), stop)]
    else:
        from concurrent.futures import ThreadPoolExecutor
        seeds = [config.seed * 1000003 + j for j in range(config.jobs)]
        with ThreadPoolExecutor(max_workers=config.jobs, thread_name_prefix="search") as pool:
            raws = list(pool.map(lambda s: core.search(game.state.copy(), config.core_dict(s), stop), seeds))
    return _merge(game, raws, config)


def _merge(game, raws: list[dict], config: SearchConfig) -> SearchResult:
    merged: dict[int, dict] = {}
    for raw in raws:
        for ch in raw["children"]:
            m = merged.setdefault(ch["action"], dict(visits=0, mean=0.0, win=0.0, vp=0.0, margin=0.0, pv=[], pv_v=-1))
            v = ch["visits"]
            for key in ("mean", "win", "vp", "margin"):
                m[key] += ch[key] * v
            m["visits"] += v
            if v > m["pv_v"]:
                m["pv"], m["pv_v"] = ch["pv"], v
    candidates = []
    for action, m in merged.items():
        v = max(1, m["visits"])
        candidates.append(Candidate(action, game.text(action), m["visits"], m["mean"] / v, m["win"] / v,
                                    m["vp"] / v, m["margin"] / v, pv_texts(game, m["pv"])))
    if config.final == "mean":
        candidates.sort(key=lambda c: (c.mean, c.visits), reverse=True)
    else:
        candidates.sort(key=lambda c: (c.visits, c.mean), reverse=True)
    return SearchResult(game.decider, candidates, sum(r["iterations"] for r in raws),
                        sum(r["nodes"] for r in raws), sum(r["bytes"] for r in raws),
                        max(r["seconds"] for r in raws), config)


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
