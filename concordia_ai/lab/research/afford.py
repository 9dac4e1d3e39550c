"""Which market cards a seat can buy this turn, and by which card: the rules engine is asked, not copied.

A card is *affordable* to the seat whose turn begins if some action card it could play now leads to a
buying phase in which buying that card is legal: its own Senator (printed cost plus the display
position's surcharge) or Consul (printed cost only), or a Diplomat copying a Senator or Consul on top
of another player's discard pile. Each route is played out on a copy of the state and the card's
purchase is looked up among the legal moves there, so the surcharges, the 'any good' positions and
the wine variant come from the core exactly as in play.

A turn plays one action card, and the buying phase begins with the goods held at the start of the
turn, so every card bought in a turn was affordable at its start by this definition.
"""
from __future__ import annotations

from dataclasses import dataclass

from ...engine import vocabulary
from ...engine.vocabulary import ActionType, Phase
from ... import core

BUYERS = {core.CARD_ACTIONS["Senator"]: "Senator", core.CARD_ACTIONS["Consul"]: "Consul"}
DIPLOMAT = core.CARD_ACTIONS["Diplomat"]


@dataclass(frozen=True)
class Route:
    """A way to reach a buying phase this turn: the moves that get there, and what can be bought."""
    via: str                          # Senator, Consul, Diplomat>Senator, Diplomat>Consul
    prelude: tuple[int, ...]          # the play (and copy) moves
    buys: dict                        # display slot -> the legal purchase moves of that slot (pay variants)


def turn_starts(state) -> bool:
    """True when a seat is about to choose the action card of its turn."""
    return state.phase == Phase.PLAY


def routes(state) -> list[Route]:
    """Every route to a buying phase for the seat whose turn begins now (empty if none)."""
    if state.phase != Phase.PLAY:
        return []
    kinds = vocabulary.rules().kinds
    out = []
    for move in state.legal_actions():
        t, k, _ = core.decode(move)
        if t != ActionType.PLAY:
            continue
        action = kinds[k].action
        if action in BUYERS:
            out.append(_route(state, BUYERS[action], (move,)))
        elif action == DIPLOMAT:
            after = state.copy()
            after.apply(move)
            for copy in after.legal_actions():
                ct, ck, _ = core.decode(copy)
                if ct == ActionType.COPY and kinds[ck].action in BUYERS:
                    out.append(_route(state, "Diplomat>" + BUYERS[kinds[ck].action], (move, copy)))
    return [r for r in out if r.buys]


def _route(state, via: str, prelude: tuple[int, ...]) -> Route:
    s = state.copy()
    for m in prelude:
        s.apply(m)
    buys: dict[int, list[int]] = {}
    for m in s.legal_actions():
        t, slot, _ = core.decode(m)
        if t == ActionType.CARD:
            buys.setdefault(slot, []).append(m)
    return Route(via, prelude, buys)


def affordable_cards(state) -> list[int]:
    """Market card ids the seat whose turn begins could buy this turn, by any route (sorted)."""
    slots = {slot for r in routes(state) for slot in r.buys}
    return sorted(state.display_card(slot) for slot in slots)


def card_kind(card_id: int) -> int:
    return vocabulary.rules().market[card_id].kind


def purchase(state, move: int) -> tuple[int, int] | None:
    """(market card id, display slot) if `move` buys a card in `state`, else None."""
    t, slot, _ = core.decode(move)
    if t != ActionType.CARD:
        return None
    return state.display_card(slot), slot
