"""ISMCTS configuration and results. The search loop itself runs in the core (cext/ismcts.pxi; its Python
face: cext/search_face.pxi).

    >>> from concordia_ai.ai.search import SearchConfig, search
    >>> result = search(game, SearchConfig(iterations=5000, seed=1))
    >>> result.best.text, result.best.win, result.best.pv

Root parallelism: with `jobs > 1`, independent searches with different seeds run in threads (the
core releases the GIL) and their root statistics are merged (visits summed, means weighted by visits).
Whole turns: `result.turns` ranks the deciding player's whole turns (the card, every step, `done`), read
from the tree by the core (collect_turns in cext/turns.pxi). Turns that reach the same position (the
same builds in another order) are one candidate; root-parallel and sliced searches merge turns by that
position too. See TurnCandidate.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, fields, replace

from .. import core
from . import outcome
from ..engine import limits
from ..engine.errors import GameError

REWARDS = ("win", "rank", "margin", "mix")
ROLLOUTS = ("random", "greedy", "none", "policy")
FINALS = ("visits", "mean")
EVALS = ("auto", "hand", "net")
CHANCES = ("branch", "merge")
SELECTS = ("ucb", "puct")
OPPONENTS = ("tree", "random", "greedy", "policy", "oma")
TURNS_KEPT = 32          # whole turns read from each search tree (the most visited)
TABLE_FOCUS = 0.25       # hint, review, play --suggested and analyze: the last quarter of the budget makes the
                         # final choice over whole turns (SearchConfig.focus); the bots' measured default is 0
# The settings a hint, a review, play --suggested and analyze search with unless told otherwise: the final
# choice over whole turns, on the search the final-result model (ai/outcome.py) was fitted on. That is the bots'
# PUCT with the learned prior, with a weight that grows with the visits (c_puct_log 0.45 with every player
# count; the bots' "auto" has 0 with 2 players): with a constant c_puct a 3 s search settles early and seeds
# disagree (20 of 52 positions stable against 33 with the growing weight, results/stability-puct/README.md),
# and it won 48 of 60 2-player and 42 of 60 3-player games against the UCB hint of before at 0.1 s
# (results/strength/hint-search/README.md). The model file records the search it was fitted on, and a search
# on other knobs or weights says so (outcome.search_note).
# Since generation 5 became the bots' default (2026-12-05, 13th session) the hint keeps the weights and the 8 random
# turns of before (the package's kept set before-gen5): the final-result model refitted on generation 5's search
# (results/outcome/gen5/) shows the win % as well calibrated, but the margin less so (its worst decile 3.96 VP over
# all counts against 2.53, target 3; 11.1 with 3 players) and the opening 14 of 16 against 16, so the hint moves
# when those are met; until then every figure it shows keeps its measured calibration.
TABLE_C_PUCT_LOG = 0.45
TABLE_SEARCH = dict(focus=TABLE_FOCUS, select="puct", policy=1.0, c_puct=0.25, c_puct_log=TABLE_C_PUCT_LOG,
                    rollout_turns=8, value_weights="before-gen5", policy_weights="before-gen5")
# c_puct_log "auto" (the bots' default): the growing weight with 3-5 players, a constant c_puct with 2. Measured
# against the UCB default at 30 ms (results/puct/README.md, "The growing weight confirmed"): 0.45 won 49.0 % of
# 200 4-player Imperium games (constant: 38.0 %) and 73.6 % of 201 3-player Italia games (61.7 %), but 77.5 %
# of 200 2-player Italia games, where the constant won 86.0 % (measured when the 2-player leaf was the hand formula).
AUTO_C_PUCT_LOG = {2: 0.0, 3: 0.45, 4: 0.45, 5: 0.45}
# eval "auto": the value model with every player count. With 3-5 players it has been the stronger leaf since
# results/judgement.md (section 7). With 2 it was the hand formula until 2026-12-04 (8th session), when the
# warm-started value model (results/value-warm/) beat it at 30 ms: results/net-2p/README.md. A record made before
# names its meaning in `auto_eval` or, without one, meant outcome._AUTO_EVAL_BEFORE.
AUTO_EVAL = {2: "net", 3: "net", 4: "net", 5: "net"}
UCB_DEFAULT = "ismcts:select=ucb,policy=0"   # the bots' default before 2026-12-04 (2nd session), as a bot spec;
UCB_DEFAULT_2P = UCB_DEFAULT + ",eval=hand"  # with 2 players it evaluated with the hand formula (eval auto then)
# The bots' default until generation 5 of the learning loop was installed (2026-12-05, 13th session): 8 random
# turns after the tree, the loop's generation-1 prior and the warm-started value model, both kept in the package
# (weight_slots.SETS). Generation 5 won 88 of 200 4-player Imperium games against three copies of it at 30 ms
# (44.0 %, fair share 25 %; results/gen5-default/README.md).
BEFORE_GEN5 = "ismcts:rollout_turns=8,value_weights=before-gen5,policy_weights=before-gen5"
SETTLED = 0.01           # a win % at most this far from 0 or 1: the winner is settled, turns rank by VP


class SearchConfigError(GameError):
    """A bad search knob; `field` names it (for analyze's error answers and CLI messages)."""

    def __init__(self, field: str, message: str):
        super().__init__(f"search config: {message}")
        self.field = field


@dataclass(frozen=True)
class SearchConfig:
    """Every knob strategy research sweeps. Defaults are the measured ones: PUCT with the learned prior at
    c_puct 0.25 and, with 3-5 players, a weight that grows with the visits (results/puct/README.md: it beat the
    UCB default, UCB_DEFAULT, at equal time), the value model with 3-5 players (results/judgement.md; before
    it, `eval="hand", root_floor=0`: results/strength.md). Two knobs may be "auto", resolved per player count
    when the search runs: `eval` (effective_eval) and `c_puct_log` (effective_c_puct_log)."""
    iterations: int = 5000        # budget in iterations (0: use `seconds` only)
    seconds: float = 0.0          # budget in CPU seconds per search (0: use `iterations` only)
    c: float = 0.7                # UCB exploration constant (rewards are in [0, 1])
    final: str = "visits"         # final choice: most visited child, or best mean reward
    reward: str = "mix"           # win, rank, margin (normalised VP margin over the best opponent) or mix
    mix: float = 0.5              # weight of the win in the 'mix' reward
    margin_scale: float = 20.0    # VP margin that maps to a reward of 0 or 1
    rollout: str = "random"       # rollout policy: uniform random, greedy one-step lookahead, none (judge the leaf),
                                  # or policy (moves drawn from the learned prior: ai/policy.py)
    epsilon: float = 0.2          # greedy rollouts: chance of a random move instead
    rollout_turns: int = 4        # cut-off after this many turns with a static evaluation (0: to the end); 4 since
                                  # generation 5 (its value model stands after fewer random turns; 8 before)
    fpu: float = 0.0              # first-play urgency: expand an untried move only if it beats the best UCB (0: always)
    prior: bool = False           # expand untried moves in the heuristic's order instead of at random
    pw_k: float = 0.0             # progressive widening: at most pw_k * visits^pw_alpha children (0: off)
    pw_alpha: float = 0.5
    eval: str = "auto"            # leaf evaluation: the value model ("net"), the hand-set formula ("hand"), or
                                  # "auto": AUTO_EVAL by player count (net with 2-5 players; see effective_eval)
    chance: str = "branch"        # revealed cards: a child per outcome ("branch") or one shared child ("merge")
    root_floor: float = 0.2       # root children get at least this share of an even split of the visits
    focus: float = 0.0            # share of the budget for the final choice over whole turns: sequential halving
                                  # among the `focus_turns` most visited ones (0: the most visited root move)
    focus_turns: int = 8
    policy: float = 1.0           # the learned prior (ai/policy.py): with puct, on when > 0 (its size unused);
                                  # with ucb, the weight of a PUCT term beside UCB and an expansion order (0: off)
    select: str = "puct"          # selection: "ucb" (every legal child tried first, then UCB: UCB_DEFAULT) or "puct"
                                  # (prior per node, PUCT with first-play urgency: a low-prior move may never be
                                  # tried); puct's prior: the learned one with policy > 0, else the heuristic's with
                                  # prior = true, else uniform; puct does not use c, fpu, pw_k, pw_alpha
    c_puct: float = 0.25          # puct: weight of the prior term c_puct * P * sqrt(avail) / (1 + visits); 0.25
                                  # screened best of 0.1-2 at 30 ms (results/puct/README.md)
    c_puct_log: float | str = "auto"   # puct: c_puct grows by this * ln((N + c_puct_base) / c_puct_base), N
    c_puct_base: float = 500.0    # the node's visits, so a longer search explores more (AlphaZero, KataGo); 0:
                                  # constant c_puct; "auto": AUTO_C_PUCT_LOG by player count (0.45 with 3-5, 0 with 2)
    fpu_reduction: float = 0.2    # puct: an unvisited child is worth its parent's mean for the mover less this
    fpu_scaled: bool = True       # puct: ... times sqrt(the visited children's summed prior) (Leela Zero, KataGo)
    prior_temp: float = 1.0       # puct with prior = true: the heuristic's prior is softmax(greedy value / this), VP
    leaf_mix: float = 0.0         # weight of the evaluation at the leaf itself in each estimate, the rest from after
                                  # the rollout (AlphaGo's mixing, with the leaf evaluation `eval`); 0: the rollout's
    minimax_mix: float = 0.0      # weight of the implicit minimax value in a child's Q (Lanctot et al. 2014): each
                                  # node keeps the evaluation of its state made at its first visit, backed up max^n
                                  # (each seat's best child for it); Q = (1 - w) * mean reward + w * that. 0: off
    opponents: str = "tree"       # the other seats' moves: tree nodes ("tree", max^n), or played outside the tree
                                  # by "random", "greedy" (with epsilon) or "policy" (the learned prior), so that the
                                  # tree holds only the searching seat's decisions, over several of its turns; or
                                  # "oma": tree nodes chosen by each seat's own statistics, every move of another
                                  # seat leading to one shared node (opponent move abstraction; needs puct)
    value_weights: str = ""       # a directory of value weights (train_value.py train --out) the search evaluates
                                  # with instead of the shipped set (""), held in a slot of its own (weight_slots);
                                  # or the name of a set the package keeps (weight_slots.SETS: "before-gen5")
    policy_weights: str = ""      # ... and of policy weights (train_policy.py --out) for its prior
    jobs: int = 1                 # root parallelism: independent searches in threads, merged
    seed: int = 0

    def __post_init__(self):
        for f in fields(self):     # types first: a bool is not a number, a float field takes an int
            value, want = getattr(self, f.name), _TYPES[f.name]
            if f.name in _AUTO_KNOBS and value == "auto":
                continue
            if want is float and isinstance(value, int) and not isinstance(value, bool):
                object.__setattr__(self, f.name, float(value))
            elif not isinstance(value, want) or (want is not bool and isinstance(value, bool)):
                words = _TYPE_WORDS[want] + (" or auto" if f.name in _AUTO_KNOBS else "")
                raise SearchConfigError(f.name, f"{f.name}: {value!r} is not {words}")
        for name, bound in _BOUNDS.items():
            value = getattr(self, name)
            if not (value == 0 and name in ("iterations", "seconds")) and value != "auto":   # 0: no budget of that kind
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
            (self.eval in EVALS, "eval", f"eval must be one of {', '.join(EVALS)}"),
            (self.chance in CHANCES, "chance", f"chance must be one of {', '.join(CHANCES)}"),
            (0 <= self.root_floor <= 1, "root_floor", "root_floor must be in 0..1"),
            (self.select in SELECTS, "select", f"select must be one of {', '.join(SELECTS)}"),
            (self.opponents in OPPONENTS, "opponents", f"opponents must be one of {', '.join(OPPONENTS)}"),
            (self.opponents != "oma" or (self.select == "puct" and self.minimax_mix == 0), "opponents",
             "opponents=oma needs select=puct and minimax_mix=0"),
        ]
        for ok, name, message in checks:
            if not ok:
                raise SearchConfigError(name, message)

    @property
    def reads_prior(self) -> bool:
        """Does this search read the learned policy prior (in the tree, as its rollout policy or the others')?"""
        return self.policy > 0 or self.rollout == "policy" or self.opponents == "policy"

    def core_dict(self, seed: int | None = None, *, players: int) -> dict:
        """The settings as the core takes them, every key (the core has no defaults of its own:
        core.SEARCH_KEYS). `eval="auto"` is resolved for a game of `players` players (the core knows only
        hand and net), and when it resolves to net the value model is loaded here, so a search never
        depends on what ran before it in the process. Named weight directories become the core's slots
        (value_slot, policy_slot; weight_slots.slot_for), loaded here at their first use. `jobs` stays in
        Python (threads of searches)."""
        d = {f.name: getattr(self, f.name) for f in fields(self)
             if f.name not in ("jobs", "value_weights", "policy_weights")}
        if seed is not None:
            d["seed"] = seed
        d["eval"] = effective_eval(self.eval, players)
        d["c_puct_log"] = effective_c_puct_log(self.c_puct_log, players)
        d["value_slot"] = d["policy_slot"] = 0
        if d["eval"] == "net":
            from . import value, weight_slots       # numpy: only when the model is used
            if self.value_weights:
                d["value_slot"] = weight_slots.slot_for("value", self.value_weights)
            else:
                value.ensure_loaded()
        if self.reads_prior:
            from . import policy, weight_slots      # asked for: loaded, or a clear error (never a silent fallback)
            if self.policy_weights:
                d["policy_slot"] = weight_slots.slot_for("policy", self.policy_weights)
            else:
                policy.require(players)
        return d


