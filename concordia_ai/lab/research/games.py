"""Research games: seat-rotated self-play with a record of every purchase, and paired intervention games.

    >>> cfg = ResearchConfig.create("selfplay", bot="heuristic", players=3, board="italia", games=30)
    >>> records = run(cfg, "runs/italia-3p", jobs=2)

Schedule (as in tournaments, see concordia_ai.lab.tournament): games come in seed blocks of P games
(P = players) on one game seed; game (block b, rotation r) gives seat s the bot seed
derive_seed(seed, b, r, s). Every seat is played by the same bot spec; the rotation replays the
block's deal with other bot seeds, and in an intervention it picks the treated seat (seat r), so
the treatment visits every seat once per block. An intervention game is keyed (card, block,
rotation, arm) and its seeds do not depend on the card or the arm: both arms of a pair, and the
experiments on different cards, play the same deals against the same opponents.

Files in OUT: `research.json` (the configuration) and `games.jsonl` (one record per finished game,
appended and fsync'ed by the parent process as each game ends; written by the tournament log's
functions). `--resume` plays exactly the keys missing from the log.
"""
from __future__ import annotations

import json
import math
import os
import time
from dataclasses import asdict, dataclass, field

from ...engine import limits, vocabulary
from ... import core
from .. import runner
from ...ai.bots import make_bot, play_game
from ...engine.content import BOARD_NAMES
from ...engine.errors import ConcordiaError
from ...io import safe_read
from ...io.atomic_write import write_atomic
from .. import jobs as _jobs
from ..tournament import TournamentError, canonical_spec, derive_seed, discard_created, make_folders, read_log
from . import godvalue
from .afford import affordable_cards, purchase, turn_starts
from .policy import ARMS, Intervention

CONFIG_NAME = "research.json"
LOG_NAME = "games.jsonl"
FORMAT = "concordia-research"
VERSION = 1
EXPERIMENTS = ("selfplay", "intervene")
CHECK_ROUNDS = (5, 10, 15, 20, 25, 30)     # a seat's k-th turn: where the marginal VP of a god is taken
DEFAULT_BOT = "ismcts"                     # the default search (value model at the cut-off, visit floor 0.2)


class ResearchError(ConcordiaError):
    """A bad research request or an unusable run folder; the message names the option."""


def market_kinds(players: int = 5) -> list[int]:
    """Card kinds sold on the market of a P-player game (decks I to P), in the rules' order."""
    return sorted({m.kind for m in vocabulary.rules().market if m.deck < players})


def kind_label(kind: int) -> str:
    return vocabulary.rules().kinds[kind].label


def resolve_cards(names, players: int) -> tuple[str, ...]:
    """Market card kinds of a P-player game named by the user ('all' for every one), as their labels."""
    labels = [kind_label(k) for k in market_kinds(players)]
    every = [kind_label(k) for k in market_kinds()]
    out = []
    for name in names:
        key = str(name).strip().lower()
        if key == "all":
            out += labels
            continue
        found = [lb for lb in every if lb.lower() == key] or \
                [lb for lb in every if lb.lower().startswith(key) or lb.split("/")[0].lower() == key]
        if len(found) != 1:
            what = "ambiguous" if found else "unknown"
            raise ResearchError(f"--card: {what} card {name!r}; valid: {', '.join(labels)}, or all")
        if found[0] not in labels:
            raise ResearchError(f"--card: {found[0]} is not in the decks of a {players}-player game; valid: "
                                f"{', '.join(labels)}, or all")
        out.append(found[0])
    return tuple(dict.fromkeys(out))


# ---------------------------------------------------------------- configuration

