"""Why a tap on the page makes no move: one line for the person at the board, as the CLI says why a step
is refused.

The page plays a tap when a legal move of the moment uses the element tapped (web/targets.py); for any
other tap it asks here. The element is read as the step it stands for at this moment (a city in an
Architect is `build CITY`, a route is `move KIND PLACE > ROUTE` from the nearest own colonist, a good in a
Mercator is `sell 1 GOOD` and `buy 1 GOOD`, ...) and the engine's reason for that step is given in the
words of `concordia play` (engine/refusals.py, through which notation explains a refused text). An
element that is no step of this moment at all (a city while a card is played, another player's hand)
gets what the moment is and what the element is for.
"""
from __future__ import annotations

from .. import core
from ..engine import costs, refusals
from ..engine.game import CHANCE, Game
from ..engine.position import location_name
from ..engine.vocabulary import ActionType
from ..table import render

# the phases in which an element of each kind is a step, and what it is tapped for
ROLE = {
    "hand": (("play",), "a card in hand is played at the start of its owner's turn"),
    "city": (("architect-move", "architect-build", "colonist"),
             "a city is tapped to build a house in it (Architect) or to place a colonist there (Colonist)"),
    "province": (("prefect",), "a province is tapped to produce there (Prefect)"),
    "route": (("architect-move", "square"), "a route is tapped to move a colonist onto it (Architect)"),
    "card": (("senator", "consul"), "a display card is tapped to buy it (Senator, Consul)"),
    "good": (("mercator", "keep", "senator", "prefect"),
             "a good is tapped to sell or buy it (Mercator), to pay a card's any-good surcharge (Senator) or "
             "to keep it (storehouse full)"),
    "top": (("diplomat",), "a top discard card is tapped to copy it (Diplomat)"),
    "colonist": (("tribune", "colonist"),
                 "a colonist in the storehouse is tapped to take a new one (Tribune) or to place it (Colonist)"),
    "unseen": (("chance",), "an unseen card is tapped when it is turned up into the display"),
}


def tap_reason(game: Game, el: str, selected: list[str] | None = None, alt: str | None = None) -> str:
    """Why tapping the element `el` (a data-el id of the page) makes no legal move now. `alt` is what the
    element stands for too (a city for its province, in a Prefect): asked about when `el` is no step of
    this moment and `alt` is."""
    if game.is_over:
        return "the game is over: no move can be recorded"
    if alt and not _is_step(game, el) and _is_step(game, alt):
        el = alt
    kind, _, rest = el.partition(":")
    if game.decider == CHANCE:
        return ("first the card turned up into the display: tap it among the unseen cards (above the moves); "
                "then the game goes on")
    who, phase = game.decider_name, game.phase
    doing = f"{who} {render.PHASE_TEXT.get(phase, phase)}"
    if kind == "held":                     # a card in the hand of a player who does not decide now
        owner, _, label = rest.partition(":")
        return f"{label} is in {owner}'s hand: now {doing}; {owner} plays a card in {owner}'s own turn"
    if kind not in ROLE:
        return f"nothing to do with that now: {doing}"
    phases, role = ROLE[kind]
    thing = _thing(kind, rest)
    if phase not in phases:
        return f"{thing[0].upper() + thing[1:]} is no step now: {doing}; {role}"
    texts = _steps(game, kind, rest, phase, selected or [])
    refused = []
    for text in texts:
        words = text.lower().split()
        because = refusals.reason(game, words, words[0])
        if because and because not in (r for _, r in refused):
            refused.append((text, because))
    if len(refused) == 1:                  # the line `concordia play` writes for that step
        return f"{refused[0][0]!r} is not a legal move for {who}: {refused[0][1]}"
    if refused:
        return f"no legal move of {who} uses {thing}: " + "; ".join(f"{t}: {r}" for t, r in refused)
    return f"no legal move of {who} uses {thing} now: {doing}; the moves that can be made are lit"


def _is_step(game: Game, el: str) -> bool:
    kind = el.partition(":")[0]
    return kind in ROLE and game.phase in ROLE[kind][0]


def _thing(kind: str, rest: str) -> str:
    if kind == "route":
        sea, _, name = rest.partition(":")
        return f"the {sea} route {name}"
    if kind == "top":
        return f"the top discard {rest}"
    if kind == "colonist":
        return f"a {rest} colonist in the storehouse"
    return rest


def _steps(game: Game, kind: str, rest: str, phase: str, selected: list[str]) -> list[str]:
    """The steps the element stands for in this phase, in notation (the one most likely meant first)."""
    if kind == "hand":
        return [f"play {rest}"]
    if kind == "city":
        if phase == "colonist":
            return [f"place land {rest}", f"place sea {rest}"]
        return [f"build {rest}"]
    if kind == "province":
        return [f"produce {rest}"]
    if kind == "card":
        return [f"buy {rest}"]
    if kind == "top":
        return [f"copy {rest}"]
    if kind == "good":
        if phase == "mercator":
            return [f"sell 1 {rest}", f"buy 1 {rest}"]
        if phase == "keep":
            return [f"keep {rest}"]
        return []
    if kind == "colonist":
        if phase == "tribune":
            return [f"colonist {rest}"]
        return [f"place {rest} {game.board.cities[game.board.start_city]}"]
    if kind == "route" and phase == "architect-move":
        return _moves(game, rest, selected)
    return []


def _moves(game: Game, rest: str, selected: list[str]) -> list[str]:
    """`move KIND PLACE > ROUTE` from the colonist place tapped before, else from each own colonist of that
    kind, the nearest first (the one a player most likely meant)."""
    sea, _, route = rest.partition(":")
    seat = game.state.turn_player
    routes = [r for r in range(len(game.board.routes))
              if location_name(game.board, core.ROUTE_OFFSET + r) == route]
    lo = 3 if sea == "sea" else 0
    pos = game.to_json()
    found = []
    for i in range(lo, lo + 3):
        loc = game.state.colonist_location(seat, i)
        if loc == core.STORE:
            continue
        place = location_name(game.board, loc)
        steps = costs.move_cost(game, pos, core.encode(ActionType.MOVE, i, routes[0]))["steps"] if routes else 0
        found.append((steps, place))
    chosen = {s.split(":", 2)[-1] for s in selected if s.startswith(("city:", f"route:{sea}:"))}
    mine = [p for _, p in sorted(found) if p in chosen] or [p for _, p in sorted(found)]
    return [f"move {sea} {p} > {route}" for p in dict.fromkeys(mine)]
