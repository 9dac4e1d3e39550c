"""The policy prior's weights: loading and checking the shipped file, and a numpy reference forward pass.

The prior that the search uses is computed in the core (cext/policy.pxi): features of every legal
sub-decision, a linear part plus an optional hidden layer, a softmax over the node's legal moves. This
module only moves weights into it. The weights are package data (`data/policy/weights.npz`) with a
metadata file beside it (`weights.json`: the format, the feature count, the player counts, a SHA-256 of
the weights, the command and data that produced them). `scripts/train_policy.py` writes both.

A search asks for the prior with SearchConfig(policy=W) (W > 0) or rollout="policy"; it then loads the
shipped weights (`require`) and refuses to run without them: there is never a silent fallback.

    >>> from concordia_ai.ai import policy
    >>> policy.load()                       # or require(players): load once, check the player count
    >>> policy.priors(game.state)           # the prior of every legal move, in legal_actions() order
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

FORMAT = "concordia-policy-v1"
DATA_DIR = PACKAGE_DATA / "policy"
WEIGHTS = DATA_DIR / "weights.npz"
META = DATA_DIR / "weights.json"
PLAYER_COUNTS = (2, 3, 4, 5)
ARRAYS = ("w_lin", "w1", "b1", "v")


class PolicyWeightsError(ConcordiaError):
    """A policy weights file that is missing, damaged, or made for another feature layout."""


_loaded: str | None = None   # the path whose weights are in the core
# held while the core's weights are checked and replaced or cleared, as value._loading: root-parallel searches
# resolve their configs (and so load the prior) in threads at once
_loading = threading.RLock()


def check_set(w: dict[str, np.ndarray], where: str) -> None:
    """Shapes and values of one weight set; `where` names it in the message (file and player count)."""
    f = core.POLICY_FEATURES
    if w["w_lin"].shape != (f,):
        raise PolicyWeightsError(f"policy weights: {where} w_lin has shape {w['w_lin'].shape}; expected ({f},)")
    w1 = w["w1"]
    if w1.ndim != 2 or w1.shape[1] != f or not 0 <= w1.shape[0] <= core.POLICY_HIDDEN_MAX:
        raise PolicyWeightsError(f"policy weights: {where} w1 has shape {w1.shape}; expected (H, {f}) with H "
                                 f"at most {core.POLICY_HIDDEN_MAX}")
    for k in ("b1", "v"):
        if w[k].shape != (w1.shape[0],):
            raise PolicyWeightsError(f"policy weights: {where} {k} has shape {w[k].shape}; expected "
                                     f"({w1.shape[0]},)")
    for k in ARRAYS:
        if not np.all(np.isfinite(w[k])):
            raise PolicyWeightsError(f"policy weights: {where} {k} holds a value that is not finite")


def read_weights(weights: Path | None = None, meta: Path | None = None) -> dict[int, dict[str, np.ndarray]]:
    """The weight sets by player count, after checking the metadata, checksum, shapes and values
    (default: the shipped file)."""
    weights, meta = Path(weights or WEIGHTS), Path(meta or META)
    try:
        info = json.loads(meta.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise PolicyWeightsError(f"policy weights: cannot read {meta}: {getattr(e, 'strerror', None) or e}") \
            from None
    if not isinstance(info, dict) or info.get("format") != FORMAT:
        raise PolicyWeightsError(f"policy weights: {meta} is not a {FORMAT} metadata file")
    if info.get("features") != core.POLICY_FEATURES:
        raise PolicyWeightsError(f"policy weights: {meta} was made for {info.get('features')} features; this "
                                 f"core computes {core.POLICY_FEATURES} (retrain with scripts/train_policy.py)")
    counts = info.get("players")
    if not isinstance(counts, list) or not counts or any(n not in PLAYER_COUNTS for n in counts):
        raise PolicyWeightsError(f"policy weights: {meta} lists players {counts!r}; expected a non-empty list "
                                 f"of player counts from {PLAYER_COUNTS}")
    sets = weights_file.read_sets(weights, meta, info, counts, ARRAYS, PolicyWeightsError, "policy weights",
                                  "scripts/train_policy.py")
    for n in counts:
        check_set(sets[n], f"{weights} p{n}")
    return sets


def load(weights: Path | None = None, meta: Path | None = None) -> None:
    """Check a weights file (default: the shipped one) and move it into the core (replacing what was there)."""
    global _loaded
    weights = Path(weights or WEIGHTS)
    sets = read_weights(weights, meta)
    with _loading:
        core.policy_clear()
        _loaded = None
        for n, w in sets.items():
            core.policy_set_weights(n, w["w_lin"], w["w1"], w["b1"], w["v"])
        _loaded = str(weights)


def unload() -> None:
    """Forget the loaded weights (the next search that asks for the prior loads the shipped file again)."""
    global _loaded
    with _loading:
        core.policy_clear()
        _loaded = None


def require(players: int) -> None:
    """The prior for `players` players is in the core: weights already there are used, else the shipped
    weights are loaded (once per process); a missing file or player count is a clear error."""
    if core.policy_ready(players):
        return
    with _loading:          # one thread loads; the others wait and then find the weights there
        if _loaded is None and not core.policy_ready(players):
            load()
    if not core.policy_ready(players):
        raise PolicyWeightsError(f"policy weights: {_loaded or WEIGHTS} has no weights for {players} players "
                                 f"(it has {', '.join(str(n) for n in PLAYER_COUNTS if core.policy_ready(n)) or 'none'})")


def priors(state) -> list[float]:
    """The prior of every legal move at `state` (legal_actions() order), by the core's forward pass."""
    require(state.n_players)
    return core.policy_priors(state)


def logits_numpy(w: dict[str, np.ndarray], x: np.ndarray) -> np.ndarray:
    """The reference scorer: x (..., moves, features) -> a logit per move."""
    z = x @ w["w_lin"]
    if w["w1"].shape[0]:
        z = z + fast_tanh(x @ w["w1"].T + w["b1"]) @ w["v"]
    return z


def forward_numpy(w: dict[str, np.ndarray], x: np.ndarray) -> np.ndarray:
    """The reference forward pass over one node: x (moves, features) -> the prior of each move."""
    z = logits_numpy(w, x)
    p = np.exp(z - z.max())
    return p / p.sum()


def metadata(meta: Path | None = None) -> dict:
    return json.loads(Path(meta or META).read_text(encoding="utf-8"))