@dataclass(frozen=True)
class ResearchConfig:
    experiment: str                 # selfplay or intervene
    bot: str                        # canonical bot spec, every seat
    players: int = 4
    board: str = "imperium"
    seed: int = 0
    games: int = 0                  # selfplay: games; intervene: pairs per card (whole blocks)
    cards: tuple[str, ...] = ()     # intervene: the card kinds treated
    from_round: int = 1             # intervene: the treatment starts at the seat's first chance from its k-th turn
    game_options: dict = field(default_factory=dict)

    @classmethod
    def create(cls, experiment: str, bot: str = DEFAULT_BOT, players: int = 4, board: str = "imperium",
               seed: int = 0, games: int | None = None, cards=(), from_round: int = 1,
               **game_options) -> "ResearchConfig":
        if experiment not in EXPERIMENTS:
            raise ResearchError(f"experiment {experiment!r}; valid: {', '.join(EXPERIMENTS)}")
        try:
            spec = canonical_spec(bot)
        except TournamentError as e:
            raise ResearchError(f"--bot: {e}") from None
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= core.MAX_PLAYERS:
            raise ResearchError(f"--players: {players!r}; a game has 2 to {core.MAX_PLAYERS} players")
        if not isinstance(board, str) or board.strip().lower() not in BOARD_NAMES:
            raise ResearchError(f"--map: unknown map {board!r}; valid: {', '.join(BOARD_NAMES)}")
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2 ** 63:
            raise ResearchError(f"--seed: {seed!r} must be an integer in 0..2^63-1")
        if games is None:
            games = 100 * players if experiment == "selfplay" else 10 * players
        if isinstance(games, bool) or not isinstance(games, int) or games < 1:
            raise ResearchError(f"--games: {limits.shown(games)} must be a positive number of games")
        try:     # before any key is built: 10^12 games would be 10^12 keys
            limits.RESEARCH_GAMES.check(games, "--games")
        except limits.LimitError as e:
            raise ResearchError(str(e)) from None
        cards = resolve_cards(cards, players) if cards else ()
        total = math.ceil(games / players) * players * (len(cards) * len(ARMS) if experiment == "intervene" else 1)
        if total > limits.RESEARCH_GAMES.high:
            raise ResearchError(f"--games: {games:,} pairs for {len(cards)} card{'s' if len(cards) > 1 else ''} "
                                f"are {total:,} games; a run plays at most {limits.RESEARCH_GAMES.high:,} "
                                f"(fewer --games or fewer --card)")
        if experiment == "intervene" and not cards:
            raise ResearchError("--card: name the card to force and forbid (e.g. --card Weaver), or all")
        if isinstance(from_round, bool) or not isinstance(from_round, int) or from_round < 1:
            raise ResearchError(f"--from-turn: {from_round!r} must be a turn number >= 1 (the seat's own turns)")
        if experiment != "intervene" and from_round != 1:
            raise ResearchError("--from-turn is for research intervene")
        for key in game_options:
            if key not in ("wine_variant", "intermediate_scoring"):
                raise ResearchError(f"game option {key!r}; valid: wine_variant, intermediate_scoring")
        games = math.ceil(games / players) * players
        return cls(experiment, spec, players, board.strip().lower(), seed, games, cards, from_round,
                   {k: bool(v) for k, v in game_options.items() if v})

    @property
    def blocks(self) -> int:
        return self.games // self.players

    def to_json(self) -> dict:
        d = asdict(self)
        d["cards"] = list(self.cards)
        d["map"] = d.pop("board")
        return dict(format=FORMAT, version=VERSION, **d)

    @classmethod
    def from_json(cls, data, where: str) -> "ResearchConfig":
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ResearchError(f"{where}: not a research configuration (format {FORMAT!r})")
        try:
            return cls.create(data["experiment"], data["bot"], data["players"], data["map"], data["seed"],
                              data["games"], data.get("cards") or (), data.get("from_round", 1),
                              **(data.get("game_options") or {}))
        except (KeyError, TypeError) as e:
            raise ResearchError(f"{where}: missing or bad field {e}") from None

    # -------------------------------------------------------- schedule
    def task(self, block: int, rotation: int, card: str | None = None, arm: str | None = None) -> dict:
        p = self.players
        t = dict(experiment=self.experiment, block=block, rotation=rotation, players=p, board=self.board,
                 seed=derive_seed(self.seed, block),
                 seats=[dict(bot="bot", spec=self.bot, seed=derive_seed(self.seed, block, rotation, s))
                        for s in range(p)],
                 game_options=dict(self.game_options))
        if self.experiment == "selfplay":
            t["index"] = block * p + rotation
        else:
            t.update(card=card, arm=arm, treated=rotation, from_round=self.from_round)
        return t

    def keys(self) -> list[tuple]:
        """Every game of the run, in the order they are played (a partial run covers every card)."""
        if self.experiment == "selfplay":
            return [(b, r) for b in range(self.blocks) for r in range(self.players)]
        return [(c, b, r, a) for b in range(self.blocks) for c in self.cards for r in range(self.players)
                for a in ARMS]

    def task_of(self, key: tuple) -> dict:
        return self.task(*key) if self.experiment == "selfplay" else self.task(key[1], key[2], key[0], key[3])


