"""Tournaments between bot specs: seat rotation on shared seeds, parallel games, a crash-safe JSONL log.

    >>> cfg = TournamentConfig.create({"mcts": "ismcts:iterations=1000", "heur": "heuristic"}, players=2, games=8)
    >>> summary = run(cfg, "results/mcts-vs-heur", jobs=2)

Schedule. Games come in seed blocks: every game of block b uses the same game seed (same city goods,
same stack order), and the block's `players` games rotate the block's lineup through every seat
(rotation r puts lineup[(s - r) % P] in seat s), so each bot sits in each seat equally often on the
same deals. The lineup: the bots themselves when there are as many as seats; repeated in turn when
there are fewer (for an SPRT between two bots with more than two seats: the candidate against copies
of the baseline); when there are more bots than seats, a balanced draw (`balanced_lineups`): after
every block, each bot has played in as many blocks as any other, give or take one, and pairs of bots
meet as evenly as the greedy choice allows, so a tournament stopped early is still fair. (Configs
written before this schedule existed carry no `order` field and keep their b-th-combination order.) A game is identified by (block, rotation); its index
is block * players + rotation, and every seed derives from the tournament seed and that key, so a
game is reproducible alone and a resumed run plays exactly the games still missing.

Log (`OUT/games.jsonl`): one JSON object per finished game, appended and fsync'ed at once by the
parent process (a killed run loses only the games in flight). `OUT/tournament.json` holds the
configuration; `--resume` checks it and plays the missing games. A torn last line (a kill during a
write) is cut off on resume.

Files (io/atomic_write.py): tournament.json is replaced atomically, the log is appended and repaired only as a
regular file of OUT (a symlink there is refused, never followed). A run that fails before its first
game is logged removes what it created (a rerun is not refused as "already holds a tournament").
Workers (loky or local Dask) end when the parent process ends (concordia_ai.lab.workers).
"""
from __future__ import annotations

import functools
import hashlib
import itertools
import json
import math
import os
import time
from dataclasses import asdict, dataclass, field

from ..engine import limits
from . import runner, ratings
from ..io.jsonl import append_record, parse_object, read_records
from ..io import safe_read
from ..io.atomic_write import open_append, write_atomic
from ..ai import weight_slots
from ..ai.bots import BotSpecError, make_bot, meaning_changes, parse_spec, play_game, spec_meaning
from ..engine.content import BOARD_NAMES
from ..engine.errors import ConcordiaError

LOG_NAME = "games.jsonl"
CONFIG_NAME = "tournament.json"
FORMAT = "concordia-tournament"
VERSION = 1
ORDERS = ("balanced", "lexicographic")    # lineups when there are more bots than seats


class TournamentError(ConcordiaError):
    """A bad tournament request or an unusable log; the message names the field."""


# ---------------------------------------------------------------- configuration

@dataclass(frozen=True)
class BotEntry:
    name: str
    spec: str          # canonical spec string (kind:key=value,...)


def canonical_spec(spec) -> str:
    """Validate a spec (string, or a dict with `type` from a TOML table) and return it as one string."""
    if isinstance(spec, dict):
        spec = dict(spec)
        kind = spec.pop("type", None)
        if not isinstance(kind, str):
            raise TournamentError(f"bot table {spec!r}: needs type = \"ismcts\" (or another bot type)")
        spec = kind + (":" + ",".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}"
                                      for k, v in spec.items()) if spec else "")
    if not isinstance(spec, str):
        raise TournamentError(f"bot spec {spec!r} is not a string")
    try:
        kind, options = parse_spec(spec)
    except BotSpecError as e:
        raise TournamentError(str(e)) from None
    if spec.strip().endswith(".toml"):   # keep the file's content, not its path, in the log
        return kind + (":" + ",".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}"
                                      for k, v in options.items()) if options else "")
    return spec.strip()


