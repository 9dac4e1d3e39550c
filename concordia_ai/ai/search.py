"""ISMCTS configuration and results. The search loop itself runs in the core (cext/search.pxi).

    >>> from concordia_ai.ai.search import SearchConfig, search
    >>> result = search(game, SearchConfig(iterations=5000, seed=1))
    >>> result.best.text, result.best.win, result.best.pv

Root parallelism: with `jobs > 1`, independent searches with different seeds run in threads (the
core releases the GIL) and their root statistics are merged (visits summed, means weighted by visits).
Whole turns: `result.turns` ranks the deciding player's whole turns (the card, every step, `done`), read
from the tree by the core (collect_turns in cext/search.pxi). Turns that reach the same position (the
same builds in another order) are one candidate; root-parallel and sliced searches merge turns by that
position too. See TurnCandidate.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, fields

from .. import core
from . import calibration
from ..engine import limits
from ..engine.errors import GameError

REWARDS = ("win", "rank", "margin", "mix")
ROLLOUTS = ("random", "greedy", "none", "policy")
FINALS = ("visits", "mean")
EVALS = ("auto", "hand", "net")
CHANCES = ("branch", "merge")
TURNS_KEPT = 32          # whole turns read from each search tree (the most visited)
TABLE_FOCUS = 0.25       # hint, review, play --suggested and analyze: the last quarter of the budget makes the
                         # final choice over whole turns (SearchConfig.focus); the bots' measured default is 0
SETTLED = 0.01           # a win % at most this far from 0 or 1: the winner is settled, turns rank by VP


class SearchConfigError(GameError):
    """A bad search knob; `field` names it (for analyze's error answers and CLI messages)."""

    def __init__(self, field: str, message: str):
        super().__init__(f"search config: {message}")
        self.field = field


@dataclass(frozen=True)
class SearchConfig:
    """Every knob strategy research sweeps. Defaults are the measured ones (results/judgement.md; the earlier
    default, before the value model, is `eval="hand", root_floor=0`: results/strength.md)."""
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
    rollout_turns: int = 8        # cut-off after this many turns with a static evaluation (0: to the end)
    fpu: float = 0.0              # first-play urgency: expand an untried move only if it beats the best UCB (0: always)
    prior: bool = False           # expand untried moves in the heuristic's order instead of at random
    pw_k: float = 0.0             # progressive widening: at most pw_k * visits^pw_alpha children (0: off)
    pw_alpha: float = 0.5
    eval: str = "auto"            # leaf evaluation: the value model ("net"), the hand-set formula ("hand"), or
                                  # "auto": net with 3-5 players, hand with 2 (see effective_eval)
    chance: str = "branch"        # revealed cards: a child per outcome ("branch") or one shared child ("merge")
    root_floor: float = 0.2       # root children get at least this share of an even split of the visits
    focus: float = 0.0            # share of the budget for the final choice over whole turns: sequential halving
                                  # among the `focus_turns` most visited ones (0: the most visited root move)
    focus_turns: int = 8
    policy: float = 0.0           # weight of the learned prior (ai/policy.py): a PUCT term beside UCB and untried
                                  # moves expanded in an order drawn from the prior (0: off)
    jobs: int = 1                 # root parallelism: independent searches in threads, merged
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
            (self.eval in EVALS, "eval", f"eval must be one of {', '.join(EVALS)}"),
            (self.chance in CHANCES, "chance", f"chance must be one of {', '.join(CHANCES)}"),
            (0 <= self.root_floor <= 1, "root_floor", "root_floor must be in 0..1"),
        ]
        for ok, name, message in checks:
            if not ok:
                raise SearchConfigError(name, message)

    def core_dict(self, seed: int | None = None, *, players: int) -> dict:
        """The settings as the core takes them, every key (the core has no defaults of its own:
        core.SEARCH_KEYS). `eval="auto"` is resolved for a game of `players` players (the core knows only
        hand and net), and when it resolves to net the value model is loaded here, so a search never
        depends on what ran before it in the process. `jobs` stays in Python (threads of searches)."""
        d = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "jobs"}
        if seed is not None:
            d["seed"] = seed
        d["eval"] = effective_eval(self.eval, players)
        if d["eval"] == "net":
            from . import value       # numpy: only when the model is used
            value.ensure_loaded()
        if self.policy > 0 or self.rollout == "policy":
            from . import policy      # asked for: loaded, or a clear error (never a silent fallback)
            policy.require(players)
        return d


