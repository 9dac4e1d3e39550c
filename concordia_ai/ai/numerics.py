"""Numeric helpers the reference (numpy) forward passes of the learned models share."""
from __future__ import annotations

import numpy as np


def fast_tanh(x: np.ndarray) -> np.ndarray:
    """The core's tanh (cext/value.pxi, fast_tanh), used by both the value and the policy net: a rational
    approximation within 1e-4 of np.tanh."""
    x = np.clip(x, -4.97, 4.97)
    x2 = x * x
    y = x * (135135 + x2 * (17325 + x2 * (378 + x2))) / (135135 + x2 * (62370 + x2 * (3150 + x2 * 28)))
    return np.clip(y, -1, 1)
