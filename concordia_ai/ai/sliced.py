"""A search run in slices and merged, for answers that report as they go (`analyze`'s partial reports, the
CLI's hint on a time budget with a progress line): each slice is an independent search (its own seed), and
the slices merge as root-parallel threads do (search.merge_results)."""
from __future__ import annotations

from dataclasses import replace

from ..engine import limits
from ..engine.game import Game
from .search import SearchConfig, SearchResult, merge_results, search

MIN_SLICE = limits.SECONDS.low     # the shortest time budget a search accepts


def sliced_search(game: Game, config: SearchConfig, slices: int = 1, slice_seconds: float | None = None,
                  on_slice=None, stop=None) -> SearchResult:
    """ISMCTS in slices, merged; on_slice(partial_result) after each slice but the last.

    With `slice_seconds`, each slice runs at most that many seconds (and the iteration budget, if any,
    caps the total); otherwise the budget is split into `slices` equal parts. `stop` (a
    core.StopToken) ends the search early from another thread: the slices so far are merged."""
    results: list[SearchResult] = []
    i = 0
    while True:
        seed = config.seed if i == 0 else (config.seed * 1000003 + 7919 * i) % 2 ** 63
        done_it = sum(r.iterations for r in results)
        elapsed = sum(r.seconds for r in results)    # CPU seconds, as the budget counts them
        if slice_seconds:
            left_it = config.iterations - done_it if config.iterations else 0
            left_s = config.seconds - elapsed if config.seconds else 0.0
            cfg = replace(config, seed=seed, iterations=max(0, left_it),
                          seconds=max(MIN_SLICE, min(slice_seconds, left_s)) if config.seconds else slice_seconds)
        else:
            if config.iterations:
                share = config.iterations // slices + (1 if i < config.iterations % slices else 0)
                cfg = replace(config, seed=seed, iterations=share,
                              seconds=max(MIN_SLICE, config.seconds / slices) if config.seconds else 0.0)
            else:
                cfg = replace(config, seed=seed, seconds=max(MIN_SLICE, config.seconds / slices))
        results.append(search(game, cfg, stop))
        if results[-1].searches == 0:
            return results[-1]      # answered without a search (one legal turn): nothing to slice
        i += 1
        done_it = sum(r.iterations for r in results)
        elapsed = sum(r.seconds for r in results)
        if slice_seconds:
            last = ((config.iterations and done_it >= config.iterations) or
                    (config.seconds and elapsed >= config.seconds - 1e-3))
        else:
            last = i >= slices
        if last or (stop is not None and stop.stopped):
            break
        if on_slice is not None:
            on_slice(merge_results(game, results, config))
    return merge_results(game, results, config) if len(results) > 1 else results[0]