_TYPES = {"iterations": int, "seconds": float, "c": float, "final": str, "reward": str, "mix": float,
          "margin_scale": float, "rollout": str, "epsilon": float, "rollout_turns": int, "fpu": float,
          "prior": bool, "pw_k": float, "pw_alpha": float, "eval": str, "chance": str, "root_floor": float,
          "focus": float, "focus_turns": int, "policy": float, "jobs": int, "seed": int}
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
    "focus": limits.Bound("a share of the budget", 0, 0.9, integer=False),
    "focus_turns": limits.Bound("a number of whole turns", 2, 64),
    "policy": limits.Bound("the policy prior's weight", 0, 100, integer=False),
}


@dataclass
class Candidate:
    move: int
    text: str
    visits: int
    mean: float              # mean reward of the deciding player through this move
    win: float               # probability of winning: the search's mean, through the calibration map (eval=net)
    vp: float                # expected final VP of the deciding player (estimated at cut-offs)
    margin: float            # expected VP margin over the best opponent
    pv: list[str] = field(default_factory=list)
    win_se: float = 0.0      # standard error of `win` (from the spread of the values backed up)
    vp_se: float = 0.0       # standard error of `vp`
    win_raw: float | None = None   # the search's own mean before the calibration map (eval=net), else None
    seats: list[float] = field(default_factory=list)   # every seat's win share through this move (sums to 1)


@dataclass
class TurnCandidate:
    """One whole turn of the deciding player, with the search's statistics of its last tree node.

    The statistics aggregate over every chance outcome after the turn (cards revealed into the display
    come after the player's last decision). `win_se` is the standard error of `win` for a mean of
    `visits` values in [0, 1], sqrt(p(1-p)/n) with p smoothed as (wins + 1) / (n + 2) so that a few
    visits never claim certainty, and widened when merged searches disagree (merged_win_se). Visits of
    a tree search are not independent draws, so read it as a rough scale of the noise, not as an
    exact interval."""
    moves: list[int]
    texts: list[str]
    visits: int
    mean: float              # mean search reward of the deciding player
    win: float               # the search's win estimate (share of iterations the player came first)
    vp: float                # expected final VP
    margin: float            # expected VP margin over the best opponent
    win_se: float
    partial: bool = False    # the tree stopped before the turn ended: the rest is the greedy continuation
    tree_moves: int = 0      # how many of `moves` the tree explored (the rest completed greedily)
    after: list[int] = field(default_factory=list)   # the most visited line after the turn (action codes)
    tops: int = 0            # in how many of the merged searches this was the top turn
    focus: int = 0           # the final choice's round this turn reached (summed over merged searches; 0: not in it)
    named: bool = False      # a turn the caller named (search(named=...)): searched beside the search's own
    seats: list[float] = field(default_factory=list)   # every seat's win share after the turn (sums to 1;
                                                      # `win` is the deciding seat's share)

    @property
    def lcb(self) -> float:
        """The ranking key: the win estimate less two standard errors (a thin estimate ranks low)."""
        return self.win - 2.0 * self.win_se


def win_se(win: float, visits: int) -> float:
    """Standard error of a win share from `visits` values in [0, 1] (Laplace-smoothed p)."""
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

    @property
    def best(self) -> Candidate:
        return self.candidates[0]

    def to_dict(self) -> dict:
        d = asdict(self)
        d.pop("raws")
        d["config"] = asdict(self.config)
        return d


def effective_eval(eval_kind: str, players: int) -> str:
    """The evaluation `auto` stands for. Measured (results/judgement.md, section 7): with 2 players the
    value model made the search much weaker (it won 9 of 60 games at 30 ms against the same search with
    the hand formula on 2-player Italia, and 17 of 40 against `plan:minerva`, where the hand formula won
    39 of 40), while with 3-5 players it is the stronger evaluation."""
    if eval_kind != "auto":
        return eval_kind
    return "net" if players > 2 else "hand"




