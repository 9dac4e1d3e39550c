"""Bots behind one small interface, built from spec strings like `ismcts:iterations=5000,c=0.7`
or from a TOML file (`type = "ismcts"` plus its parameters).

    >>> bot = make_bot("heuristic", seed=1)
    >>> move = bot.choose(game)          # a legal move code for whoever decides in `game`
"""
from __future__ import annotations

import random
from dataclasses import dataclass, fields

from .. import core
from ..engine import limits
from . import plans
from ..io import safe_read
from ..engine.errors import ConcordiaError
from .plan_player import PlanPlayer
from .search import SEARCH_HELP, SearchConfig, best_move


class BotSpecError(ConcordiaError):
    """A bot spec that names an unknown bot or parameter, or a bad value."""


@dataclass(frozen=True)
class Param:
    name: str
    type: type
    default: object
    help: str


class Bot:
    """Chooses a legal move for whoever decides in a game. `seed` makes every choice reproducible."""
    kind = "bot"
    params: tuple[Param, ...] = ()
    description = ""

    def __init__(self, seed: int = 0, **options):
        self.seed = seed
        self.options = options
        self._rng = random.Random(seed)

    def next_seed(self) -> int:
        return self._rng.getrandbits(62)

    def choose(self, game) -> int:
        raise NotImplementedError

    def __repr__(self):
        opts = ",".join(f"{k}={v}" for k, v in self.options.items())
        return f"{self.kind}:{opts}" if opts else self.kind


class RandomBot(Bot):
    kind = "random"
    description = "uniformly random legal sub-decisions"

    def choose(self, game) -> int:
        return self._rng.choice(game.legal_moves())


class GreedyBot(Bot):
    kind = "greedy"
    description = "best immediate heuristic value (one sub-decision of lookahead)"

    def choose(self, game) -> int:
        return core.choose_greedy(game.state, self.next_seed(), False)


class HeuristicBot(Bot):
    kind = "heuristic"
    description = ("plans a whole turn: each candidate is followed by the greedy rest of the turn and judged "
                   "by an estimate of the final score (VP now, money, houses, colonists)")

    def choose(self, game) -> int:
        return core.choose_greedy(game.state, self.next_seed(), True)


_SEARCH_PARAMS = tuple(
    Param(f.name, f.type if isinstance(f.type, type) else {"int": int, "float": float, "str": str, "bool": bool,
                                                           "float | str": float}[f.type], f.default,
          SEARCH_HELP[f.name])
    for f in fields(SearchConfig) if f.name != "seed")


class FlatMCBot(Bot):
    kind = "flatmc"
    description = "flat Monte Carlo: the budget spread over the legal moves, best mean reward wins"
    params = tuple(p for p in _SEARCH_PARAMS if p.name in
                   ("iterations", "seconds", "reward", "mix", "margin_scale", "rollout", "epsilon", "rollout_turns"))

    def choose(self, game) -> int:
        legal = game.legal_moves()
        if len(legal) == 1:
            return legal[0]
        cfg = SearchConfig(**self.options, seed=self.next_seed())
        stats, _ = core.flat_monte_carlo(game.state, cfg.core_dict(players=game.n_players))
        return max(stats, key=lambda s: (s[2], -legal.index(s[0])))[0]


class IsmctsBot(Bot):
    kind = "ismcts"
    description = "Information Set MCTS over the unseen stack order (see SearchConfig)"
    params = _SEARCH_PARAMS

    def choose(self, game) -> int:
        legal = game.legal_moves()
        if len(legal) == 1:
            return legal[0]
        return best_move(game, SearchConfig(**self.options, seed=self.next_seed()))


class PlanBot(Bot):
    kind = "plan"
    description = ("priority rules written in TOML (docs/plans.md): which cards to buy and play, when to build, "
                   "where colonists go; spec plan:NAME (shipped: " + ", ".join(plans.shipped_plans()) +
                   "), plan:FILE.toml or plan:KEY=VALUE,...")
    params = tuple(Param(r.name, r.type, r.default, r.help) for r in plans.RULES)

    def __init__(self, seed: int = 0, **options):
        super().__init__(seed, **options)
        try:
            self.player = PlanPlayer(plans.plan_from_table(options))
        except plans.PlanError as e:
            raise BotSpecError(str(e)) from None

    def choose(self, game) -> int:
        return self.player.choose(game.state, self.next_seed())


BOT_TYPES: dict[str, type[Bot]] = {b.kind: b for b in (RandomBot, GreedyBot, HeuristicBot, FlatMCBot, IsmctsBot,
                                                       PlanBot)}
