"""Value weights from a directory (weights.npz and weights.json, as scripts/train_value.py train --out writes
them) moved into the core on demand, so that bots with different value models can share a process: the core
holds one weight set per player count, so a bot makes sure its own set is there before it searches.

    >>> hold("results/loop/gen-2/value-weights")   # the core now holds that directory's sets
    >>> hold(None)                                 # the shipped sets (never whatever the other side left)

Unlike lab/prior_weights.py, None is not "leave the core alone": the value model is the leaf evaluation of
every 3-5 player search, so a side without a model of its own must search with the shipped one.
value.ensure_loaded() keeps a held set: hold names its file in value._loaded, as value.load does.
"""
from __future__ import annotations

from pathlib import Path

from .. import core
from ..ai import value, weight_slots

_read: dict[str, dict] = {}       # directory -> its checked sets (read once per process)


def weight_files(directory: str | Path | None) -> tuple[Path, Path]:
    """The directory's weights.npz and weights.json (a kept set's name too: weight_slots.files_of); None: the
    shipped ones."""
    if directory is None:
        return value.WEIGHTS, value.META
    return weight_slots.files_of("value", directory)


def sets_of(directory: str | Path | None) -> dict:
    files = weight_files(directory)
    name = str(files[0])
    if name not in _read:
        _read[name] = value.read_weights(*files)
    return _read[name]


def in_core(directory: str | Path | None) -> bool:
    """The core holds the directory's sets, for every player count (a core.value_clear() elsewhere empties it)."""
    return (value._loaded == str(weight_files(directory)[0])
            and all(core.value_ready(n) for n in value.PLAYER_COUNTS))


def hold(directory: str | Path | None) -> None:
    """The core holds the value weight sets of `directory` (read and checked once; swapped in when another
    set is there). None: the shipped sets."""
    with value._loading:              # the value module's lock: ensure_loaded and load replace weights under it
        if in_core(directory):
            return
        sets = sets_of(directory)
        core.value_clear()
        value._loaded = None
        for n, w in sets.items():
            core.value_set_weights(n, w["w1"], w["b1"], w["w_win"], w["w_vp"], float(w["b_vp"]),
                                   float(w["vp_scale"]))
        value._loaded = str(weight_files(directory)[0])