def record_key(rec: dict) -> tuple:
    if rec.get("experiment") == "intervene":
        return rec["card"], rec["block"], rec["rotation"], rec["arm"]
    return rec["block"], rec["rotation"]


# ---------------------------------------------------------------- one game (runs in a worker)

class PurchaseLog:
    """Watches a game: every turn in which the turn's seat could buy or bought a market card, and the
    marginal VP of each god for a seat at its k-th turns (CHECK_ROUNDS) and at the end."""

    def __init__(self, players: int, checkpoints: bool = True):
        self.rounds = [0] * players
        self.turns: list[dict] = []
        self.marginal: dict[str, list] = {}
        self.checkpoints = checkpoints
        self._turn: dict | None = None

    def before(self, state) -> None:
        if not turn_starts(state):
            return
        seat = state.turn_player
        self.rounds[seat] += 1
        self._turn = dict(t=state.turns, seat=seat, round=self.rounds[seat], afford=affordable_cards(state),
                          buys=[])
        if self._turn["afford"]:
            self.turns.append(self._turn)
        k = self.rounds[seat]
        if self.checkpoints and k in CHECK_ROUNDS:
            row = self.marginal.setdefault(str(k), [None] * len(self.rounds))
            row[seat] = godvalue.marginal_vp(state, [seat])[seat]

    def move(self, state, move: int) -> None:
        bought = purchase(state, move)
        if bought is not None:
            self._turn["buys"].append([bought[0], bought[1], core.PHASES[state.phase]])

    def finish(self, state) -> None:
        if self.checkpoints:
            vp = godvalue.marginal_vp(state, range(len(self.rounds)))
            self.marginal["end"] = [vp[s] for s in range(len(self.rounds))]


def play_task(task: dict) -> dict:
    """Play one scheduled research game and return its log record (top-level, plain data: for loky/Dask)."""
    t0 = time.perf_counter()
    p = task["players"]
    bots = [make_bot(s["spec"], seed=s["seed"]) for s in task["seats"]]
    policy = None
    if task["experiment"] == "intervene":
        kind = next(k for k in market_kinds() if kind_label(k) == task["card"])
        policy = bots[task["treated"]] = Intervention(bots[task["treated"]], kind, task["arm"],
                                                      task.get("from_round", 1))
    watch = PurchaseLog(p, checkpoints=task["experiment"] == "selfplay")
    played = play_game(bots, task["board"], task["seed"], watch=watch, **task.get("game_options", {}))
    game, moves = played.game, played.moves
    watch.finish(game.state)
    ranking = game.ranking()
    ranks = [0] * p
    for place, seat in enumerate(ranking, 1):
        ranks[seat] = place
    keys = ["experiment", "block", "rotation", "seed", "board", "players", "seats"]
    keys += ["index"] if policy is None else ["card", "arm", "treated"]
    rec = {k: task[k] for k in keys}
    rec.update(scores=game.scores(), ranking=ranking, ranks=ranks, game_turns=game.state.turns,
               rounds=watch.rounds, purchases=watch.turns, moves=moves,
               duration=round(time.perf_counter() - t0, 4))
    if watch.checkpoints:
        rec["marginal"] = watch.marginal
    if policy is not None:
        rec["trigger"], rec["forced"] = policy.trigger, policy.forced
    if not game.is_over:
        rec["truncated"] = True
    if task.get("game_options"):
        rec["game_options"] = task["game_options"]
    return rec


# ---------------------------------------------------------------- the run folder

OPTION_OF = {"experiment": "the command", "bot": "--bot", "players": "--players", "map": "--map",
             "seed": "--seed", "cards": "--card", "from_round": "--from-turn", "game_options": "game options"}


def load_config(out: str) -> ResearchConfig:
    path = os.path.join(out, CONFIG_NAME)
    try:
        data = safe_read.read_json(path)
    except safe_read.UserFileError as e:
        raise ResearchError(f"cannot read the research configuration: {e}") from None
    return ResearchConfig.from_json(data, path)


def load_records(out: str, config: ResearchConfig | None = None, repair: bool = False) -> list[dict]:
    """The log's records, one per key (a repeated key keeps its first record), limited to the config's keys."""
    path = os.path.join(out, LOG_NAME)
    if not os.path.exists(path):
        return []
    try:
        records = read_log(path, repair=repair)
    except TournamentError as e:
        raise ResearchError(str(e)) from None
    wanted = set(config.keys()) if config is not None else None
    seen, out_records = set(), []
    for rec in records:
        key = record_key(rec)
        if key in seen or (wanted is not None and key not in wanted):
            continue
        seen.add(key)
        out_records.append(rec)
    return out_records