# One line per knob for the people who set them (`concordia bots`, its --json): what it does, in a player's and a
# bot developer's words. The comments beside the fields above say why a default is what it is.
SEARCH_HELP = {
    "iterations": "budget in iterations (0: the time budget alone)",
    "seconds": "budget in CPU seconds per search (0: the iteration budget alone)",
    "c": "UCB exploration constant (select=ucb)",
    "final": "final choice: visits (the most visited) or mean (the best mean reward)",
    "reward": "what a seat maximises: win, rank, margin (VP over the best other seat) or mix",
    "mix": "the win's weight in reward=mix (the rest is the margin)",
    "margin_scale": "VP margin that maps to a reward of 0 or 1",
    "rollout": "moves after the tree: random, greedy, policy (the learned prior) or none (judge the leaf)",
    "epsilon": "greedy rollouts and opponents: chance of a random move instead",
    "rollout_turns": "turns played after the tree before the evaluation judges the position (0: to the end)",
    "fpu": "UCB first-play urgency: expand an untried move only if it beats the best score (0: always)",
    "prior": "use the heuristic's prior (untried moves in its order; with puct and policy=0, its softmax)",
    "pw_k": "progressive widening: at most pw_k * visits^pw_alpha children (0: off)",
    "pw_alpha": "progressive widening's exponent",
    "eval": "the evaluation at the cut-off: net (the value model), hand (the hand formula) or auto",
    "chance": "revealed cards: branch (a child per card) or merge (one shared child)",
    "root_floor": "every root move keeps at least this share of an even split of the visits",
    "focus": "share of the budget for the final choice among whole turns (sequential halving; 0: off)",
    "focus_turns": "how many of the most visited whole turns that choice starts from",
    "policy": "the learned prior: on when > 0 with puct; its weight with ucb (0: off)",
    "select": "selection: puct (the prior prunes) or ucb (every legal move tried first)",
    "c_puct": "PUCT: the prior term's weight",
    "c_puct_log": "PUCT: the weight grows by this times ln((N + c_puct_base) / c_puct_base); auto by player count",
    "c_puct_base": "PUCT: the visits at which the growing weight has added c_puct_log * ln 2",
    "fpu_reduction": "PUCT: an unvisited move is worth its parent's mean less this",
    "fpu_scaled": "PUCT: ... the reduction times the square root of the visited moves' prior",
    "prior_temp": "PUCT with the heuristic's prior: its softmax temperature, in VP",
    "leaf_mix": "weight of the evaluation at the leaf itself beside the one after the rollout (0: off)",
    "minimax_mix": "weight of the implicit minimax value in a move's value (0: off)",
    "opponents": "the other seats: tree (in the tree), random, greedy or policy (outside it), oma (abstracted)",
    "value_weights": "a directory of value weights to evaluate with instead of the shipped ones, or a kept "
                     "set's name (before-gen5: the default's until generation 5)",
    "policy_weights": "a directory of policy weights for the prior instead of the shipped ones, or a kept set's "
                      "name (before-gen5)",
    "jobs": "independent searches in threads, merged (root parallelism); each has the whole budget, so a move "
            "costs jobs x seconds of CPU",
    "seed": "the seed of every random draw of the search",
}

