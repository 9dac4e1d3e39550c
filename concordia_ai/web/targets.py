"""Which elements of the page a legal move is made by tapping.

Every legal move of the moment names the board and panel elements that stand for it, as ids the page
puts on its elements (`data-el`): `route:land:A-B` (a land and a sea route may join the same two
cities), `city:Name`, `province:Name`, `card:Architect/II` (a
display card), `hand:Prefect`, `top:Farmer` (a top discard to copy), `good:wine`, `colonist:land`,
`unseen:Mason/II` (a card to reveal). The page narrows the moves to those naming every element tapped,
in the order tapped, and plays the move when one is left. Moves with no element (`done`, `cash`) are
buttons only.
"""
from __future__ import annotations

import re

from ..engine.game import Game

_MOVE = re.compile(r"move (land|sea) (.+) > (.+)$")


def targets(game: Game, text: str, hand: dict[str, int] | None = None) -> list[str]:
    """The element ids of one legal move in canonical notation (first the one usually tapped first)."""
    verb, _, rest = text.partition(" ")
    if verb == "play":
        if rest == "Diplomat" and hand:     # one move for every Diplomat in hand: any of them plays it
            return [f"hand:{label}" for label in hand if label.startswith("Diplomat")]
        return [f"hand:{rest}"]
    if verb == "copy":
        return [f"top:{rest}"]
    if verb == "colonist":
        return [f"colonist:{rest}"]
    if verb == "move":
        m = _MOVE.match(text)
        if m:
            kind, start, route = m.groups()
            return [place(game, start, kind), f"route:{kind}:{route}"]
    if verb == "build":
        return [f"city:{rest}"]
    if verb == "produce":
        province, good = split_good(game, rest)
        return [f"province:{province}"] + ([f"good:{good}"] if good else [])
    if verb == "keep":
        return [f"good:{rest}"]
    if verb in ("sell", "buy") and rest.split(" ", 1)[0].isdigit():
        return [f"good:{rest.split(' ', 1)[1]}"]
    if verb == "buy":
        card, _, paying = rest.partition(" paying ")
        return [f"card:{card}"] + ([f"good:{paying}"] if paying else [])
    if verb == "place":
        kind, _, city = rest.partition(" ")
        return [f"city:{city}", f"colonist:{kind}"]
    if verb == "reveal":
        return [f"unseen:{rest}"]
    if verb == "enter":         # Aegyptus: a sea colonist's line onto a special square
        return [f"route:sea:{rest}"]
    return []


def place(game: Game, name: str, kind: str) -> str:
    """A colonist's place as an element: a route of its kind, or a city (Roma, a city placed in)."""
    return f"city:{name}" if name in game.board.cities else f"route:{kind}:{name}"


def split_good(game: Game, rest: str) -> tuple[str, str | None]:
    """'Brown cloth' -> ('Brown', 'cloth'): the produce of a province with a variable bonus."""
    head, _, last = rest.rpartition(" ")
    if head and last in game.rules.goods and head in game.board.provinces:
        return head, last
    return rest, None