def prepare(config: ResearchConfig, out: str, resume: bool,
            given: dict | None = None) -> tuple[ResearchConfig, list, list[str]]:
    """Create OUT for a new run, or check it for --resume; returns the config, the logged records, and
    what this call created (innermost first, for tournament.discard_created when the run fails to start).

    On resume, `given` holds the options the user gave (None: not given); each must equal the logged
    one, except games, which may extend or shorten the run."""
    cfg_path = os.path.join(out, CONFIG_NAME)
    if os.path.exists(out) and not os.path.isdir(out):
        raise ResearchError(f"--out: {out} is a file; give a folder for the research run")
    for name in (CONFIG_NAME, LOG_NAME, "report.json", "report.md", "plots"):
        if os.path.islink(os.path.join(out, name)):
            raise ResearchError(f"--out: {os.path.join(out, name)} is a symbolic link; a research run writes only "
                                f"files of its own in {out} (remove the link or choose another --out)")
    exists = os.path.exists(cfg_path) or os.path.exists(os.path.join(out, LOG_NAME))
    if exists and not resume:
        n = len(load_records(out))
        raise ResearchError(f"--out: {out} already holds a research run ({n} games logged); pass --resume to "
                            f"continue it, or choose another --out")
    created: list[str] = []
    if resume:
        if not os.path.exists(cfg_path):
            raise ResearchError(f"--resume: no research run in {out} to resume (no {CONFIG_NAME})")
        saved = load_config(out)
        merged = saved.to_json()
        for key, value in (given or {}).items():
            if value is None:
                continue
            if key == "games":
                merged["games"] = value
                continue
            if key == "cards":
                value = list(resolve_cards(value, merged["players"]))
            if key == "bot":
                value = ResearchConfig.create(saved.experiment, value).bot
            if merged[key] != value:
                raise ResearchError(f"--resume: {OPTION_OF[key]} differs from the run logged in {out} "
                                    f"({key} = {json.dumps(merged[key])}); leave it out to reuse the logged one")
        config = ResearchConfig.from_json(merged, cfg_path)
        records = load_records(out, config, repair=True)
    else:
        try:
            created = make_folders(out)
        except TournamentError as e:
            raise ResearchError(str(e)) from None
        records = []
    try:
        write_json(cfg_path, config.to_json())
    except ResearchError:
        discard_created(created)
        raise
    if not resume:
        created.insert(0, cfg_path)
    return config, records, created


def write_json(path: str, data) -> None:
    """Write a JSON file whole or not at all (atomic_write: a new temporary file renamed over it, so a
    planted `*.tmp` link or a link at `path` is never written through)."""
    try:
        write_atomic(path, json.dumps(data, indent=1) + "\n")
    except OSError as e:
        raise ResearchError(f"--out: cannot write {path}: {e.strerror or e}") from None


def run(config: ResearchConfig, out: str, jobs: int = 1, resume: bool = False, backend: str = "loky",
        scheduler: str | None = None, progress: bool = False, given: dict | None = None,
        limit: int | None = None, tls: dict | None = None) -> tuple[ResearchConfig, list[dict], int]:
    """Play the missing games into OUT; returns (config, every record of the run, games played now).
    `limit` stops after that many new games (to test an interrupted run); `tls` as for tournaments."""
    if backend not in runner.BACKENDS:
        raise ResearchError(f"--backend: {backend!r}; valid: {', '.join(runner.BACKENDS)}")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ResearchError(f"--jobs: {jobs!r} must be a positive number of parallel games")
    config, _, created = prepare(config, out, resume, given)      # checks the folder and repairs a torn log
    log = os.path.join(out, LOG_NAME)
    try:
        tasks = [config.task_of(k) for k in config.keys()]
        records, new = _jobs.run_logged(play_task, tasks, record_key, log, jobs, backend,
                                        scheduler, tls, f"research {config.experiment}" if progress else None,
                                        limit)
    except _jobs.JobError as e:
        discard_new_run(created, log)
        raise ResearchError(str(e)) from None
    except BaseException:
        discard_new_run(created, log)
        raise
    return config, records, new


def discard_new_run(created: list[str], log: str) -> None:
    """A new run that failed before its first game (an unreachable scheduler, Ctrl-C) leaves nothing
    behind, so the same command is not then refused as 'already holds a research run'."""
    if created and (not os.path.exists(log) or os.path.getsize(log) == 0):
        discard_created([log] + created)
