"""Helpers for constructing rule-test positions (mercator, diplomat, market, specialists, scoring, setup,
intermediate scoring).

    pos = base("imperium", 3)                      # a fresh game's position, turn scratch reset
    set_player(pos, 0, coins=10, goods=dict(brick=2), hand={"Mercator/3": 1})
    g = start(pos, 0)                              # phase "play", P1 to decide
    assert "sell 2 brick" in texts(g)
"""
from __future__ import annotations

import copy

from concordia_ai.game import CHANCE, Game, GameError  # noqa: F401  (re-exported for the tests)

GOODS = ("brick", "food", "tool", "wine", "cloth")
PRICE = {"brick": 3, "food": 4, "tool": 5, "wine": 6, "cloth": 7}
START_HAND = {"Tribune": 1, "Architect": 1, "Prefect": 2, "Mercator/3": 1, "Diplomat/Jupiter": 1, "Senator": 1}


def base(board: str = "imperium", players: int = 3, seed: int = 1, wine_variant: bool = False,
         intermediate_scoring: bool = False) -> dict:
    """The position of a new game, with the turn scratch dropped (the loader fills its defaults)."""
    pos = Game.new(board, players, seed=seed, wine_variant=wine_variant,
                   intermediate_scoring=intermediate_scoring).to_json()
    pos["turn"].pop("scratch", None)
    return copy.deepcopy(pos)


def set_player(pos: dict, i: int, *, coins=None, goods=None, hand=None, discard=None, top="keep",
               houses=None, land=None, sea=None) -> dict:
    """Edit player i. goods: a dict (missing kinds = 0). land/sea: lists of up to 3 places
    (padded with 'storehouse'). top: a card label, None for an empty pile, 'keep' to leave as is."""
    p = pos["players"][i]
    if coins is not None:
        p["coins"] = coins
    if goods is not None:
        p["goods"] = {g: int(goods.get(g, 0)) for g in GOODS}
    if hand is not None:
        p["hand"] = dict(hand)
    if discard is not None:
        p["discard"] = dict(discard)
    if top != "keep":
        p["top"] = top
    if houses is not None:
        p["houses"] = list(houses)
    if land is not None:
        p["colonists"]["land"] = list(land) + ["storehouse"] * (3 - len(land))
    if sea is not None:
        p["colonists"]["sea"] = list(sea) + ["storehouse"] * (3 - len(sea))
    return pos


def set_cities(pos: dict, cities: dict) -> dict:
    """Set the goods of some cities (markers are left as they are)."""
    pos["cities"].update(cities)
    return pos


def played(pos: dict, i: int, *labels: str, extra: dict | None = None) -> dict:
    """Player i has played `labels` (the last one on top) out of the starting hand (plus `extra` cards
    in hand): the hand is the starting hand minus what was played, the discard holds what was played.
    A label not in the starting hand (a bought card) is simply added to the discard."""
    hand = dict(START_HAND)
    for k, v in (extra or {}).items():
        hand[k] = hand.get(k, 0) + v
    discard: dict = {}
    for lab in labels:
        if hand.get(lab, 0) > 0:
            hand[lab] -= 1
        discard[lab] = discard.get(lab, 0) + 1
    hand = {k: v for k, v in hand.items() if v}
    return set_player(pos, i, hand=hand, discard=discard, top=labels[-1] if labels else None)


def start(pos: dict, player: int = 0, number: int | None = None) -> Game:
    """Load pos with `player` to play a card (phase 'play')."""
    pos = copy.deepcopy(pos)
    name = pos["players"][player]["name"]
    pos["turn"].update(player=name, decider=name, phase="play", card=None)
    pos["turn"].pop("scratch", None)
    if number is not None:
        pos["turn"]["number"] = number
    return Game.from_json(pos)


def texts(g: Game) -> list[str]:
    return [g.text(m) for m in g.legal_moves()]


def player(g: Game, i: int) -> dict:
    return g.to_json()["players"][i]


def goods(g: Game, i: int) -> dict:
    return g.to_json()["players"][i]["goods"]


def coins(g: Game, i: int) -> int:
    return g.to_json()["players"][i]["coins"]


def run(g: Game, *moves: str) -> Game:
    for m in moves:
        g.apply(m)
    return g


def ok(g: Game) -> None:
    assert g.state.invariant_errors() == []