for _b in (FlatMCBot, IsmctsBot):
    _b.params = tuple(Param(p.name, p.type, getattr(SearchConfig, p.name), p.help) for p in _b.params)


def parse_spec(spec: str) -> tuple[str, dict]:
    """('ismcts', {'iterations': 5000}) from 'ismcts:iterations=5000' or from a TOML file's path."""
    if not isinstance(spec, str) or not spec.strip():
        raise BotSpecError(f"empty bot spec; valid bots: {', '.join(BOT_TYPES)}")
    spec = spec.strip()
    if spec.partition(":")[0].strip().lower() == "plan":   # plans have their own syntax: names, files, lists
        return "plan", _plan_options(plans.parse_plan_spec, spec.partition(":")[2])
    from_file = spec.endswith(".toml")
    if from_file:
        try:
            data = safe_read.read_toml(spec)
        except safe_read.UserFileError as e:
            raise BotSpecError(f"bot file: {e}") from None
        kind = data.pop("type", None)
        if not isinstance(kind, str):
            raise BotSpecError(f"bot file {spec}: needs type = one of {', '.join(BOT_TYPES)}")
        if kind.strip().lower() == "plan":
            return "plan", _plan_options(plans.plan_file_options, data, f"bot file {spec}: ")
        raw = data
    else:
        kind, _, rest = spec.partition(":")
        raw = {}
        for item in filter(None, (x.strip() for x in rest.split(","))):
            key, eq, value = item.partition("=")
            if not eq:
                raise BotSpecError(f"bot spec {spec!r}: {item!r} is not key=value")
            raw[key.strip()] = value.strip()
    kind = kind.strip().lower()
    if kind not in BOT_TYPES:
        raise BotSpecError(f"unknown bot {kind!r}; valid: {', '.join(BOT_TYPES)}")
    cls = BOT_TYPES[kind]
    known = {p.name: p for p in cls.params}
    options = {}
    for key, value in raw.items():
        if key not in known:
            valid = ", ".join(known) or "none"
            raise BotSpecError(f"bot {kind}: unknown parameter {key!r}; valid: {valid}")
        options[key] = _convert(f"bot file {spec}" if from_file else f"bot {kind}", known[key], value)
    if kind in ("ismcts", "flatmc") and options.get("seconds") and "iterations" not in options:
        # a time budget alone means that time: without this the default 5,000 iterations would still stop the
        # search first whenever the time buys more (0.12 s is 10,000-17,000 iterations; before 2026-12-04, 5th
        # session, `ismcts:seconds=0.12` searched at most 5,000 a move)
        options["iterations"] = 0
    if kind in ("ismcts", "flatmc"):
        try:
            SearchConfig(**options)
            for weights in ("value", "policy"):
                if options.get(f"{weights}_weights"):
                    from . import weight_slots      # numpy: only when a spec names weights
                    weight_slots.check(weights, options[f"{weights}_weights"])
        except ConcordiaError as e:
            raise BotSpecError(f"bot {kind}: {e}") from None
    return kind, options


def _plan_options(parse, source, where: str = "") -> dict:
    try:
        return parse(source)
    except plans.PlanError as e:
        raise BotSpecError(f"{where}{e}") from None


_WORDS = {int: "an integer", float: "a number", str: "a string", bool: "true or false"}


def _convert(where: str, param: Param, value):
    """A spec string's value (or a TOML value) as the parameter's type. A TOML bool is no number
    (`iterations = true` is refused); values read from a file are not quoted in messages. A number knob whose
    default is "auto" (SearchConfig's c_puct_log) takes the word auto too."""
    if param.default == "auto" and isinstance(value, str) and value.strip().lower() == "auto":
        return "auto"
    if not isinstance(value, str) or where.startswith("bot file"):
        if param.type is float and isinstance(value, int) and not isinstance(value, bool):
            return float(value)
        if isinstance(value, param.type) and not (param.type is not bool and isinstance(value, bool)):
            return value
        raise BotSpecError(f"{where}: {param.name} must be {_words(param)}")
    try:
        if param.type is bool:
            if value.lower() not in ("true", "false", "1", "0", "yes", "no"):
                raise ValueError
            return value.lower() in ("true", "1", "yes")
        if param.type in (int, float) and len(value) > limits.MAX_NUMBER_CHARS:
            raise ValueError      # int() refuses past 4,300 digits with a ValueError too, but slowly
        return param.type(value)
    except ValueError:
        raise BotSpecError(f"{where}: {param.name}={limits.shown(value)} is not {_words(param)}") from None


def _words(param: Param) -> str:
    return _WORDS[param.type] + (" or auto" if param.default == "auto" and param.type is not str else "")


