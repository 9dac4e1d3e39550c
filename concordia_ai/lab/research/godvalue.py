"""The VP that one more card of a god would score for a seat, as the rules' scoring counts it.

Definition: for a seat and a state, the marginal VP of god g is the seat's total score with one more
card of g in hand minus its total score now, both 'if the game ended now' (the core's scorer). It is
the god's multiplier for that seat at that moment: Vesta the seat's money and goods value // 10,
Jupiter its houses outside brick cities, Saturnus its provinces with a house, Mercurius 2 per good it
produces, Mars 2 per colonist on the board. Minerva's specialists differ by good, so each has its own
column (Mason = 3 per brick-city house, ..., Weaver = 5 per cloth-city house).

Taken at the end of a game it is what one more card of that god would actually have scored; taken at
a seat's k-th turn it is what it would score if the game stopped there. The gap between the two shows
how much of a card's points comes from what the seat builds after buying it.
"""
from __future__ import annotations

from functools import lru_cache

from ...engine import vocabulary
from ... import core

TOTAL = 8                            # the total column of core scores()


@lru_cache(maxsize=None)
def columns() -> tuple[tuple[str, int], ...]:
    """(label, card kind) per column: one kind per god, and every Minerva specialist on its own."""
    kinds = vocabulary.rules().kinds
    out = []
    for god in vocabulary.GODS:
        if god == "Minerva":
            out += [(f"Minerva/{k.name}", i) for i, k in enumerate(kinds) if k.god == god]
        else:
            out.append((god, next(i for i, k in enumerate(kinds) if k.god == god)))
    return tuple(out)


def marginal_vp(state, seats) -> dict[int, list[int]]:
    """{seat: [marginal VP per column]} for the given seats (see the module docstring)."""
    base = state.scores()
    data = state.export()
    out = {s: [] for s in seats}
    for _, kind in columns():
        for s in seats:
            data["players"][s]["hand"][kind] += 1
        scored = core.CoreState.load(data).scores()
        for s in seats:
            data["players"][s]["hand"][kind] -= 1
            out[s].append(scored[s][TOTAL] - base[s][TOTAL])
    return out
