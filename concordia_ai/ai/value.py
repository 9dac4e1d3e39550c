"""The value model's weights: loading and checking the shipped file, and a numpy reference forward pass.

The forward pass that the search uses runs in the core (cext/value.pxi); this module only moves weights
into it. The weights are package data (`data/value/weights.npz`) with a metadata file beside it
(`weights.json`: the format, the feature count, a SHA-256 of the weights, and the command, bots and game
counts that produced them). A weight set reads the first 60 features of a seat (the first layout) or all of
them (core.VALUE_FEATURES; docs/value.md), as its shape says. `scripts/train_value.py` regenerates both from a
seed.

    >>> from concordia_ai.ai import value
    >>> value.ensure_loaded()            # idempotent; SearchConfig.core_dict calls it for eval=net
    >>> value.predict(game.state)        # ([P(win) per seat], [expected final VP per seat])
"""
from __future__ import annotations

import json
import threading
from pathlib import Path

import numpy as np

from .. import core
from . import weights_file
from .numerics import fast_tanh
from .weights_file import sha256_of  # noqa: F401  (scripts and tests name it here)
from ..engine.content import DATA_DIR as PACKAGE_DATA
from ..engine.errors import ConcordiaError

FORMAT = "concordia-value-v1"
DATA_DIR = PACKAGE_DATA / "value"
WEIGHTS = DATA_DIR / "weights.npz"
META = DATA_DIR / "weights.json"
PLAYER_COUNTS = (2, 3, 4, 5)
ARRAYS = ("w1", "b1", "w_win", "w_vp", "b_vp", "vp_scale")


class ValueWeightsError(ConcordiaError):
    """A weights file that is missing, damaged, or made for another feature layout."""


_loaded: str | None = None   # the path whose weights are in the core
# held while the core's weights are checked and replaced: root-parallel searches resolve their configs
# (and so load the model) in threads at once
_loading = threading.RLock()


def read_weights(weights: Path = WEIGHTS, meta: Path = META) -> dict[int, dict[str, np.ndarray]]:
    """The weight sets by player count, after checking the metadata, checksum, shapes and values."""
    weights, meta = Path(weights), Path(meta)
    try:
        info = json.loads(meta.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueWeightsError(f"value weights: cannot read {meta}: {e}") from None
    if not isinstance(info, dict) or info.get("format") != FORMAT:
        raise ValueWeightsError(f"value weights: {meta} is not a {FORMAT} metadata file")
    features = info.get("features")     # the widest set's; a set kept from before may read the first layout
    if features not in core.VALUE_FEATURE_LAYOUTS:
        raise ValueWeightsError(f"value weights: {meta} was made for {features} features; this core reads "
                                f"{' or '.join(map(str, core.VALUE_FEATURE_LAYOUTS))} (retrain with "
                                f"scripts/train_value.py)")
    sets = weights_file.read_sets(weights, meta, info, PLAYER_COUNTS, ARRAYS, ValueWeightsError, "value weights",
                                  "scripts/train_value.py")
    widths = [f for f in core.VALUE_FEATURE_LAYOUTS if f <= features]
    for n in PLAYER_COUNTS:
        w1 = sets[n]["w1"]
        if w1.ndim != 2 or w1.shape[1] not in widths or not 1 <= w1.shape[0] <= core.VALUE_HIDDEN_MAX:
            raise ValueWeightsError(f"value weights: p{n}_w1 has shape {w1.shape}; expected (H, "
                                    f"{' or '.join(map(str, widths))}) with H at most {core.VALUE_HIDDEN_MAX}")
        for k in ("b1", "w_win", "w_vp"):
            if sets[n][k].shape != (w1.shape[0],):
                raise ValueWeightsError(f"value weights: p{n}_{k} has shape {sets[n][k].shape}; expected "
                                        f"({w1.shape[0]},)")
        for k in ARRAYS:
            if not np.all(np.isfinite(sets[n][k])):
                raise ValueWeightsError(f"value weights: p{n}_{k} holds a value that is not finite")
    return sets


def load(weights: Path = WEIGHTS, meta: Path = META) -> None:
    """Check a weights file and move it into the core (replacing what was there)."""
    global _loaded
    sets = read_weights(weights, meta)
    with _loading:
        core.value_clear()
        _loaded = None
        for n, w in sets.items():
            core.value_set_weights(n, w["w1"], w["b1"], w["w_win"], w["w_vp"], float(w["b_vp"]),
                                   float(w["vp_scale"]))
        _loaded = str(weights)


def ensure_loaded() -> None:
    """Load the shipped weights unless the core holds a set for every player count (SearchConfig.core_dict
    calls this when eval resolves to net). The core's own flag is the truth: after core.value_clear()
    this loads again."""
    if _loaded is None or not all(core.value_ready(n) for n in PLAYER_COUNTS):
        with _loading:            # one thread loads; the others wait and then find the weights there
            if _loaded is None or not all(core.value_ready(n) for n in PLAYER_COUNTS):
                load()


def predict(state) -> tuple[list[float], list[float]]:
    """Every seat's probability of winning and expected final VP, by the core's forward pass."""
    ensure_loaded()
    out = core.value_of(state)
    if out is None:
        raise ValueWeightsError(f"value weights: none for {state.n_players} players")
    return out


def forward_numpy(w: dict[str, np.ndarray], x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The reference forward pass: x (..., seats, features) -> (P(win) per seat, expected VP per seat). A set
    of the first layout reads the first 60 of x's features, as the core does."""
    x = x[..., :w["w1"].shape[1]]
    h = fast_tanh(x @ w["w1"].T + w["b1"])
    s = h @ w["w_win"]
    s = s - s.max(axis=-1, keepdims=True)
    p = np.exp(s)
    p /= p.sum(axis=-1, keepdims=True)
    vp = float(w["vp_scale"]) * (h @ w["w_vp"] + float(w["b_vp"]))
    return p, vp


def reliability(p: np.ndarray, y: np.ndarray, bins: int = 10) -> tuple[float, list[dict]]:
    """Expected calibration error over `bins` equal-width bins of the predicted probability p against the
    outcomes y (0/1), and the reliability table (per bin: n, mean predicted, observed frequency)."""
    p, y = np.asarray(p, dtype=float), np.asarray(y, dtype=float)
    edges = np.linspace(0, 1, bins + 1)
    k = np.clip(np.digitize(p, edges[1:-1]), 0, bins - 1)
    ece, table = 0.0, []
    for b in range(bins):
        m = k == b
        if m.any():
            ece += m.mean() * abs(p[m].mean() - y[m].mean())
            table.append(dict(bin=f"{edges[b]:.1f}-{edges[b + 1]:.1f}", n=int(m.sum()),
                              predicted=round(float(p[m].mean()), 4), observed=round(float(y[m].mean()), 4)))
    return float(ece), table


def metadata(meta: Path = META) -> dict:
    return json.loads(Path(meta).read_text(encoding="utf-8"))
