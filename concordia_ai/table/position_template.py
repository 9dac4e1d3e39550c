"""A position to fill in at the table, and the check that says what is still missing or inconsistent.

`template` writes a complete position (every field present) for a board and player count: the opening
state, with the placeholder "?" where only the table can tell (city goods, bonus markers, display, the
unseen cards). `problems` lists every placeholder still left and, once there are none, every problem of
the strict check (position.check), each under its JSON path.
"""
from __future__ import annotations

import copy
import json
from typing import Any

from ..engine import vocabulary, position
from ..engine.content import BOARD_NAMES
from ..engine.game import Game
from ..engine.position import PositionError

PLACEHOLDER = "?"
FRESH_SCRATCH = dict(steps=0, moved=0, merc_sold_last=-1, merc_bought_last=-1, merc_kinds=0, merc_sold_mask=0,
                     buys=0, col_last=0, col_cash_ok=0, keep_player=0, keep_last=0)


def template(board: str, players: int, names: list[str] | None = None) -> dict:
    """The opening position of `board` for `players`, with "?" for the goods, markers, display and unseen."""
    pos = Game.new(board, players, 0, names).to_json()
    b = vocabulary.board(board)
    pos["cities"] = {city: PLACEHOLDER for city in pos["cities"]}
    pos["provinces"] = {p: {"marker": None if v == b.variable_province else PLACEHOLDER, "side": "goods"}
                        for v, p in enumerate(b.provinces)}
    pos["display"] = [PLACEHOLDER] * 7
    pos["unseen"] = PLACEHOLDER
    pos["stack_order"] = None
    pos["chance"] = "external"          # a real table: the cards turned up are entered as reveal moves
    pos["rng"] = 1
    pos["turn"]["card"] = None
    pos["turn"]["scratch"] = {**FRESH_SCRATCH, "pend": [[0] * 5 for _ in range(players)]}
    return pos


def problems(data: Any) -> list[PositionError]:
    """Every placeholder left in `data`; if none, every problem of the strict check."""
    if not isinstance(data, dict):        # "?" as the whole file, or a list: no position to fill in
        return position.check(data)
    left = list(_placeholders(data, ()))
    if left:
        return [PositionError(_path(parts), _what_to_fill(data, parts)) for parts in left]
    return position.check(data)


def _placeholders(value, parts: tuple):
    """The key path (keys and list indices) of every "?" in `value`."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _placeholders(v, parts + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _placeholders(v, parts + (i,))
    elif value == PLACEHOLDER:
        yield parts


def _path(parts: tuple) -> str:
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in parts)


def _what_to_fill(data: dict, parts: tuple) -> str:
    """What the "?" at `parts` stands for. Read from the key path, never parsed back from its text: a "?"
    may sit anywhere (in a list where an object belongs, under a key such as "display[x]")."""
    goods = vocabulary.rules().goods
    key = data.get("board")
    board = vocabulary.board(key.strip().lower()) if isinstance(key, str) and key.strip().lower() in BOARD_NAMES \
        else None
    cities = data.get("cities") if isinstance(data.get("cities"), dict) else {}
    named = len(parts) > 1 and isinstance(parts[1], str)
    if len(parts) == 2 and parts[0] == "cities" and named and board is not None and parts[1] in board.cities:
        c = board.cities.index(parts[1])
        return (f"to fill in: the good of {parts[1]} ({vocabulary.LETTERS[board.city_letter[c]]}, "
                f"{board.provinces[board.city_province[c]]}): {', '.join(goods)}")
    if len(parts) == 3 and parts[0] == "provinces" and named and parts[2] == "marker":
        prov = parts[1]
        hint = ""
        if board is not None and prov in board.provinces:
            v = board.provinces.index(prov)
            city_goods = [cities.get(board.cities[c]) for c, cp in enumerate(board.city_province) if cp == v]
            if city_goods and all(g in goods for g in city_goods):
                hint = f": {max(city_goods, key=goods.index)} from its cities' goods"
        return f"to fill in: the good on the bonus marker of {prov} (its most valuable city good){hint}"
    if len(parts) == 2 and parts[0] == "display" and isinstance(parts[1], int):
        return f"to fill in: the card at position {parts[1] + 1} of the display (e.g. Architect/I), or null if empty"
    if parts == ("unseen",):
        derived = derive_unseen(data)
        if derived is None:
            return ('to fill in: the cards still in the stack per deck, e.g. {"II": ["Architect", "Consul"]} '
                    '(fill in the display and hands first, and this check will work them out)')
        return f"to fill in: the cards still in the stack; from the display and the hands: {json.dumps(derived)}"
    return "to fill in"


def derive_unseen(data: dict) -> dict[str, list[str]] | None:
    """The unseen cards that the display and the players' cards imply, or None if they cannot be read.

    The stack is turned up deck I first, so the cards bought come from the lowest decks: each bought card
    (beyond the starting hand) is matched to the lowest-deck card of its kind that is not in the display."""
    trial = copy.deepcopy(data)
    trial["unseen"] = {}
    trial["stack_order"] = None
    try:
        pos = Game.from_json(trial).to_json()
    except (PositionError, ValueError, TypeError, KeyError, AttributeError):    # only a hint: never a crash
        return None
    R = vocabulary.rules()
    n = len(pos["players"])
    bought: dict[str, int] = {}
    start = {k.label: R.start_hand[i] for i, k in enumerate(R.kinds)}
    for p in pos["players"]:
        for label in set(p["hand"]) | set(p["discard"]):
            extra = p["hand"].get(label, 0) + p["discard"].get(label, 0) - start.get(label, 0)
            if extra > 0:
                bought[label] = bought.get(label, 0) + extra
    shown = set(pos["display"])
    unseen: dict[str, list[str]] = {}
    for card in sorted(R.market, key=lambda m: (m.deck, m.id)):
        if card.deck >= n or card.label in shown:
            continue
        kind = R.kinds[card.kind].label
        if bought.get(kind, 0) > 0:
            bought[kind] -= 1
            continue
        unseen.setdefault(card.numeral, []).append(card.name)
    return {d: sorted(names) for d, names in unseen.items()}
