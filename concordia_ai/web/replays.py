"""Replays: the games of a tournament log (`games.jsonl`, lab.tournament), stepped through move by move.

A logged game is its board, player count, seed, rule options and moves: the deal is played again from
the seed under the options the tournament gave Game.new (the same city goods and stack, the same rules),
then the first `at` moves are applied. The log's reader
(lab.tournament.read_log) checks the fields that rating and the list of games need; a replay needs the
seed and the moves as well, checked here per game, so one record without them is refused on its own
while the list of the log's games still answers.
"""
from __future__ import annotations

import os
from collections import deque

from ..engine import limits
from ..engine.game import Game
from ..lab import tournament
from .security import WebError

MAX_LISTED = 2000      # games listed from one log (a long tournament holds many more; the first are shown)


def read(path: str) -> list[dict]:
    try:
        return tournament.read_log(path)
    except tournament.TournamentError as e:
        raise WebError(400, str(e)) from None


def summaries(records: list[dict]) -> list[dict]:
    out = []
    for i, r in enumerate(records[:MAX_LISTED]):
        out.append({"game": i, "board": r["board"], "players": r["players"], "seats": player_names(r),
                    "winner": r.get("winner"), "scores": [s["total"] for s in r["scores"]],
                    "moves": len(r.get("moves") or [])})
    return out


def player_names(record: dict) -> list[str]:
    """Seat names from the bots, made distinct ('ismcts', 'ismcts 2') as a game needs them."""
    names, seen = [], {}
    for seat in record["seats"]:
        base = str(seat["bot"]).strip() or "bot"
        seen[base.lower()] = seen.get(base.lower(), 0) + 1
        names.append(base if seen[base.lower()] == 1 else f"{base} {seen[base.lower()]}")
    return names


def replay_fields(record: dict, game: int) -> tuple[int, list[str]]:
    """The seed and the moves of a logged game (1-based `game` in messages); WebError naming the field when
    the record lacks one or holds something else."""
    where = f"game {game} of the log"
    if "seed" not in record:
        raise WebError(400, f"{where} has no seed: a replay deals the game again from its seed, so this record "
                            "cannot be replayed")
    try:
        seed = limits.SEED.check(record["seed"], "seed", strings=False)
    except limits.LimitError as e:
        raise WebError(400, f"{where}: {e}") from None
    moves = record.get("moves")
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise WebError(400, f"{where} has no moves in notation (the tournament ran without recording them)")
    return seed, moves


GAME_OPTIONS = ("wine_variant", "intermediate_scoring")      # Game.new's rule options, as a tournament passes them


def game_options(record: dict, game: int) -> dict:
    """The rule options a logged game was played under (its record's `game_options`, which the tournament
    passed to Game.new: the wine variant, intermediate scoring); none recorded: the standard rules."""
    options = record.get("game_options") or {}
    where = f"game {game} of the log"
    if not isinstance(options, dict):
        raise WebError(400, f"{where}: game_options is not an object of rule options ({', '.join(GAME_OPTIONS)})")
    for key, value in options.items():
        if key not in GAME_OPTIONS:
            raise WebError(400, f"{where}: unknown game option {limits.shown(key)}; a replay knows "
                                f"{', '.join(GAME_OPTIONS)}")
        if not isinstance(value, bool):
            raise WebError(400, f"{where}: game option {key} is {limits.shown(value)}, not true or false")
    return dict(options)


def position(record: dict, at: int, number: int = 1) -> tuple[Game, int]:
    """The game after the first `at` moves of a logged game (`at` clipped to the game's length);
    `number` is the game's place in the log (1-based), for messages."""
    seed, moves = replay_fields(record, number)
    game = Game.new(record["board"], record["players"], seed, player_names(record), **game_options(record, number))
    at = max(0, min(at, len(moves)))
    for i, text in enumerate(moves[:at]):
        try:
            game.apply(text)
        except ValueError as e:
            raise WebError(400, f"move {i + 1} of the logged game cannot be replayed: {e}") from None
    return game, at


SKIPPED = ("node_modules", "__pycache__")


def find_logs(folder: str) -> list[str]:
    """Tournament logs under the served folder, nearest first (folder by folder, breadth first, names in
    order), links never followed. Bounded, whatever the folder holds (a home folder, a data disk): at most
    limits.LOG_SEARCH_DEPTH folders deep, LOG_SEARCH_FOLDERS folders looked into, LOG_SEARCH_NAMES names
    read and LOGS_LISTED logs listed; past a bound the search ends with the logs found so far."""
    out: list[str] = []
    queue = deque([(folder, 0)])
    folders = names = 0
    while queue and folders < limits.LOG_SEARCH_FOLDERS and len(out) < limits.LOGS_LISTED:
        path, depth = queue.popleft()
        folders += 1
        subfolders = []
        try:
            with os.scandir(path) as entries:
                for entry in entries:
                    names += 1
                    if names > limits.LOG_SEARCH_NAMES:
                        break
                    try:
                        if entry.name == tournament.LOG_NAME and entry.is_file(follow_symlinks=False):
                            out.append(os.path.relpath(entry.path, folder))
                        elif depth < limits.LOG_SEARCH_DEPTH and entry.is_dir(follow_symlinks=False) \
                                and not entry.name.startswith(".") and entry.name not in SKIPPED:
                            subfolders.append(entry.name)
                    except OSError:
                        continue
        except OSError:          # unreadable (permissions, gone meanwhile): skipped
            continue
        if names > limits.LOG_SEARCH_NAMES:
            break
        queue.extend((os.path.join(path, d), depth + 1) for d in sorted(subfolders))
    return sorted(out, key=lambda p: (p.count(os.sep), p))[:limits.LOGS_LISTED]
