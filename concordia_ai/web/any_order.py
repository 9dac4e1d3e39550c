"""The steps of a turn in any order on the page, as `concordia play` takes them.

The engine offers a turn's steps in one canonical order (docs/engine.md): after a Senator's buy of the
card in place 3 it no longer offers the card in place 1, after a Mercator's buy no sale. `concordia play`
takes such a step anyway: GameFile.apply places it together with the turn's steps recorded so far into the
canonical order (engine/step_order.py) and records the turn again in that order. The page offers the same
steps: every step the engine offered earlier in this turn, not taken since, that GameFile.apply would take
now (tried on a copy, exactly as apply tries it). Playing one sends its text to /api/play like any move.
"""
from __future__ import annotations

from ..engine import step_order
from ..engine.game import CHANCE, Game
from ..table.game_file import GameFile

SKIPPED_VERBS = ("play", "reveal", "done")    # a turn's card, the cards turned up, its end: never moved
MAX_TRIED = 120                               # candidate texts tried per state (a turn offers fewer)


def late_steps(gf: GameFile) -> list[tuple[str, Game]]:
    """(text, the position in which the engine offered it) for each step of the turn in play that is not
    legal now but that `gf.apply([text])` records, the turn placed again in the canonical order."""
    game = gf.game
    if game.is_over or game.decider is None or game.decider == CHANCE:
        return []
    start = gf.turn_start()
    taken = list(gf.moves[start:])
    if len(taken) < 2:           # only the card played (or nothing) yet: nothing offered earlier is passed
        return []
    base = gf.replay(gf.moves[:start])
    legal_now = {game.text(m) for m in game.legal_moves()}
    seat = game.decider
    offered: dict[str, Game] = {}
    g = base.clone()
    for k, text in enumerate(taken):
        if k > 0 and g.decider == seat:
            for m in g.legal_moves():
                t = g.text(m)
                if t not in legal_now and t not in taken and t.split(" ", 1)[0] not in SKIPPED_VERBS:
                    offered.setdefault(t, g.clone())
        g.apply(text)
    out = []
    for text, where in list(offered.items())[:MAX_TRIED]:
        try:
            step_order.place(base, taken + [text])
        except step_order.EntryError:
            continue
        out.append((text, where))
    return out
