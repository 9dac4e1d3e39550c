"""Calibration maps: from the search's raw win values to the probabilities a player reads.

The search's own mean is optimistic for the player who decides (it plans that player's moves better than
it plays the others'), and how optimistic depends on the evaluation, the number of players and the budget
(a longer search looks deeper). So there is a map per setting, each a Platt map
p -> sigmoid(a logit(p) + b) fitted by `scripts/calibration.py --fit` on held-out self-play positions
searched with that setting. The file (`data/value/calibration.json`, format concordia-calibration-v2):

    {"format": "concordia-calibration-v2",
     "maps": [{"eval": "net", "players": [2, 3, 4, 5], "seconds": 0.1, "a": 0.85, "b": -0.28, ...}, ...]}

`eval` is the evaluation the search used (`net` or `hand`), `players` the player counts the map was fitted
for, `seconds` the CPU seconds of search it was fitted at. A search uses the map of its evaluation and
player count nearest to its budget on a log scale (`budget_seconds`); `note` says when that map was fitted
at a budget more than BUDGET_FACTOR times away, or when none applies. A format-v1 file (one map per player
count, {"players": {"4": {"a": .., "b": ..}}}) reads as value-model maps at 0.1 s.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..engine.content import DATA_DIR as PACKAGE_DATA
from ..engine.errors import ConcordiaError

FORMAT = "concordia-calibration-v2"
CALIBRATION = PACKAGE_DATA / "value" / "calibration.json"
# iterations per CPU second of one search thread, to place an iteration budget on the seconds scale
# (measured: a median of 125,000-180,000 at 0.1-3 s, results/calibration*/positions.jsonl)
ITERATIONS_PER_SECOND = 140_000
BUDGET_FACTOR = 10.0


class CalibrationError(ConcordiaError):
    """A calibration file that is damaged or holds a map that is not a probability map."""


@dataclass(frozen=True)
class PlattMap:
    eval: str
    players: frozenset
    seconds: float
    a: float
    b: float

    def __call__(self, p: float) -> float:
        q = min(max(p, 1e-6), 1 - 1e-6)
        return float(1.0 / (1.0 + np.exp(-(self.a * math.log(q / (1 - q)) + self.b))))

    def slope(self, p: float) -> float:
        """d map / dp at p: the standard error of a mapped value follows by it (the delta method)."""
        q = min(max(p, 1e-6), 1 - 1e-6)
        out = self(p)
        return self.a * out * (1 - out) / (q * (1 - q))


# read once per file version: a search asks for its map at every call
_cache: dict[tuple, list[PlattMap]] = {}


def load(path: Path | str | None = None) -> list[PlattMap]:
    """The maps of a calibration file (the package's by default; [] without the file: the raw values are
    shown)."""
    path = CALIBRATION if path is None else path
    try:
        st = Path(path).stat()
        key = (str(path), st.st_mtime_ns, st.st_size)
    except OSError:
        key = (str(path), None, None)
    if key in _cache:
        return _cache[key]
    try:
        info = json.loads(Path(path).read_text(encoding="utf-8"))
        if "maps" in info:
            maps = [PlattMap(str(m["eval"]), frozenset(int(n) for n in m["players"]), float(m["seconds"]),
                             float(m["a"]), float(m["b"])) for m in info["maps"]]
        else:      # format v1: the value model's maps per player count, fitted at 0.1 s
            maps = [PlattMap("net", frozenset([int(n)]), 0.1, float(v["a"]), float(v["b"]))
                    for n, v in info["players"].items()]
    except FileNotFoundError:
        maps = []
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
        raise CalibrationError(f"calibration: {path} is not a calibration file: {e}") from None
    for m in maps:
        if m.eval not in ("net", "hand") or not m.players <= {2, 3, 4, 5}:
            raise CalibrationError(f"calibration: {path} has a map for eval {m.eval!r} and players "
                                   f"{sorted(m.players)}; valid: eval net or hand, players 2-5")
        if not (np.isfinite(m.a) and np.isfinite(m.b) and m.a > 0 and m.seconds > 0):
            raise CalibrationError(f"calibration: {path} holds a map that is not finite and increasing")
    _cache[key] = maps
    return maps


def budget_seconds(seconds: float, iterations: int, jobs: int = 1) -> float:
    """The CPU seconds a search spends, all its threads together: its time budget, or its iterations at
    ITERATIONS_PER_SECOND (the smaller, with both)."""
    budgets = []
    if seconds and seconds > 0:
        budgets.append(seconds)
    if iterations and iterations > 0:
        budgets.append(iterations / ITERATIONS_PER_SECOND)
    return (min(budgets) if budgets else 0.1) * max(1, jobs)


def find(eval_kind: str, players: int, seconds: float, path: Path | str | None = None) -> PlattMap | None:
    """The map for this evaluation and player count fitted nearest to `seconds` (log scale), or None."""
    maps = [m for m in load(path) if m.eval == eval_kind and players in m.players]
    if not maps:
        return None
    s = max(seconds, 1e-6)
    return min(maps, key=lambda m: (abs(math.log(s / m.seconds)), m.seconds))


def calibrate(p: float, se: float, m: PlattMap | None) -> tuple[float, float]:
    """A raw win value p (and its standard error) through map m; a certain outcome (every iteration ended
    the game) and a search without a map keep the raw value."""
    if m is None or p <= 0.0 or p >= 1.0:
        return p, se
    return m(p), se * m.slope(p)


def note(eval_kind: str, players: int, seconds: float, path: Path | str | None = None) -> str | None:
    """A line for the player when the win % shown is not calibrated for this setting, else None."""
    what = "the value model" if eval_kind == "net" else "the hand formula"
    m = find(eval_kind, players, seconds, path)
    if m is None:
        return (f"win % here is the search's own estimate with {what} ({players} players); no calibration map "
                f"applies to it, and its calibration is not measured")
    if not 1 / BUDGET_FACTOR <= seconds / m.seconds <= BUDGET_FACTOR:
        return (f"win % here went through the calibration map fitted at {m.seconds:g} CPU s of search; this "
                f"search's budget (about {seconds:.3g} s) is far from it, so its calibration is not measured")
    return None