@dataclass(frozen=True)
class TournamentConfig:
    bots: tuple[BotEntry, ...]
    players: int = 4
    board: str = "imperium"
    seed: int = 0
    games: int = 32                       # rounded up to whole blocks
    sprt: tuple[float, float] | None = None
    game_options: dict = field(default_factory=dict)
    order: str = "balanced"               # lineups with more bots than seats; see balanced_lineups

    @classmethod
    def create(cls, bots, players: int | None = None, board: str = "imperium", seed: int = 0,
               games: int | None = None, sprt=None, order: str = "balanced", **game_options) -> "TournamentConfig":
        """Check everything and build a config; `bots` is {name: spec} or [(name, spec)]."""
        items = list(bots.items()) if isinstance(bots, dict) else list(bots)
        if not items:
            raise TournamentError("give at least two bots (--bot NAME=SPEC)")
        entries = []
        for name, spec in items:
            name = str(name).strip()
            if not name or any(c in name for c in ",=\n"):
                raise TournamentError(f"--bot: bad bot name {name!r} (use letters, digits, - or _)")
            if name in [e.name for e in entries]:
                raise TournamentError(f"--bot: the name {name!r} is used twice; give each bot a distinct NAME=")
            try:
                entries.append(BotEntry(name, canonical_spec(spec)))
            except TournamentError as e:
                raise TournamentError(f"--bot {name}: {e}") from None
        if len(entries) < 2:
            raise TournamentError(f"--bot: a tournament needs at least two bots, got {len(entries)}")
        try:
            weight_slots.check_count([parse_spec(e.spec)[1] for e in entries])
        except weight_slots.WeightSlotsError as e:
            raise TournamentError(f"--bot: {e}") from None
        if players is None:
            players = min(max(len(entries), 2), 4) if sprt is None else 2
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 5:
            raise TournamentError(f"--players: {players!r}; a game has 2 to 5 players")
        if not isinstance(board, str) or board.strip().lower() not in BOARD_NAMES:
            raise TournamentError(f"--map: unknown map {board!r}; valid: {', '.join(BOARD_NAMES)}")
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= limits.SEED_MAX:
            raise TournamentError(f"--seed: {limits.shown(seed)} must be {limits.SEED.valid}")
        if sprt is not None:
            if not isinstance(sprt, (list, tuple)) or len(sprt) != 2 or not all(
                    isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) for x in sprt) \
                    or not sprt[0] < sprt[1]:
                raise TournamentError(f"--sprt: {sprt!r}; give ELO0,ELO1 with ELO0 < ELO1, e.g. 0,50")
            if len(entries) != 2:
                raise TournamentError(f"--sprt compares exactly two bots (candidate first); {len(entries)} given")
            sprt = (float(sprt[0]), float(sprt[1]))
        if games is None:
            games = 1000 * players if sprt else 8 * players
        if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= limits.TOURNAMENT_GAMES.high:
            raise TournamentError(f"--games: {limits.shown(games)} must be {limits.TOURNAMENT_GAMES.valid}")
        if order not in ORDERS:
            raise TournamentError(f"order: {limits.shown(order)}; valid: {', '.join(ORDERS)}")
        games = math.ceil(games / players) * players
        return cls(tuple(entries), players, board.strip().lower(), seed, games, sprt, dict(game_options), order)

    # -------------------------------------------------------- schedule
    @property
    def blocks(self) -> int:
        return self.games // self.players

    def lineup(self, block: int) -> list[int]:
        n, p = len(self.bots), self.players
        if self.sprt is not None:
            return [0] + [1] * (p - 1)
        if n <= p:
            return [i % n for i in range(p)]
        if self.order == "balanced":
            return balanced_lineups(n, p, block + 1)[block]
        combos = list(itertools.combinations(range(n), p))
        return list(combos[block % len(combos)])

    def task(self, block: int, rotation: int) -> dict:
        p = self.players
        line = self.lineup(block)
        seats = [line[(s - rotation) % p] for s in range(p)]
        return dict(block=block, rotation=rotation, index=block * p + rotation, players=p, board=self.board,
                    seed=derive_seed(self.seed, block),
                    seats=[dict(bot=self.bots[b].name, spec=self.bots[b].spec,
                                seed=derive_seed(self.seed, block, rotation, s)) for s, b in enumerate(seats)],
                    game_options=dict(self.game_options))

    def tasks(self, skip: set[tuple[int, int]] = frozenset()) -> list[dict]:
        return [self.task(b, r) for b in range(self.blocks) for r in range(self.players) if (b, r) not in skip]

    # -------------------------------------------------------- files
    def to_json(self) -> dict:
        return dict(format=FORMAT, version=VERSION, bots=[asdict(b) for b in self.bots], players=self.players,
                    map=self.board, seed=self.seed, games=self.games,
                    sprt=list(self.sprt) if self.sprt else None, game_options=self.game_options,
                    order=self.order)

    @classmethod
    def from_json(cls, data: dict, where: str = "tournament.json") -> "TournamentConfig":
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise TournamentError(f"{where}: not a tournament configuration (format {FORMAT!r})")
        try:
            return cls.create([(b["name"], b["spec"]) for b in data["bots"]], data["players"], data["map"],
                              data["seed"], data["games"], data.get("sprt"),
                              data.get("order", "lexicographic"), **(data.get("game_options") or {}))
        except (KeyError, TypeError) as e:
            raise TournamentError(f"{where}: missing or bad field {e}") from None

    def same_match(self, other: "TournamentConfig") -> str | None:
        """The first field (other than the number of games) in which two configs differ, or None."""
        a, b = self.to_json(), other.to_json()
        for key in ("bots", "players", "map", "seed", "sprt", "game_options", "order"):
            if a[key] != b[key]:
                return key
        return None