_TYPES = {"iterations": int, "seconds": float, "c": float, "final": str, "reward": str, "mix": float,
          "margin_scale": float, "rollout": str, "epsilon": float, "rollout_turns": int, "fpu": float,
          "prior": bool, "pw_k": float, "pw_alpha": float, "eval": str, "chance": str, "root_floor": float,
          "focus": float, "focus_turns": int, "policy": float, "select": str, "c_puct": float,
          "c_puct_log": float, "c_puct_base": float, "fpu_reduction": float, "fpu_scaled": bool, "prior_temp": float,
          "leaf_mix": float, "minimax_mix": float, "opponents": str, "value_weights": str, "policy_weights": str,
          "jobs": int, "seed": int}
_TYPE_WORDS = {int: "an integer", float: "a number", str: "a string", bool: "true or false"}
_AUTO_KNOBS = ("c_puct_log",)   # number knobs that may also be "auto" (eval is a word knob with "auto" among them)
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
    "focus": limits.Bound("a share of the budget", 0, 0.9, integer=False),
    "focus_turns": limits.Bound("a number of whole turns", 2, 64),
    "policy": limits.Bound("the policy prior's weight", 0, 100, integer=False),
    "c_puct": limits.Bound("the PUCT constant", 0, 100, integer=False),
    "c_puct_log": limits.Bound("the PUCT constant's log term", 0, 100, integer=False),
    "c_puct_base": limits.Bound("the PUCT log term's base (visits)", 1, 1e9, integer=False),
    "fpu_reduction": limits.Bound("the first-play urgency's reduction", 0, 1, integer=False),
    "prior_temp": limits.Bound("the heuristic prior's temperature", 0.001, 1000, integer=False),
    "leaf_mix": limits.Bound("the leaf evaluation's weight", 0, 1, integer=False),
    "minimax_mix": limits.Bound("the implicit minimax value's weight", 0, 1, integer=False),
}