def _run(state: core.CoreState, config: dict, turns: int = TURNS_KEPT, stop=None, named=None) -> dict:
    """One core search with a dict from SearchConfig.core_dict (which resolved `eval` and loaded the model
    before any search thread starts)."""
    return core.search(state, dict(config, turns=turns), stop, named)


def search(game, config: SearchConfig | None = None, stop: "core.StopToken | None" = None,
           named: list[list[int]] | None = None) -> SearchResult:
    """ISMCTS for whoever decides now in `game`; the game itself is not changed.

    With jobs > 1, that many independent searches run in threads (the core releases the GIL and
    counts each thread's own CPU time against `seconds`) and are merged at the root, in seed order
    (the same seed and iteration budget give the same answer whatever the threads' timing). `stop`
    (a core.StopToken) lets another thread end the search early; the statistics so far are returned.
    `named`: whole turns (action codes) to search beside the search's own candidates (the final choice
    over whole turns, SearchConfig.focus): each comes back in `turns` with `named` set."""
    config = config or SearchConfig()
    if game.decider is None or game.decider < 0:
        raise GameError("no player decides now (the game is over, or a card must be revealed)")
    if config.jobs == 1:
        raws = [_run(game.state, config.core_dict(players=game.n_players), stop=stop, named=named)]
    else:
        from concurrent.futures import ThreadPoolExecutor
        seeds = [config.seed * 1000003 + j for j in range(config.jobs)]
        with ThreadPoolExecutor(max_workers=config.jobs, thread_name_prefix="search") as pool:
            dicts = [config.core_dict(s, players=game.n_players) for s in seeds]   # the model loads here, once
            raws = list(pool.map(lambda d: _run(game.state.copy(), d, stop=stop, named=named), dicts))
    return _merge(game, raws, config)


def search_raw(game, config: SearchConfig) -> dict:
    """One search as the core returns it: the root children (action, visits, mean, ...) most visited first,
    and with `focus` the whole turn of the final choice (`choice`); no whole-turn list, no notation. The
    training data of the policy (lab/policy_data.py)."""
    if game.decider is None or game.decider < 0:
        raise GameError("no player decides now (the game is over, or a card must be revealed)")
    return _run(game.state, config.core_dict(players=game.n_players), turns=0)


def best_move(game, config: SearchConfig) -> int:
    """The move a search bot plays: the search's choice, without the notation and principal variations
    that `search` builds for people (the bots' hot path). With `focus`, the first move of the whole
    turn the final choice picked."""
    if config.jobs > 1:
        result = search(game, config)
        return result.turns[0].moves[0] if config.focus > 0 and result.turns else result.best.move
    raw = _run(game.state, config.core_dict(players=game.n_players), turns=0)
    if raw.get("choice"):
        return raw["choice"][0]
    return raw["children"][0]["action"]


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
    seat_sums: dict[int, list[float]] = {}
    for raw in raws:
        for ch in raw["children"]:
            sums = seat_sums.setdefault(ch["action"], [0.0] * game.n_players)
            for k, s in enumerate(ch.get("seats", ())):
                sums[k] += s * ch["visits"]
    candidates = []
    for action, m in merged.items():
        v = max(1, m["visits"])
        win, vp = m["win"] / v, m["vp"] / v
        shown, se, seats = shown_win(config, game, win, standard_error(m["win2"] / v, win, v),
                                     [s / v for s in seat_sums[action]])
        candidates.append(Candidate(action, game.text(action), m["visits"], m["mean"] / v, shown, vp,
                                    m["margin"] / v, pv_texts(game, m["pv"]), se,
                                    standard_error(m["vp2"] / v, vp, v), win, seats))
    if config.final == "mean":
        candidates.sort(key=lambda c: (c.mean, c.visits), reverse=True)
    else:
        candidates.sort(key=lambda c: (c.visits, c.mean), reverse=True)
    turns = merge_turns(game, [[_turn_from_raw(game, t, config) for t in r.get("turns", [])] for r in raws])
    if config.focus > 0 and turns and turns[0].focus > 0:
        # the final choice over whole turns decides: its turn's first move leads the single moves too
        first = turns[0].moves[0]
        candidates.sort(key=lambda c: c.move != first)
    return SearchResult(game.decider, candidates, sum(r["iterations"] for r in raws),
                        sum(r["nodes"] for r in raws), sum(r["bytes"] for r in raws),
                        max(r["seconds"] for r in raws), config, turns, len(raws), list(raws))


