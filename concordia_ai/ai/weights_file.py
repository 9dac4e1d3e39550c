"""The checked weights archive shared by the value model and the policy prior: an .npz beside a JSON
metadata file that records its SHA-256, one array set per player count (`p{n}_{name}`)."""
from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np


def sha256_of(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def read_sets(weights: Path, meta: Path, info: dict, counts, arrays, error, what: str,
              script: str) -> dict[int, dict[str, np.ndarray]]:
    """The float32 array sets by player count from `weights`, after its checksum matched `info` (the
    metadata read from `meta`). `error` is the exception class, `what` the message prefix ('value
    weights'), `script` the command that regenerates the file."""
    try:
        digest = sha256_of(weights)
    except OSError as e:
        raise error(f"{what}: cannot read {weights}: {e.strerror or e}") from None
    if digest != info.get("sha256"):
        raise error(f"{what}: {weights} does not match the checksum in {meta} (damaged or "
                    f"replaced; regenerate with {script})")
    try:
        with np.load(weights, allow_pickle=False) as z:
            found = {k: z[k] for k in z.files}
    except (OSError, ValueError) as e:
        raise error(f"{what}: {weights} is not a weights archive: {e}") from None
    sets = {}
    for n in counts:
        try:
            sets[n] = {k: np.asarray(found[f"p{n}_{k}"], dtype=np.float32) for k in arrays}
        except KeyError as e:
            raise error(f"{what}: {weights} has no array {e.args[0]}") from None
    return sets