@dataclass
class Candidate:
    """One root move. Its shown figures (win, seats, vp, margin) come from the final-result model
    (ai/outcome.py) on the seats' mean estimated final VP through the move."""
    move: int
    text: str
    visits: int
    mean: float              # mean search reward of the deciding player through this move
    win: float               # the deciding seat's win share under the final-result model
    vp: float                # its expected final VP under the model
    margin: float            # its expected VP margin over the best other seat under the model
    pv: list[str] = field(default_factory=list)
    win_se: float = 0.0      # the standard error of `win` (outcome.win_se: the one standard error of it)
    vp_se: float = 0.0       # the standard error of the search's mean VP estimate
    win_raw: float = 0.0     # the search's own mean win value (the leader by estimated VP, or the value model)
    seats: list[float] = field(default_factory=list)   # every seat's win share under the model (sums to 1)


@dataclass
class TurnCandidate:
    """One whole turn of the deciding player, with the search's statistics of its last tree node.

    The statistics aggregate over every chance outcome after the turn (cards revealed into the display
    come after the player's last decision). The shown figures (win, seats, vp, margin) come from the
    final-result model (ai/outcome.py) on `stats`, what the search backed up through the turn's node;
    `win_se` is their one standard error (outcome.win_se). Visits of a tree search are not independent
    draws, so read it as a rough scale of the noise, not as an exact interval."""
    moves: list[int]
    texts: list[str]
    visits: int
    mean: float              # mean search reward of the deciding player
    win: float               # the deciding seat's win share under the final-result model
    vp: float                # expected final VP under the model
    margin: float            # expected VP margin over the best other seat under the model
    win_se: float
    partial: bool = False    # the tree stopped before the turn ended: the rest is the greedy continuation
    tree_moves: int = 0      # how many of `moves` the tree explored (the rest completed greedily)
    after: list[int] = field(default_factory=list)   # the most visited line after the turn (action codes)
    tops: int = 0            # in how many of the merged searches this was that search's own choice
    focus: int = 0           # the final choice's round this turn reached (the furthest in any merged search)
    named: bool = False      # a turn the caller named (search(named=...)): searched beside the search's own
    seats: list[float] = field(default_factory=list)   # every seat's win share after the turn (sums to 1)
    candidate: bool = False  # one of the final choice's own candidates (a named extra is not)
    chosen: bool = False     # the final choice's pick: it heads the list whatever its figure (rank_turns)
    stats: "outcome.NodeStats | None" = None   # the node's raw statistics (None: a turn built by hand)
    win_raw: float = 0.0     # the search's own mean win value
    scale: float = 1.0       # the model's weight in the shown figures (outcome.Model.weight: below 1 in the
                             # first round); the final pick's tie floor is taken on the model's own scale
    slope: float = 0.0       # d win / d (the deciding seat's mean estimated VP): the standard error's scale


def win_se(win: float, visits: int) -> float:
    """A rough standard error of a win share from `visits` values in [0, 1] (Laplace-smoothed p): for
    turns built by hand (tests, a hint cache) that carry no spread of their own."""
    if visits <= 0:
        return 0.5
    p = (win * visits + 1.0) / (visits + 2.0)
    return math.sqrt(p * (1.0 - p) / visits)


@dataclass
class SearchResult:
    player: int
    candidates: list[Candidate]
    iterations: int
    nodes: int
    bytes: int
    seconds: float
    config: SearchConfig
    turns: list[TurnCandidate] = field(default_factory=list)
    searches: int = 1        # independent searches merged into this result (root parallelism, slices)
    raws: list[dict] = field(default_factory=list, repr=False)   # the core's own answers, for exact merges
    model: "outcome.Model | None" = field(default=None, repr=False)   # the final-result model of the figures
    horizon: float = 1.0     # the position's horizon (outcome.horizon) the model was read at
    notes: list[str] = field(default_factory=list)   # what a player should know about these figures

    @property
    def best(self) -> Candidate:
        return self.candidates[0]

    def to_dict(self) -> dict:
        d = asdict(self)
        d.pop("raws")
        d.pop("model")
        d["config"] = asdict(self.config)
        return d


