"""Statistics of research runs: ratio estimates with 95 % intervals from a bootstrap over seed blocks.

Every figure here is a ratio of sums over units (seat-games, purchases, game pairs): a win rate is
wins / seats, a mean VP is VP / seats, a normalised win rate is wins / expected wins. The games of
one seed block share a deal and are not independent, so the bootstrap resamples whole blocks: each
of `reps` resamples draws as many blocks as there are, with replacement (multinomial counts), and
recomputes the figure from the resampled sums. The interval is the 2.5th to 97.5th percentile of
the resampled figures (percentile bootstrap). A figure whose n (its units) is below `min_n` is
reported as too few, with its n and no value.

    >>> acc = Accumulator()
    >>> acc.add(block, "bought.n", 1); acc.add(block, "bought.win", won)
    >>> s = acc.sample(reps=1000, seed=0)
    >>> s.figure(s["bought.win"] / s["bought.n"], n=s.n("bought.n"))
    {'value': 0.31, 'lo': 0.27, 'hi': 0.35, 'n': 412}
"""
from __future__ import annotations

from collections import defaultdict

import numpy as np

REPS = 1000
MIN_N = 30
FEW_BLOCKS = 20      # below this many seed blocks the report warns that the intervals are rough


class Accumulator:
    """Sums of named features per seed block."""

    def __init__(self):
        self._sums: dict[str, dict[int, float]] = defaultdict(lambda: defaultdict(float))
        self._blocks: set = set()

    def block(self, block) -> None:
        """Count a block even if it adds nothing (it is resampled like the others)."""
        self._blocks.add(block)

    def add(self, block, name: str, value: float = 1.0) -> None:
        self._blocks.add(block)
        self._sums[name][block] += value

    def sample(self, reps: int = REPS, seed: int = 0) -> "Sample":
        blocks = sorted(self._blocks, key=str)
        index = {b: i for i, b in enumerate(blocks)}
        names = sorted(self._sums)
        matrix = np.zeros((len(blocks), len(names)))
        for j, name in enumerate(names):
            for b, v in self._sums[name].items():
                matrix[index[b], j] = v
        return Sample(names, matrix, reps, seed)


CHUNK_CELLS = 1 << 22      # resample weights drawn at a time (32 MiB of int64)


class Sample:
    """Feature totals of the data (row 0) and of `reps` block resamples (rows 1..reps)."""

    def __init__(self, names: list[str], block_sums: np.ndarray, reps: int = REPS, seed: int = 0):
        self.blocks = block_sums.shape[0]
        self.reps = reps
        self._index = {n: j for j, n in enumerate(names)}
        rows = [block_sums.sum(axis=0)]
        if reps and self.blocks:
            rng = np.random.default_rng(seed)
            # in chunks, so the weights never hold more than CHUNK_CELLS numbers (the draws are the same
            # as in one call: the generator draws the rows in order)
            step = max(1, CHUNK_CELLS // self.blocks)
            for start in range(0, reps, step):
                weights = rng.multinomial(self.blocks, [1.0 / self.blocks] * self.blocks,
                                          size=min(step, reps - start))
                rows.append(weights @ block_sums)
        self._totals = np.vstack(rows) if len(rows) > 1 else rows[0][None, :]

    def __getitem__(self, name: str) -> np.ndarray:
        """The feature's total in the data and in every resample (zeros if never added)."""
        j = self._index.get(name)
        return self._totals[:, j] if j is not None else np.zeros(self._totals.shape[0])

    def n(self, name: str) -> int:
        return int(round(self[name][0]))

    def figure(self, values: np.ndarray, n: int, min_n: int = MIN_N, digits: int = 4) -> dict:
        """{value, lo, hi, n}: the data's value and the 95 % percentile interval of the resamples."""
        if n < min_n:
            return dict(value=None, lo=None, hi=None, n=n, too_few=True)
        with np.errstate(divide="ignore", invalid="ignore"):
            values = np.asarray(values, dtype=float)
        boot = values[1:][np.isfinite(values[1:])]
        value = values[0]
        if not np.isfinite(value):
            return dict(value=None, lo=None, hi=None, n=n, too_few=True)
        # one block cannot show how the blocks vary: no interval then
        lo, hi = (np.percentile(boot, [2.5, 97.5]) if len(boot) and self.blocks > 1 else (np.nan, np.nan))
        r = lambda x: None if not np.isfinite(x) else round(float(x), digits)  # noqa: E731
        return dict(value=r(value), lo=r(lo), hi=r(hi), n=n)


def ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1), np.nan)


def covers(fig: dict, truth: float) -> bool:
    return fig.get("value") is not None and fig["lo"] <= truth <= fig["hi"]