@functools.lru_cache(maxsize=8)
def _lineup_table(n: int, p: int, blocks: int) -> tuple[tuple[int, ...], ...]:
    counts = [0] * n
    met = [[0] * n for _ in range(n)]
    combos = list(itertools.combinations(range(n), p)) if math.comb(n, p) <= 5000 else None
    table = []
    for block in range(blocks):
        if combos is not None:
            # the whole lineup at once: fewest blocks played in total, then fewest meetings among its
            # bots; the rotating tie-break spreads the choice over equal lineups
            k = len(combos)
            best = min(range(k), key=lambda c: (sum(counts[i] for i in combos[c]),
                                                sum(met[i][j] for i, j in itertools.combinations(combos[c], 2)),
                                                (c - block * 7919) % k))
            chosen = list(combos[best])
        else:
            chosen = []
            for _ in range(p):      # too many lineups to compare: the same rule bot by bot
                pick = min((i for i in range(n) if i not in chosen),
                           key=lambda i: (counts[i], sum(met[i][j] for j in chosen), (i - block) % n))
                chosen.append(pick)
        for i in chosen:
            counts[i] += 1
            for j in chosen:
                if j != i:
                    met[i][j] += 1
        table.append(tuple(sorted(chosen)))
    return tuple(table)


def balanced_lineups(n: int, p: int, blocks: int) -> list[list[int]]:
    """The lineups of the first `blocks` blocks when n bots share p < n seats. Block by block each bot
    lineup is the one whose bots have played the fewest blocks, then whose bots have met least, so the
    numbers of blocks played never differ by more than one, whatever the prefix (above 5,000 possible
    lineups the choice is made bot by bot with the same rule). Lineups may repeat."""
    size = 64
    while size < blocks:
        size *= 2               # grow the cached table in doublings (a prefix of a longer table is the same)
    return [list(t) for t in _lineup_table(n, p, size)[:blocks]]