def effective_eval(eval_kind: str, players: int) -> str:
    """The evaluation `auto` stands for with `players` players (AUTO_EVAL); "net" or "hand" stand for themselves."""
    return AUTO_EVAL.get(players, "net") if eval_kind == "auto" else eval_kind


def effective_c_puct_log(value: float | str, players: int) -> float:
    """The growing PUCT weight `auto` stands for with `players` players (AUTO_C_PUCT_LOG); a number stands for
    itself."""
    return AUTO_C_PUCT_LOG[players] if value == "auto" else float(value)




def _run(state: core.CoreState, config: dict, turns: int = TURNS_KEPT, stop=None, named=None,
         model: tuple | None = None) -> dict:
    """One core search with a dict from SearchConfig.core_dict (which resolved `eval` and loaded the model
    before any search thread starts); `model`: the final-result model's (k, d, sigma) the final choice
    halves by."""
    return core.search(state, dict(config, turns=turns), stop, named, model)


def outcome_model(config: SearchConfig, game) -> outcome.Model:
    """The final-result model for this search's evaluation, player count and budget (ai/outcome.py), as it
    reads this position (the first round's own sigma: Model.for_position)."""
    return outcome.find(effective_eval(config.eval, game.n_players), game.n_players,
                        outcome.budget_seconds(config.seconds, config.iterations)
                        ).for_position(outcome.first_round(game.state))


def figures_notes(config: SearchConfig, game, model: outcome.Model | None = None) -> list[str]:
    """The warnings a hint shows when its figures are not calibrated for this search ([] when they are): no
    model fitted at its setting or budget (outcome.note), or a search other than the one the model file was
    fitted on (outcome.search_note; not said of a model with its default coefficients: nothing was fitted).
    `model`: the one the figures came from (outcome_model by default)."""
    model = model or outcome_model(config, game)
    notes = [outcome.note(model, outcome.budget_seconds(config.seconds, config.iterations)),
             outcome.search_note(config, game.n_players) if model.fitted else None]
    return [n for n in notes if n]


def search(game, config: SearchConfig | None = None, stop: "core.StopToken | None" = None,
           named: list[list[int]] | None = None) -> SearchResult:
    """ISMCTS for whoever decides now in `game`; the game itself is not changed.

    With jobs > 1, that many independent searches run in threads (the core releases the GIL and
    counts each thread's own CPU time against `seconds`) and are merged at the root, in seed order
    (the same seed and iteration budget give the same answer whatever the threads' timing). `stop`
    (a core.StopToken) lets another thread end the search early; the statistics so far are returned.
    `named`: whole turns (action codes) to search beside the search's own candidates (the final choice
    over whole turns, SearchConfig.focus): each comes back in `turns` with `named` set.
    A position with one legal whole turn is answered at once, without a search (only_turn)."""
    config = config or SearchConfig()
    if game.decider is None or game.decider < 0:
        raise GameError("no player decides now (the game is over, or a card must be revealed)")
    model, h = outcome_model(config, game), outcome.game_horizon(game)
    only = only_turn(game)
    if only is not None and all(list(n) == only for n in (named or [])):
        return _without_search(game, config, only)
    raws = _searches(game, config, stop=stop, named=named, model=model.core_tuple(h))
    return _merge(game, raws, config, model, h)


def _searches(game, config: SearchConfig, turns: int = TURNS_KEPT, stop=None, named=None,
              model: tuple | None = None) -> list[dict]:
    """The core's answers of the search's `jobs` independent searches (threads when more than one)."""
    if config.jobs == 1:
        return [_run(game.state, config.core_dict(players=game.n_players), turns, stop, named, model)]
    from concurrent.futures import ThreadPoolExecutor
    # kept in the seeds' range (a bot's seed may use all of it; as sliced.py); small seeds are unchanged
    seeds = [(config.seed * 1000003 + j) % 2 ** 63 for j in range(config.jobs)]
    dicts = [config.core_dict(s, players=game.n_players) for s in seeds]   # the model loads here, once
    with ThreadPoolExecutor(max_workers=config.jobs, thread_name_prefix="search") as pool:
        return list(pool.map(lambda d: _run(game.state.copy(), d, turns, stop, named, model), dicts))


def only_turn(game) -> list[int] | None:
    """The deciding player's whole turn when it is the only legal one (every step has one legal move,
    e.g. a Tribune with nothing to choose), else None."""
    st = game.state.copy()
    st.set_chance(False, True)
    seat, turn, moves = st.decider, st.turns, []
    while st.decider == seat and st.turns == turn and not st.is_over and len(moves) < 64:
        legal = st.legal_actions()
        if len(legal) != 1:
            return None
        moves.append(legal[0])
        st.apply(legal[0])
    return moves or None


def position_outcome(game, eval_kind: str = "auto", decider: int | None = None) -> outcome.Outcome:
    """The final-result model on the position's own evaluation, without a search (the model fitted at
    0 seconds): the figure for a position before any hint (the web board's player bars) and for a turn
    that is the only legal one. `decider`: whose figure is read (the seat to move by default; with no
    seat to move, the model's decider offset is left out)."""
    kind = effective_eval(eval_kind, game.n_players)
    if kind == "net":
        from . import value
        q, mu = value.predict(game.state)     # the value model's win probabilities and final VP
    else:
        q, mu = None, core.evaluate_state(game.state)
    model = outcome.find(kind, game.n_players, 0.0).for_position(outcome.first_round(game.state))
    seat = decider if decider is not None else game.decider
    if seat is None or seat < 0:
        model = replace(model, d=(0.0, 0.0))
        seat = 0
    return outcome.predict(mu, seat, outcome.game_horizon(game), model, q)


