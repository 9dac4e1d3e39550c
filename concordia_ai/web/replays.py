"""Replays: the games of a tournament log (`games.jsonl`, lab.tournament), stepped through move by move.

A logged game is its board, player count, seed and moves: the deal is played again from the seed
(Game.new draws the same city goods and stack), then the first `at` moves are applied.
"""
from __future__ import annotations

import os

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


def position(record: dict, at: int) -> tuple[Game, int]:
    """The game after the first `at` moves of a logged game (`at` clipped to the game's length)."""
    moves = record.get("moves")
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise WebError(400, "this game record has no moves in notation (the tournament ran without recording them)")
    game = Game.new(record["board"], record["players"], record["seed"], player_names(record))
    at = max(0, min(at, len(moves)))
    for i, text in enumerate(moves[:at]):
        try:
            game.apply(text)
        except ValueError as e:
            raise WebError(400, f"move {i + 1} of the logged game cannot be replayed: {e}") from None
    return game, at


def find_logs(folder: str, limit: int = 50) -> list[str]:
    """Tournament logs under the served folder (not following links out of it), nearest first."""
    out = []
    for root, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in ("node_modules", "__pycache__")
                         and not os.path.islink(os.path.join(root, d)))
        if tournament.LOG_NAME in names and not os.path.islink(os.path.join(root, tournament.LOG_NAME)):
            out.append(os.path.relpath(os.path.join(root, tournament.LOG_NAME), folder))
            if len(out) >= limit:
                break
        if root.count(os.sep) - folder.count(os.sep) >= 4:
            dirs[:] = []
    return out
