"""The last whole-turn hint of a game file, kept beside it so that `play --suggested` plays what was shown.

`hint` writes GAME.hint.json (atomically) with the position's key, the search configuration (budget, seed,
processes, knobs) and the ranked turns. `play --suggested` with the same configuration on the same
position takes its list instead of searching again: with a time budget a second search could rank the
turns otherwise, and it would cost the time again. Anything else in the file (another position, another
budget, a damaged or foreign file) means: search again.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass

from ..engine import position
from ..io import atomic_write, safe_read

FORMAT = "concordia-hint-cache"
VERSION = 2    # 2: the figures of the final-result model (ai/outcome.py)


@dataclass(frozen=True)
class CachedTurn:
    texts: list[str]
    win: float
    win_se: float
    visits: int


def path_for(game_file: str) -> str:
    """game.json -> game.hint.json, next to the game."""
    root, ext = os.path.splitext(game_file)
    return (root if ext == ".json" else game_file) + ".hint.json"


def entry_key(game, config: dict) -> dict:
    """What a hint depends on: the position (its key and who decides) and the whole search configuration."""
    return {"position": position.key(game.state), "decider": game.decider, "config": config}


def save(game_file: str, game, config: dict, turns) -> None:
    """Keep the ranked turns of a hint of `game` (best first); OSError if the folder is not writable."""
    data = {"format": FORMAT, "version": VERSION, "key": entry_key(game, config),
            "turns": [{"texts": t.texts, "win": t.win, "winSe": t.win_se, "visits": t.visits} for t in turns]}
    atomic_write.write_atomic(path_for(game_file), json.dumps(data, separators=(",", ":")) + "\n")


def load(game_file: str, game, config: dict) -> list[CachedTurn] | None:
    """The turns of the last hint when it was for this position and configuration, else None."""
    path = path_for(game_file)
    if not os.path.lexists(path):
        return None
    try:
        data = safe_read.read_json(path)
        if data.get("format") != FORMAT or data.get("version") != VERSION:
            return None
        if data.get("key") != json.loads(json.dumps(entry_key(game, config))):
            return None
        turns = [CachedTurn(list(t["texts"]), float(t["win"]), float(t["winSe"]), int(t["visits"]))
                 for t in data["turns"]]
    except (safe_read.UserFileError, AttributeError, KeyError, TypeError, ValueError):
        return None      # a damaged or foreign file is no hint: search again
    if not all(isinstance(x, str) for t in turns for x in t.texts):
        return None
    return turns