def _without_search(game, config: SearchConfig, moves: list[int]) -> SearchResult:
    """The answer for a position with one legal whole turn: that turn, with the figures of the position
    itself (position_outcome), and no search."""
    out = position_outcome(game, config.eval)
    turn = TurnCandidate(list(moves), turn_texts(game, moves), 0, 0.0, out.win, out.vp[out.decider], out.margin,
                         0.0, candidate=True, chosen=True, seats=list(out.shares), focus=1)
    cand = Candidate(moves[0], game.text(moves[0]), 0, 0.0, out.win, out.vp[out.decider], out.margin,
                     pv_texts(game, moves), 0.0, 0.0, out.win, list(out.shares))
    model = outcome.find(effective_eval(config.eval, game.n_players), game.n_players, 0.0
                         ).for_position(outcome.first_round(game.state))
    notes = ["One legal turn: answered at once without a search; its figures are the final-result model on "
             "the evaluation of the position itself (no sampling, so no standard error)."]
    return SearchResult(game.decider, [cand], 0, 0, 0, 0.0, config, [turn], 0, [], model,
                        outcome.game_horizon(game), notes)


def search_raw(game, config: SearchConfig) -> dict:
    """One search as the core returns it: the root children (action, visits, mean, ...) most visited first,
    and with `focus` the survivor of the final choice's halving (`choice`); no whole-turn list, no notation.
    The training data of the policy (lab/policy_data.py)."""
    if game.decider is None or game.decider < 0:
        raise GameError("no player decides now (the game is over, or a card must be revealed)")
    at = outcome_model(config, game).core_tuple(outcome.game_horizon(game))
    return _run(game.state, config.core_dict(players=game.n_players), turns=0, model=at)


def best_move(game, config: SearchConfig) -> int:
    """The move a search bot plays: the search's most visited root move, without the notation and
    principal variations that `search` builds for people (the bots' hot path). With `focus`, the first
    move of the whole turn the final choice picked (through search(): the pick is made on the turns)."""
    if config.focus > 0:
        result = search(game, config)
        return result.turns[0].moves[0] if result.turns else result.best.move
    raws = _searches(game, config, turns=0)
    if len(raws) == 1:
        return raws[0]["children"][0]["action"]
    # root parallelism: the merged root's best as search() orders it (_merge), without its figures and notation
    pooled = {a: (sum(ch["visits"] for ch in chs), _pooled_mean(chs)) for a, chs in _root_groups(raws).items()}
    return max(pooled, key=lambda a: _rank(config.final, *pooled[a]))


def _root_groups(raws: list[dict]) -> dict[int, list[dict]]:
    """Each root action's children over several core answers, in the order the answers first name them."""
    groups: dict[int, list[dict]] = {}
    for raw in raws:
        for ch in raw["children"]:
            groups.setdefault(ch["action"], []).append(ch)
    return groups


def _pooled_mean(chs: list[dict]) -> float:
    return sum(ch["mean"] * ch["visits"] for ch in chs) / max(1, sum(ch["visits"] for ch in chs))


def _rank(final: str, visits: int, mean: float) -> tuple:
    """The merged root's order (SearchConfig.final): most visits, or best mean reward, the other breaking ties."""
    return (mean, visits) if final == "mean" else (visits, mean)


def _merge(game, raws: list[dict], config: SearchConfig, model: outcome.Model, h: float) -> SearchResult:
    """Several core answers (threads or slices) as one result: every statistic pooled over the visits,
    then the shown figures computed once from the pooled statistics."""
    groups = _root_groups(raws)
    candidates = []
    for action, chs in groups.items():
        n = sum(ch["visits"] for ch in chs)
        v = max(1, n)
        avg = {k: sum(ch[k] * ch["visits"] for ch in chs) / v for k in ("mean", "win", "vp", "vp2")}
        pv = max(chs, key=lambda ch: ch["visits"])["pv"]
        out, se = outcome.predict_stats(outcome.NodeStats.pool([outcome.NodeStats.from_raw(ch) for ch in chs]),
                                        game.decider, h, model, searches=len(chs))
        candidates.append(Candidate(action, game.text(action), n, avg["mean"], out.win, out.vp[out.decider],
                                    out.margin, pv_texts(game, pv), se, standard_error(avg["vp2"], avg["vp"], v),
                                    avg["win"], list(out.shares)))
    candidates.sort(key=lambda c: _rank(config.final, c.visits, c.mean), reverse=True)
    lists = [[_turn_from_raw(t) for t in r.get("turns", [])] for r in raws]
    turns = merge_turns(game, lists, model, h)
    if turns and turns[0].chosen:
        # the final choice over whole turns decides: its turn's first move leads the single moves too
        first = turns[0].moves[0]
        candidates.sort(key=lambda c: c.move != first)
    notes = figures_notes(config, game, model)
    return SearchResult(game.decider, candidates, sum(r["iterations"] for r in raws),
                        sum(r["nodes"] for r in raws), sum(r["bytes"] for r in raws),
                        max(r["seconds"] for r in raws), config, turns, len(raws), list(raws), model, h, notes)


def merge_results(game, results: list[SearchResult], config: SearchConfig) -> SearchResult:
    """Searches run one after another (slices) merged as root parallelism merges threads: the one merge of
    search statistics (_merge), over the core's own sums, so the merged figures keep their standard errors
    and their raw means. The CPU seconds add up (the slices ran in turn)."""
    model, h = outcome_model(config, game), outcome.game_horizon(game)
    merged = _merge(game, [raw for r in results for raw in r.raws], config, model, h)
    merged.seconds = sum(r.seconds for r in results)
    return merged