def merge_results(game, results: list[SearchResult], config: SearchConfig) -> SearchResult:
    """Searches run one after another (slices) merged as root parallelism merges threads: the one merge of
    search statistics (_merge), over the core's own sums, so the merged figures keep their standard errors
    and their raw means. The CPU seconds add up (the slices ran in turn)."""
    merged = _merge(game, [raw for r in results for raw in r.raws], config)
    merged.seconds = sum(r.seconds for r in results)
    return merged


def _turn_from_raw(game, raw: dict, config: SearchConfig) -> TurnCandidate:
    win, _, seats = shown_win(config, game, raw["win"], 0.0, raw.get("seats", []))
    return TurnCandidate(list(raw["actions"]), [], raw["visits"], raw["mean"], win, raw["vp"],
                         raw["margin"], win_se(win, raw["visits"]), raw["partial"], raw["tree_len"],
                         list(raw["after"]), focus=raw.get("focus", 0), named=raw.get("named", -1) >= 0,
                         seats=seats)


def shown_win(config: SearchConfig, game, raw_win: float, se: float, raw_seats: list[float]):
    """The win % shown for the deciding seat, its standard error, and every seat's share (summing to 1).

    The search backs up every seat's win value (they sum to 1); each goes through the calibration map of
    the search's setting (calibration_map) and the shares are normalised again, so the figures a player
    reads add up to 100 % and the deciding seat's figure is its share. Without a map they are the raw means."""
    cmap = calibration_map(config, game.n_players)
    shown, se = calibration.calibrate(raw_win, se, cmap)
    if len(raw_seats) != game.n_players or sum(raw_seats) <= 0:
        return shown, se, []
    if cmap is None:
        return shown, se, list(raw_seats)      # no map: the raw shares, which sum to 1 as backed up
    cal = [calibration.calibrate(s, 0.0, cmap)[0] for s in raw_seats]
    total = sum(cal)
    seats = [c / total for c in cal]
    share = seats[game.decider]
    return share, (se * share / shown if shown > 0 else se), seats


def calibration_map(config: SearchConfig, players: int) -> "calibration.PlattMap | None":
    """The calibration map for this search's evaluation, player count and budget (ai/calibration.py): the
    search's own mean is optimistic for the player who decides, by an amount that depends on all three."""
    return calibration.find(effective_eval(config.eval, players), players, calibration_budget(config))


def calibration_budget(config: SearchConfig) -> float:
    return calibration.budget_seconds(config.seconds, config.iterations, config.jobs)


def calibration_note(config: SearchConfig, players: int) -> str | None:
    """The warning a hint shows when its win % is not calibrated for this setting (None when it is)."""
    return calibration.note(effective_eval(config.eval, players), players, calibration_budget(config))


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


def rank_turns(turns: list[TurnCandidate]) -> list[TurnCandidate]:
    """Best first: the final choice's order (the round of sequential halving a turn reached), then the
    win estimate's lower bound (win - 2 standard errors), then visits: a turn with few visits cannot
    rank first by luck, and among well explored turns the higher win wins. When the winner is settled
    (settled()), expected VP replaces the win estimate: 0.0 against 0.1 % is noise, VP is not."""
    if settled(turns):
        most = max(t.visits for t in turns)     # a thin turn cannot lead by a lucky VP figure
        return sorted(turns, key=lambda t: (t.focus, t.visits * 10 >= most, t.vp, t.visits), reverse=True)
    return sorted(turns, key=lambda t: (t.focus, t.lcb, t.visits), reverse=True)


