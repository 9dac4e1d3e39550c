"""Weight sets a search names by directory, held in the core's slots beside the shipped ones.

The core keeps W_SLOTS weight sets of each kind (value model, policy prior) at once. Slot 0 holds the shipped
set (value.load / policy.load, or a set lab's prior_weights / value_weights put there); slots 1 and up hold
directories that searches name (SearchConfig.value_weights, policy_weights: a directory with weights.npz and
weights.json, as scripts/train_value.py train --out and scripts/train_policy.py --out write them). A directory
is read and checked once per process and its slot is never rewritten, so searches with different weights can
run at once in threads, and a bot spec can name any generation of the learning loop:

    >>> slot_for("value", "results/loop/gen-5/value-weights")     # 1 (loaded now), then 1 again
    >>> slot_for("value", "")                                     # 0: the shipped set

A name that is not a directory but one of the package's kept sets (SETS: concordia_ai/data/sets/NAME/value and
/policy, installed with the package) means that set, so an earlier default plays from any install:

    >>> slot_for("policy", "before-gen5")                         # the prior shipped until generation 5
"""
from __future__ import annotations

import threading
from pathlib import Path

from .. import core
from ..engine.content import DATA_DIR as PACKAGE_DATA
from ..engine.errors import ConcordiaError
from . import policy, value

KINDS = ("value", "policy")
_slots: dict[str, dict[str, int]] = {k: {} for k in KINDS}     # kind -> resolved directory -> its slot
_lock = threading.Lock()
_checked: dict[tuple, dict] = {}     # (kind, files, their sizes and times) -> the sets read and checked from them


class WeightSlotsError(ConcordiaError):
    """A weights directory that cannot be read, or more directories than the core has slots for."""


SETS = PACKAGE_DATA / "sets"


def kept_sets() -> list[str]:
    """The names of the weight sets the package keeps (SETS)."""
    return sorted(d.name for d in SETS.iterdir() if d.is_dir()) if SETS.is_dir() else []


def directory_of(kind: str, directory: str | Path) -> Path:
    """The directory a search's value_weights / policy_weights means: a kept set's `kind` folder for a bare name
    that is not a directory here (SETS), else the directory itself."""
    d = Path(directory)
    if not d.is_dir() and len(d.parts) == 1 and (SETS / d.name / kind).is_dir():
        return SETS / d.name / kind
    return d


def files_of(kind: str, directory: str | Path) -> tuple[Path, Path]:
    """The weights.npz and weights.json of a directory or kept set (directory_of)."""
    mod = value if kind == "value" else policy
    d = directory_of(kind, directory)
    return d / mod.WEIGHTS.name, d / mod.META.name


def slot_for(kind: str, directory: str | Path | None) -> int:
    """The core's slot holding `directory`'s weight sets of `kind` ("value" or "policy"), loaded and checked
    at the first call in this process; 0 (the shipped sets) for None or "". A damaged directory, or one more
    directory than the core has slots, is refused in one line."""
    if kind not in KINDS:
        raise ValueError(f"weight kind {kind!r} is not one of {', '.join(KINDS)}")
    if not directory:
        return 0
    key = str(directory_of(kind, directory).resolve())
    with _lock:
        if key in _slots[kind]:
            return _slots[kind][key]
        if len(_slots[kind]) >= core.WEIGHT_SLOTS - 1:
            raise WeightSlotsError(f"{kind}_weights: {directory} would be the {len(_slots[kind]) + 1}th {kind} "
                                   f"weights directory in this process; the core holds "
                                   f"{core.WEIGHT_SLOTS - 1} besides the shipped set ({', '.join(_slots[kind])})")
        sets = check(kind, directory)
        slot = len(_slots[kind]) + 1
        for n, w in sets.items():
            if kind == "value":
                core.value_set_weights(n, w["w1"], w["b1"], w["w_win"], w["w_vp"], float(w["b_vp"]),
                                       float(w["vp_scale"]), slot)
            else:
                core.policy_set_weights(n, w["w_lin"], w["w1"], w["b1"], w["v"], slot)
        _slots[kind][key] = slot
        return slot


def check(kind: str, directory: str | Path) -> dict:
    """A directory's weight sets of `kind`, read and checked (checksum, shapes, values) without touching the
    core: a bot spec naming a directory is refused at once, not at its first search. Read once while the files
    stay as they are (a tournament parses its specs for every game)."""
    weights, meta = files_of(kind, directory)
    if not weights.is_file() or not meta.is_file():
        raise WeightSlotsError(f"{kind}_weights: {directory} is not a directory with {weights.name} and "
                               f"{meta.name} (as scripts/{'train_value.py train' if kind == 'value' else 'train_policy.py'} "
                               f"--out writes them) nor a kept set ({', '.join(kept_sets()) or 'none'})")
    key = (kind,) + tuple((str(f.resolve()), f.stat().st_size, f.stat().st_mtime_ns) for f in (weights, meta))
    if key not in _checked:
        try:
            _checked[key] = (value if kind == "value" else policy).read_weights(weights, meta)
        except ConcordiaError as e:
            raise WeightSlotsError(f"{kind}_weights: {e}") from None
    return _checked[key]


def check_count(option_sets) -> None:
    """Bots that will share a process (a tournament's, by their spec options) name at most as many weight
    directories of each kind as the core has slots for besides the shipped set: refused in one line before any
    game runs, not in a worker at its first search."""
    for kind in KINDS:
        dirs = sorted({str(directory_of(kind, o[f"{kind}_weights"]).resolve())
                       for o in option_sets if o.get(f"{kind}_weights")})
        if len(dirs) > core.WEIGHT_SLOTS - 1:
            raise WeightSlotsError(f"{kind}_weights: the bots name {len(dirs)} directories; at most "
                                   f"{core.WEIGHT_SLOTS - 1} can be held beside the shipped set in one process")