def spec_meaning(spec: str, players: int) -> dict:
    """What a bot spec plays in a game of `players` players with today's code and weights: its kind and every
    option, a search's as SearchConfig holds them with "auto" resolved (eval, c_puct_log) and the sha256 of
    the learned weights it reads. A log keyed by the spec's text (scripts/strength.py) records this, so that a
    spec whose defaults moved since is not taken for the bot its games were played by."""
    kind, options = parse_spec(spec)
    if kind not in ("ismcts", "flatmc"):
        return dict(kind=kind, **options)
    from dataclasses import asdict
    from . import outcome
    from .search import effective_c_puct_log, effective_eval
    config = SearchConfig(**options)
    out = dict(kind=kind, **{k: v for k, v in asdict(config).items() if k != "seed"})
    out["eval"] = effective_eval(config.eval, players)
    out["c_puct_log"] = effective_c_puct_log(config.c_puct_log, players)
    if out["eval"] == "net":
        out["value_sha256"] = outcome.current_sha("value", config.value_weights)
    if config.reads_prior:
        out["policy_sha256"] = outcome.current_sha("policy", config.policy_weights)
    return out


def meaning_changes(then: dict, now: dict) -> list[str]:
    """The options where two spec_meaning answers differ, as 'name A -> B' (sorted by name). A search knob that
    `then` lacks was added after it was recorded: it meant the value the search had then (the knob's default
    when it was added: outcome.recorded_knob), so a log is not refused for a knob that changed nothing."""
    from dataclasses import fields
    from . import outcome
    then = dict(then)
    if then.get("kind") in ("ismcts", "flatmc"):
        for f in fields(SearchConfig):
            # eval and c_puct_log are recorded as they resolved, never missing; seed is not recorded
            if f.name not in then and f.name in now and f.name not in ("seed", "eval", "c_puct_log"):
                then[f.name] = outcome.recorded_knob(then, f.name)
    keys = sorted(set(then) | set(now))
    return [f"{k} {then.get(k, '(none)')} -> {now.get(k, '(none)')}" for k in keys if then.get(k) != now.get(k)]


def make_bot(spec: str, seed: int = 0) -> Bot:
    kind, options = parse_spec(spec)
    return BOT_TYPES[kind](seed=seed, **options)


def describe_bots() -> list[dict]:
    """The bot types with their parameters and defaults (for `concordia bots`)."""
    return [dict(name=k, description=c.description,
                 params=[dict(name=p.name, type=p.type.__name__, default=p.default, help=p.help) for p in c.params])
            for k, c in BOT_TYPES.items()]


# The rules let a game go on forever (nobody has to buy or build). Real games last 15-25 turns per player and
# random ones about 65; a game still running after this many turns is stopped and scored as it stands.
MAX_TURNS = 2000


@dataclass
class PlayedGame:
    game: object
    moves: list[int]
    texts: list[str]          # the moves in notation (a text depends on the state it was played in)
    think: list[float]        # seconds each seat spent choosing (by `clock`)
    truncated: bool           # stopped at MAX_TURNS and scored as it stood (not when `until` stopped it)


def play_game(bots: list[Bot], board: str = "imperium", seed: int = 0, max_turns: int = MAX_TURNS,
              record_texts: bool = False, watch=None, until=None, clock=None, game=None,
              **game_options) -> PlayedGame:
    """Play one simulated game, seat i played by bots[i]: the one game loop of tournaments, research and
    the scripts. With record_texts, also the moves in notation.

    watch: an object with optional `before(state)` (called before every decision) and `move(state, move)`
    (after the choice, before it is applied), e.g. to record positions or purchases.
    until: a predicate on the game, checked before every decision; true stops the game there (a position
    taken from a game in progress). clock: the timer of `think` (default time.perf_counter; CPU time with
    time.process_time). game: a game to continue instead of a new deal of `board` and `seed`."""
    import time

    from ..engine.game import Game
    if game is None:
        game = Game.new(board, len(bots), seed, **game_options)
    clock = clock or time.perf_counter
    before = getattr(watch, "before", None)
    after = getattr(watch, "move", None)
    moves, texts, think = [], [], [0.0] * len(bots)
    stopped = False
    while not game.is_over and game.state.turns < max_turns:
        if until is not None and until(game):
            stopped = True
            break
        if before is not None:
            before(game.state)
        seat = game.decider
        t0 = clock()
        move = bots[seat].choose(game)
        think[seat] += clock() - t0
        if record_texts:
            texts.append(game.text(move))
        if after is not None:
            after(game.state, move)
        game.state.apply(move)
        moves.append(move)
    return PlayedGame(game, moves, texts, think, not game.is_over and not stopped)