def settled(turns: list[TurnCandidate]) -> bool:
    """Is the winner settled? Every turn with a tenth of the most visits or more has a win estimate within
    SETTLED of 0 (the player cannot win) or every one within SETTLED of 1 (cannot lose)."""
    if not turns:
        return False
    most = max(t.visits for t in turns)
    wins = [t.win for t in turns if t.visits * 10 >= most]
    return all(w <= SETTLED for w in wins) or all(w >= 1 - SETTLED for w in wins)


def merge_turns(game, lists: list[list[TurnCandidate]]) -> list[TurnCandidate]:
    """Whole turns of several searches (or one) merged by the position they reach: visits summed,
    means weighted by visits; the moves, the flag and the line after are the most visited version's.
    A merged turn is partial only if no search explored it to its end. When several searches saw a
    turn and disagree about it more than their visits explain, its standard error is widened by that
    disagreement (merged_win_se)."""
    groups: dict = {}
    sources: dict = {}
    top_keys = []
    for i, turns in enumerate(lists):
        keyed = [(_cached_key(game, t), t) for t in turns]
        keyed = [(k, t) for k, t in keyed if k is not None]
        for key, t in keyed:
            groups.setdefault(key, []).append(t)
            sources.setdefault(key, {}).setdefault(i, []).append(t)
        # each search's own top turn (after merging its transpositions) votes once
        own: dict = {}
        for key, t in keyed:
            own.setdefault(key, []).append(t)
        if own:
            top_keys.append(max(own, key=lambda k: (sum(t.focus for t in own[k]), _pooled_lcb(own[k]))))
    out = []
    for key, group in groups.items():
        full = [t for t in group if not t.partial]
        lead = max(full or group, key=lambda t: t.visits)
        n = sum(t.visits for t in group)
        avg = {k: sum(getattr(t, k) * t.visits for t in group) / max(1, n) for k in ("mean", "win", "vp", "margin")}
        per_search = [(sum(t.visits for t in ts), sum(t.win * t.visits for t in ts) / max(1, sum(t.visits for t in ts)))
                      for ts in sources[key].values()]
        merged = TurnCandidate(list(lead.moves), lead.texts or turn_texts(game, lead.moves), n, avg["mean"],
                               avg["win"], avg["vp"], avg["margin"], merged_win_se(avg["win"], per_search), not full,
                               lead.tree_moves, list(lead.after), top_keys.count(key),
                               sum(t.focus for t in group), any(t.named for t in group),
                               _pooled_seats(group))
        merged._end_key = key
        out.append(merged)
    return rank_turns(out)


def merged_win_se(win: float, per_search: list[tuple[int, float]]) -> float:
    """The standard error of a win share pooled from several searches, [(visits, win)] each.

    The binomial error of all the visits, widened by the searches' disagreement when they disagree
    more than their visits explain (the quasi-binomial dispersion factor
    phi = sum n_i (x_i - x)^2 / ((k - 1) p (1 - p)), applied when above 1)."""
    n = sum(v for v, _ in per_search)
    base = win_se(win, n)
    used = [(v, x) for v, x in per_search if v > 0]
    if len(used) < 2:
        return base
    p = (win * n + 1.0) / (n + 2.0)
    phi = sum(v * (x - win) ** 2 for v, x in used) / ((len(used) - 1) * p * (1.0 - p))
    return base * math.sqrt(max(1.0, phi))


def _cached_key(game, t: TurnCandidate):
    # partial reports merge the same slices again and again: compute each turn's key once
    key = getattr(t, "_end_key", None)
    if key is None:
        key = t._end_key = turn_end_key(game, t.moves)
    return key


def _pooled_seats(group: list[TurnCandidate]) -> list[float]:
    with_seats = [t for t in group if t.seats]
    n = sum(t.visits for t in with_seats)
    if not with_seats or n <= 0:
        return []
    return [sum(t.seats[k] * t.visits for t in with_seats) / n for k in range(len(with_seats[0].seats))]


def _pooled_lcb(group: list[TurnCandidate]) -> float:
    n = sum(t.visits for t in group)
    win = sum(t.win * t.visits for t in group) / max(1, n)
    return win - 2.0 * win_se(win, n)


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