def _turn_from_raw(raw: dict) -> TurnCandidate:
    """A core turn dict with its raw statistics; the shown figures are filled in by merge_turns."""
    return TurnCandidate(list(raw["actions"]), [], raw["visits"], raw["mean"], 0.0, 0.0, 0.0, 0.0, raw["partial"],
                         raw["tree_len"], list(raw["after"]), focus=raw.get("focus", 0),
                         named=raw.get("named", -1) >= 0, candidate=bool(raw.get("candidate", False)),
                         stats=outcome.NodeStats.from_raw(raw), win_raw=raw["win"])


def turn_end_key(game, moves: list[int]):
    """The position after the deciding player's moves (stopping before any reveal), as the core's key
    (CoreState.key): turns with the same key are the same turn in another order. None if a move is illegal."""
    g = game.clone()
    g.state.set_chance(False, True)
    for a in moves:
        if not g.state.is_legal(a):
            return None
        g.state.apply(a)
    return g.state.key()


TIE_WIN = 0.02     # two finalists closer than this (or than TIE_Z standard errors of the difference) are tied
TIE_Z = 4.0        # the tie margin in standard errors of the difference of two win shares (at 4 two 2-thread
                   # sweeps kept the pick on 41 and 41 of 52 positions against 38 and 37 at 2, when the shown
                   # errors were a median 1.4 times too small)
TIE_VISITS = 0.1   # a turn that dropped out before the last round ties only on this share of the best one's visits
# TIE_WIN 0.02 and TIE_VISITS 0.1 (0.005 and 0.25 before 2026-12-04, 8th session), with the value model's key
# (end_advantage): chosen on two sweeps of 52 positions x 5 seeds at 3 s (45 and 42 stable), then 45 of 52 on a
# third sweep held out, against 40 with the earlier widths, for 0.19 win % points more mean regret
# (results/stability-puct/README.md, "The value model's tie key").
TIE_ROUNDS = 99    # the tie rule looks at the turns of the final choice's last TIE_ROUNDS rounds (1: the finalists
                   # only; 99: every round). Measured at 3 s over 52 positions x 5 seeds: 27 of 52 positions
                   # stable with 1, 28 with 2, 33 with every round (results/stability-focus/outcome_pick_tie*.json)


def tie_margin(a: TurnCandidate, b: TurnCandidate) -> float:
    """How far apart two turns' win shares may be and still be tied for the final pick: TIE_WIN on the model's
    own scale (a's), or TIE_Z standard errors of the difference, whichever is wider (final_pick, and the hint's
    notes that explain it)."""
    return max(TIE_WIN * a.scale, TIE_Z * math.hypot(a.win_se, b.win_se))


def final_pick(game, turns: list[TurnCandidate], advantage=None, eval_kind: str = "hand") -> TurnCandidate | None:
    """The final choice's last pick among its finalists (the candidates that reached its last round; a
    named extra never is one): the higher win share shown, on every visit including the last round's
    (expected VP when the winner is settled). Finalists whose win shares are within max(TIE_WIN, TIE_Z
    standard errors of the difference) are tied as far as the search can tell; which of them halving kept
    longest goes by the seed, so among them the pick follows a rule that does not: the better end-of-turn
    position by the search's own evaluation `eval_kind` (end_advantage), then the shorter turn, then the lower
    action codes. With TIE_ROUNDS > 1 the turns that dropped out in the
    rounds just before the last join the tied ones when within noise of the best finalist and on TIE_VISITS
    of its visits or more (measured against 1 in results/outcome/README.md). None when the final choice did not run. `advantage`: the
    tie rule's first key for a turn (end_advantage in `game` by default; scripts/outcome_fit.py replays
    recorded picks with the recorded values)."""
    cands = [t for t in turns if t.candidate and t.focus > 0]
    if not cands:
        return None
    top = max(t.focus for t in cands)
    finalists = [t for t in cands if t.focus == top]
    if settled(turns):
        return max(finalists, key=lambda t: (t.vp, t.visits))
    best = max(finalists, key=lambda t: (t.win, t.visits))
    # a turn that dropped out earlier ties only on TIE_VISITS (a tenth) of the best finalist's visits or more
    near = [t for t in cands if t.focus == top or (t.focus > top - TIE_ROUNDS and t.visits >= TIE_VISITS * best.visits)]
    tied = [t for t in near
            if best.win - t.win <= tie_margin(best, t)]
    if len(tied) < 2:
        return best
    advantage = advantage or (lambda t: end_advantage(game, t.moves, eval_kind))
    return max(tied, key=lambda t: (advantage(t), -len(t.moves), [-a for a in t.moves]))


def end_advantage(game, moves: list[int], eval_kind: str = "hand") -> float:
    """How good the position after the turn `moves` is for the deciding player, by the evaluation `eval_kind`:
    the value model's probability that the player wins ("net"), or the hand formula's estimated final VP
    minus the best other player's ("hand"). The tie rule's first key (final_pick): with the value model as the
    search's evaluation it kept the same pick across seeds on 40, 41 and 41 of 52 positions, where the hand
    formula's key kept 34, 33 and 38 (three sweeps replayed, results/stability-puct/README.md)."""
    st = game.state.copy()
    st.set_chance(False, True)
    seat = st.decider
    for a in moves:
        st.apply(a)
    if eval_kind == "net":
        from . import value
        return float(value.predict(st)[0][seat])
    v = core.evaluate_state(st)
    return v[seat] - max(x for q, x in enumerate(v) if q != seat)


THIN_VISITS = 10      # a listed turn on fewer visits than this, or than a twentieth of the most visited, is thin