def derive_seed(*parts: int) -> int:
    """A 63-bit seed from integers (stable across platforms and Python versions)."""
    digest = hashlib.blake2b("/".join(str(int(p)) for p in parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little") >> 1


# ---------------------------------------------------------------- one game (runs in a worker)

def play_task(task: dict) -> dict:
    """Play one scheduled game and return its log record. Top-level and plain-data, for loky and Dask."""
    t0 = time.perf_counter()
    bots = [make_bot(s["spec"], seed=s["seed"]) for s in task["seats"]]
    played = play_game(bots, task["board"], task["seed"], record_texts=True, **task.get("game_options", {}))
    game, think, moves = played.game, played.think, played.texts
    ranking = game.ranking()
    ranks = [0] * task["players"]
    for place, seat in enumerate(ranking, 1):
        ranks[seat] = place
    rec = {k: task[k] for k in ("block", "rotation", "index", "seed", "board", "players")}
    rec.update(seats=task["seats"], moves=moves, scores=game.scores(), ranking=ranking, ranks=ranks,
               winner=task["seats"][ranking[0]]["bot"], think=[round(x, 4) for x in think],
               duration=round(time.perf_counter() - t0, 4))
    if played.truncated:
        rec["truncated"] = True
    if task.get("game_options"):
        rec["game_options"] = task["game_options"]
    return rec


# ---------------------------------------------------------------- the log

def read_log(path: str, repair: bool = False) -> list[dict]:
    """Game records of a log. A torn last line (no newline at the end: a kill during a write) is
    ignored, and cut off with repair=True; a bad line elsewhere is an error naming its number."""
    return read_records(path, _record, repair, TournamentError, "game record")


def _record(raw: bytes) -> dict:
    """One log line as a game record, every field that `rate` reads checked (type and size)."""
    rec = parse_object(raw)
    missing = [k for k in _RECORD_FIELDS if k not in rec]
    if missing:
        raise ValueError(f"missing {', '.join(missing)}")
    p = rec["players"]

    def ints(value, lo, hi):
        return isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi

    checks = [
        (ints(p, 2, 5), "players is not 2..5"),
        (ints(rec["block"], 0, 2 ** 40) and ints(rec["rotation"], 0, 4), "block or rotation is not a game key"),
        (isinstance(rec["board"], str), "board is not a string"),
        (isinstance(rec["seats"], list) and len(rec["seats"]) == p and all(
            isinstance(x, dict) and isinstance(x.get("bot"), str) and isinstance(x.get("spec"), str)
            for x in rec["seats"]), "seats is not one {bot, spec} per player"),
        (isinstance(rec["scores"], list) and len(rec["scores"]) == p and all(
            isinstance(x, dict) and isinstance(x.get("total"), (int, float)) and not isinstance(x.get("total"), bool)
            for x in rec["scores"]), "scores is not one score with a total per player"),
        (isinstance(rec["ranks"], list) and len(rec["ranks"]) == p and all(ints(x, 1, p) for x in rec["ranks"]),
         "ranks is not one rank 1..players per player"),
        (isinstance(rec["ranking"], list) and sorted(x if ints(x, 0, p - 1) else -1 for x in rec["ranking"])
         == list(range(p)), "ranking is not an order of the seats"),
        ("think" not in rec or (isinstance(rec["think"], list) and len(rec["think"]) == p and all(
            isinstance(x, (int, float)) and not isinstance(x, bool) for x in rec["think"])),
         "think is not one number per player"),
    ]
    for ok, message in checks:
        if not ok:
            raise ValueError(message)
    return rec


_RECORD_FIELDS = ("block", "rotation", "players", "board", "seats", "scores", "ranks", "ranking")


def unique_records(records: list[dict]) -> list[dict]:
    seen = set()
    out = []
    for rec in records:
        key = (rec["block"], rec["rotation"])
        if key not in seen:
            seen.add(key)
            out.append(rec)
    return out


# ---------------------------------------------------------------- running

OPTION_OF = {"bots": "--bot", "players": "--players", "map": "--map", "seed": "--seed", "sprt": "--sprt",
             "game_options": "game options"}


def build_config(spec: dict) -> TournamentConfig:
    """A config from a dict with keys bots ({name: spec} or [(name, spec)]), players, map, seed, games, sprt."""
    if isinstance(spec, TournamentConfig):
        return spec
    spec = dict(spec)
    if "bots" not in spec or not spec["bots"]:
        raise TournamentError("give the bots with --bot NAME=SPEC (or --config FILE.toml)")
    return TournamentConfig.create(spec.pop("bots"), spec.pop("players", None), spec.pop("map", "imperium"),
                                   spec.pop("seed", 0), spec.pop("games", None), spec.pop("sprt", None),
                                   **spec.pop("game_options", {}))


def prepare(spec: dict | TournamentConfig, out: str,
            resume: bool) -> tuple[TournamentConfig, list[dict], list[str]]:
    """Create or check OUT; returns the config to use, the records already logged, and what this call
    created (files and folders, innermost first, for `discard_created`).

    On resume, the fields that `spec` leaves out are taken from OUT/tournament.json; a field it gives
    must equal the logged one (except games: a resumed tournament may be extended or shortened)."""
    cfg_path, log_path = os.path.join(out, CONFIG_NAME), os.path.join(out, LOG_NAME)
    if os.path.exists(out) and not os.path.isdir(out):
        raise TournamentError(f"--out: {out} is a file; give a folder for the tournament log")
    for path in (cfg_path, log_path):
        if os.path.islink(path):
            raise TournamentError(f"--out: {path} is a symbolic link; a tournament writes only files of its own "
                                  f"in {out} (remove the link or choose another --out)")
    created: list[str] = []
    if os.path.exists(cfg_path) or os.path.exists(log_path):
        if not resume:
            n = len(read_log(log_path)) if os.path.exists(log_path) else 0
            raise TournamentError(f"--out: {out} already holds a tournament ({n} games logged); pass --resume to "
                                  f"continue it, or choose another --out")
        try:
            saved_json = safe_read.read_json(cfg_path)
        except safe_read.UserFileError as e:
            raise TournamentError(f"--resume: {e}") from None
        saved = TournamentConfig.from_json(saved_json, cfg_path)
        spec = spec.to_json() if isinstance(spec, TournamentConfig) else dict(spec)
        merged = dict(bots=[(b.name, b.spec) for b in saved.bots], players=saved.players, map=saved.board,
                      seed=saved.seed, games=saved.games, sprt=saved.sprt, game_options=saved.game_options)
        merged.update({k: v for k, v in spec.items() if v is not None})
        config = build_config(merged)
        diff = saved.same_match(config)
        if diff:
            raise TournamentError(f"--resume: {OPTION_OF[diff]} differs from the tournament logged in {out} "
                                  f"({diff} = {json.dumps(saved.to_json()[diff])}); leave it out to reuse the logged one")
        stale = stale_bot(saved_json.get("meanings"), config)
        if stale:
            raise TournamentError(f"--resume: {stale}; start a new --out, or spell the changed options in the "
                                  f"bot's spec")
        records = unique_records(read_log(log_path, repair=True)) if os.path.exists(log_path) else []
    else:
        if resume:
            raise TournamentError(f"--resume: no tournament in {out} to resume (no {CONFIG_NAME})")
        config = build_config(spec)
        created = make_folders(out)
        records = []
    try:
        # what each spec meant when the games were played (bots.spec_meaning), checked on --resume
        saved_meanings = {b.name: spec_meaning(b.spec, config.players) for b in config.bots}
        write_atomic(cfg_path, json.dumps(dict(config.to_json(), meanings=saved_meanings), indent=1) + "\n")
    except OSError as e:
        discard_created(created)
        raise TournamentError(f"--out: cannot write {cfg_path}: {e.strerror or e}") from None
    if not resume:
        created.insert(0, cfg_path)
    return config, records, created


def stale_bot(meanings: dict | None, config: TournamentConfig) -> str | None:
    """A sentence when a bot's spec means another bot today than when the tournament was logged (its saved
    spec_meaning differs: a default or the learned weights moved); None when none does, or when the file is
    older than the check (no `meanings`)."""
    if not isinstance(meanings, dict):
        return None
    for b in config.bots:
        then = meanings.get(b.name)
        if isinstance(then, dict):
            changes = meaning_changes(then, spec_meaning(b.spec, config.players))
            if changes:
                return (f"the bot {b.name} ({b.spec}) means another bot than when its games were played "
                        f"({'; '.join(changes)})")
    return None


def make_folders(out: str) -> list[str]:
    """os.makedirs(out), returning the folders it made, innermost first."""
    made = []
    path = os.path.abspath(out)
    while not os.path.exists(path):
        made.append(path)
        parent = os.path.dirname(path)
        if parent == path:
            break
        path = parent
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as e:
        discard_created([m for m in made if os.path.isdir(m)])
        raise TournamentError(f"--out: cannot create {out}: {e.strerror or e}") from None
    return made


def discard_created(created: list[str]) -> None:
    """Remove what a failed start created: its files, then its folders if they are empty."""
    for path in created:
        try:
            if os.path.isdir(path) and not os.path.islink(path):
                os.rmdir(path)          # only if empty: never remove what someone else put there
            else:
                os.unlink(path)
        except OSError:
            pass


def _loky_results(tasks: list[dict], jobs: int):
    return runner.map_unordered(play_task, tasks, jobs, "loky")


def _dask_results(tasks: list[dict], jobs: int, scheduler: str | None, tls: dict | None = None):
    """Results from Dask. The client unpickles what the scheduler sends back: use only a cluster you
    trust, and TLS (`tls`, or Dask's distributed.comm.tls configuration) outside localhost."""
    return runner.map_unordered(play_task, tasks, jobs, "dask", scheduler, tls)


def run(config: dict | TournamentConfig, out: str, jobs: int = 1, resume: bool = False, backend: str = "loky",
        scheduler: str | None = None, progress: bool = False, bootstrap: int = ratings.BOOTSTRAP,
        tls: dict | None = None) -> dict:
    """Play the missing games of a tournament into OUT and return the summary (see ratings.summarize).

    `tls`: Dask TLS files for a remote scheduler (tls_ca_file, tls_client_cert, tls_client_key)."""
    if backend not in ("loky", "dask"):
        raise TournamentError(f"--backend: {backend!r}; valid: loky, dask")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or not 1 <= jobs <= limits.TOURNAMENT_JOBS.high:
        raise TournamentError(f"--jobs: {limits.shown(jobs)} must be {limits.TOURNAMENT_JOBS.valid}")
    if not isinstance(out, str) or not out or "\0" in out:
        raise TournamentError("--out: give a folder for the tournament log (a path without NUL characters)")
    try:
        config, records, created = prepare(config, out, resume)
    except OSError as e:     # e.g. --out /proc/self: a folder nobody may write into
        raise TournamentError(f"--out: cannot write the tournament into {out}: {e.strerror or e}") from None
    try:
        return _play(config, records, created, out, jobs, backend, scheduler, progress, bootstrap, tls)
    except BaseException:
        # a failed start (a bad scheduler, a bot that fails in its first game, Ctrl-C) leaves nothing behind
        log_path = os.path.join(out, LOG_NAME)
        if created and (not os.path.exists(log_path) or os.path.getsize(log_path) == 0):
            discard_created([log_path] + created)
        raise


def _play(config, records, created, out, jobs, backend, scheduler, progress, bootstrap, tls) -> dict:
    names = [b.name for b in config.bots]
    done = {(r["block"], r["rotation"]) for r in records}
    previously = len(records)
    stopped = None
    if config.sprt and _sprt_decided(config, records):
        tasks = []
        stopped = "sprt"
    else:
        tasks = config.tasks(skip=done)
    t0 = time.perf_counter()
    bar = None
    if progress and tasks:
        from tqdm import tqdm
        bar = tqdm(total=config.games, initial=len(done & {(b, r) for b in range(config.blocks)
                                                          for r in range(config.players)}),
                   unit="game", desc="tournament", dynamic_ncols=True, leave=True)
    if tasks:
        results = _dask_results(tasks, jobs, scheduler, tls) if backend == "dask" else _loky_results(tasks, jobs)
        log_path = os.path.join(out, LOG_NAME)
        try:
            try:
                log = open_append(log_path)
            except OSError as e:
                raise TournamentError(f"--out: cannot write the log {log_path}: {e.strerror or e}") from None
            with log as f:
                for rec in results:
                    append_record(f, rec)
                    records.append(rec)
                    if bar is not None:
                        bar.update(1)
                    if config.sprt and _sprt_decided(config, records):
                        stopped = "sprt"
                        break
        finally:
            if hasattr(results, "close"):
                results.close()
            if bar is not None:
                bar.close()
    summary = ratings.summarize(records, names, config.sprt, config.players, bootstrap=bootstrap, seed=config.seed)
    summary.update(out=out, log=os.path.join(out, LOG_NAME), map=config.board, players=config.players,
                   new_games=len(records) - previously, wall_seconds=round(time.perf_counter() - t0, 3),
                   planned_games=config.games, stopped=stopped,
                   specs={b.name: b.spec for b in config.bots})
    return summary


def _sprt_decided(config: TournamentConfig, records: list[dict]) -> bool:
    scores = ratings.sprt_block_scores(records, config.bots[0].name, config.players)
    return ratings.sprt_status(scores, *config.sprt)["decision"] is not None


def rate(path: str, bootstrap: int = ratings.BOOTSTRAP) -> dict:
    """The summary of a log (a games.jsonl file or a tournament folder)."""
    if os.path.isdir(path):
        folder, log_path = path, os.path.join(path, LOG_NAME)
    else:
        folder, log_path = os.path.dirname(path), path
    if not os.path.exists(log_path):
        raise TournamentError(f"log {log_path} not found")
    records = unique_records(read_log(log_path))
    if not records:
        raise TournamentError(f"log {log_path} has no finished games")
    names, sprt, players, seed = None, None, None, 0
    cfg_path = os.path.join(folder, CONFIG_NAME)
    if os.path.exists(cfg_path):
        try:
            cfg = TournamentConfig.from_json(safe_read.read_json(cfg_path), cfg_path)
            names, sprt, players, seed = [b.name for b in cfg.bots], cfg.sprt, cfg.players, cfg.seed
        except (safe_read.UserFileError, TournamentError):
            pass
    try:
        summary = ratings.summarize(records, names, sprt, players, bootstrap=bootstrap, seed=seed)
    except (KeyError, TypeError, IndexError) as e:
        raise TournamentError(f"log {log_path}: a game record lacks a field ({e})") from None
    summary.update(log=log_path, players=records[0]["players"], map=records[0]["board"],
                   specs={s["bot"]: s["spec"] for r in records for s in r["seats"]})
    return summary


DEFAULT_BOTS = (("heuristic", "heuristic"), ("greedy", "greedy"), ("random", "random"),
                ("ismcts", "ismcts:iterations=2000"))
