"""Policy weights from a directory (weights.npz and weights.json, as scripts/train_policy.py --out writes
them) moved into the core on demand, so that bots with different priors can share a process: the core holds
one weight set per player count, so a bot makes sure its own set is there before it searches.

    >>> hold("results/loop/gen-2/weights")     # the core now holds that directory's sets
    >>> hold(None)                             # nothing needed: leaves the core as it is
"""
from __future__ import annotations

from pathlib import Path

from .. import core
from ..ai import policy, weight_slots

_read: dict[str, dict] = {}       # directory -> its checked sets (read once per process)
_in_core: str | None = None       # the directory whose sets the core holds now (set by hold)


def weight_files(directory: str | Path) -> tuple[Path, Path]:
    """The directory's weights.npz and weights.json (a kept set's name too: weight_slots.files_of)."""
    return weight_slots.files_of("policy", directory)


def sets_of(directory: str) -> dict:
    if directory not in _read:
        _read[directory] = policy.read_weights(*weight_files(directory))
    return _read[directory]


def hold(directory: str | None) -> None:
    """The core holds the weight sets of `directory` (read and checked once; swapped in when another
    directory's sets are there). None: no prior asked for, the core is left alone."""
    global _in_core
    if directory is None:
        return
    directory = str(directory)
    if _in_core == directory and policy._loaded == str(weight_files(directory)[0]):
        return
    sets = sets_of(directory)
    with policy._loading:             # the policy module's lock: it replaces weights under it too
        core.policy_clear()
        for n, w in sets.items():
            core.policy_set_weights(n, w["w_lin"], w["w1"], w["b1"], w["v"])
        policy._loaded = str(weight_files(directory)[0])
    _in_core = directory