def thin_bar(turns: list[TurnCandidate]) -> int:
    """The visits under which a turn of the list is thin: its figure is too rough to rank it among the others."""
    most = max((t.visits for t in turns), default=0)
    return max(THIN_VISITS, (most + 19) // 20)


def ranking_rule(turns: list[TurnCandidate]) -> str:
    """The one ranking rule, in words, as the list at hand follows it (rank_turns)."""
    figure = "expected VP (the winner is settled)" if settled(turns) else "win %"
    bar = thin_bar(turns)
    thin = any(t.visits < bar and not t.chosen for t in turns)
    tail = f" (the turns on fewer than {bar} visits after the others)" if thin else ""
    if turns and turns[0].chosen and turns[0].visits > 0:
        return (f"the final choice's turn first (sequential halving over whole turns by win %; among the turns "
                f"within noise of the best finalist, the better end position), then the others by {figure}, best "
                f"first{tail}")
    return f"by {figure}, best first{tail}"


def rank_turns(turns: list[TurnCandidate]) -> list[TurnCandidate]:
    """The one ranking rule (ranking_rule): the final choice's pick first when the final choice ran, then
    every other turn by its shown win share, higher first (by expected VP when the winner is settled), ties
    by visits; the thin turns (thin_bar) come after the others, in the same order among themselves."""
    chosen = [t for t in turns if t.chosen][:1]
    rest = [t for t in turns if t not in chosen]
    bar = thin_bar(turns)
    if settled(turns):
        rest.sort(key=lambda t: (t.visits >= bar, t.vp, t.win, t.visits), reverse=True)
    else:
        rest.sort(key=lambda t: (t.visits >= bar, t.win, t.vp, t.visits), reverse=True)
    return chosen + rest


def follows_ranking_rule(turns: list[TurnCandidate]) -> bool:
    """Does a list follow the one ranking rule? At most one chosen turn, first; then the firm turns, then the
    thin ones, each by win % (by VP when settled), best first. (The check of scripts and tests.)"""
    chosen = [i for i, t in enumerate(turns) if t.chosen]
    rest = turns[len(chosen):]
    bar = thin_bar(turns)
    figure = (lambda t: t.vp) if settled(turns) else (lambda t: t.win)
    keys = [(t.visits >= bar, figure(t)) for t in rest]
    return chosen in ([], [0]) and all(a >= b for a, b in zip(keys, keys[1:]))


def settled(turns: list[TurnCandidate]) -> bool:
    """Is the winner settled? Every turn's win share is within SETTLED of 0 (the player cannot win) or every
    one within SETTLED of 1 (cannot lose): then 0.0 against 0.1 % is noise, and expected VP ranks them."""
    if not turns:
        return False
    wins = [t.win for t in turns]
    return all(w <= SETTLED for w in wins) or all(w >= 1 - SETTLED for w in wins)


def merge_turns(game, lists: list[list[TurnCandidate]], model: outcome.Model | None = None,
                h: float | None = None) -> list[TurnCandidate]:
    """Whole turns of several searches (or one) merged by the position they reach: every statistic
    pooled over the visits, the shown figures computed from the pooled statistics (the final-result
    model), the final choice's pick made once on the pooled figures (final_pick), then ranked
    (rank_turns). The moves, the flags and the line after are the most visited version's; a merged turn
    is partial only if no search explored it to its end. `tops` counts the searches whose own pick the
    turn was (information only: the pick does not go by votes)."""
    model = model or outcome.Model("hand", game.n_players, 0.0, fitted=False)
    h = outcome.game_horizon(game) if h is None else h
    groups: dict = {}
    own_picks = []
    for j, turns in enumerate(lists):
        keyed = [(_cached_key(game, t), t) for t in turns]
        keyed = [(k, t) for k, t in keyed if k is not None]
        for key, t in keyed:
            t._search = j
            groups.setdefault(key, []).append(t)
        own = [_pooled(game, model, h, [t for k2, t in keyed if k2 == key]) for key in dict(keyed)]
        pick = final_pick(game, own, eval_kind=model.eval)
        if pick is not None:
            own_picks.append(pick._end_key)
    out = [_pooled(game, model, h, group) for group in groups.values()]
    for t in out:
        t.tops = own_picks.count(t._end_key)
    pick = final_pick(game, out, eval_kind=model.eval)
    if pick is not None:
        pick.chosen = True
    return rank_turns(out)


def _pooled(game, model: outcome.Model, h: float, group: list[TurnCandidate]) -> TurnCandidate:
    """One turn from the same turn's statistics in several searches (or one), with its shown figures."""
    full = [t for t in group if not t.partial]
    lead = max(full or group, key=lambda t: t.visits)
    if any(t.stats is None for t in group):     # a turn built without the raw statistics (a test): as it is
        return lead
    n = sum(t.visits for t in group)
    w = [t.visits / n if n > 0 else 1.0 / len(group) for t in group]
    stats = outcome.NodeStats.pool([t.stats for t in group])
    searches = len({getattr(t, "_search", 0) for t in group})     # the independent searches it pools
    out, se = outcome.predict_stats(stats, game.decider, h, model, searches)
    merged = TurnCandidate(list(lead.moves), lead.texts or turn_texts(game, lead.moves), n,
                           sum(t.mean * x for t, x in zip(group, w)), out.win, out.vp[out.decider], out.margin, se,
                           not full, lead.tree_moves, list(lead.after), 0, max(t.focus for t in group),
                           any(t.named for t in group), list(out.shares), any(t.candidate for t in group), False,
                           stats, sum(t.win_raw * x for t, x in zip(group, w)), model.weight, out.slope)
    merged._end_key = _cached_key(game, lead)
    return merged


def _cached_key(game, t: TurnCandidate):
    # partial reports merge the same slices again and again: compute each turn's key once
    key = getattr(t, "_end_key", None)
    if key is None:
        key = t._end_key = turn_end_key(game, t.moves)
    return key


def turn_texts(game, moves: list[int]) -> list[str]:
    """The texts of a turn's moves, each read in the position where it is played."""
    g = game.clone()
    g.state.set_chance(False, True)
    out = []
    for a in moves:
        out.append(g.text(a))
        g.state.apply(a)
    return out


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
