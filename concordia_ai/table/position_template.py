"""A position to fill in at the table, the check that says what is still missing or inconsistent, and the
fill that writes in what follows from the rest.

`template` writes the fields a player can see at the table (the visible fields of the field table,
engine/position_fields.py): the opening state, with the placeholder "?" where only the table can tell (city
goods, bonus markers, display). Nothing the table does not show is asked: no mid-turn scratch, no sampling
state; the unseen cards and the decider follow from the rest. `fill` writes in the derived fields (each
bonus marker from its cities' goods, the unseen cards from the display and the hands). `problems` lists
every placeholder still left, every derived field still missing, and once there are none, every problem of
the strict check (position.check), each under its JSON path.
"""
from __future__ import annotations

import copy
import json
import re
from typing import Any

from ..engine import position, position_fields, vocabulary
from ..engine.content import BOARD_NAMES
from ..engine.game import Game
from ..engine.position import PositionError

PLACEHOLDER = "?"


def template(board: str, players: int, names: list[str] | None = None) -> dict:
    """The visible fields of the opening position of `board` for `players`, with "?" for the goods, markers and
    display; a real table's cards turned up are entered as reveal moves (chance "external")."""
    pos = _visible(Game.new(board, players, 0, names).to_json(), "")
    b = vocabulary.board(board)
    pos["cities"] = {city: PLACEHOLDER for city in pos["cities"]}
    pos["provinces"] = {p: {"marker": None if v == b.variable_province else PLACEHOLDER, "side": "goods"}
                        for v, p in enumerate(b.provinces)}
    pos["display"] = [PLACEHOLDER] * 7
    pos["chance"] = "external"
    pos["turn"]["card"] = None
    return pos


def _visible(value, path: str):
    """`value` (at the field table's `path`) without the fields a player does not see at the table."""
    if isinstance(value, list) and path == "players":
        return [_visible(v, "players[]") for v in value]
    if not isinstance(value, dict) or not position_fields.children(path or "$"):
        return value
    return {k: _visible(v, f"{path}.{k}" if path else k) for k, v in value.items()
            if position_fields.BY_PATH[f"{path}.{k}" if path else k].visible}


# ------------------------------------------------------------------ what follows from the rest

def fill(data: dict) -> list[tuple[str, Any, str]]:
    """Write the derived fields that are "?" or left out into `data`: (path, value, from what) for each."""
    done = []
    board = _board(data)
    provinces = data.get("provinces")
    cities = data.get("cities")
    if board is not None and isinstance(provinces, dict) and isinstance(cities, dict):
        for v, prov in enumerate(board.provinces):
            entry = provinces.get(prov)
            if v == board.variable_province or not isinstance(entry, dict) or \
                    entry.get("marker", PLACEHOLDER) != PLACEHOLDER:
                continue
            best = _marker_good(board, v, cities)
            if best is not None:
                entry["marker"] = best
                done.append((f"$.provinces.{prov}.marker", best, "the most valuable good of its cities"))
    if data.get("unseen", PLACEHOLDER) == PLACEHOLDER:
        unseen = derive_unseen(data)
        if unseen is not None:
            data["unseen"] = unseen
            done.append(("$.unseen", unseen, "the display and the hands"))
    return done


def _board(data: dict):
    key = str(data.get("board", "")).strip().lower() if isinstance(data, dict) else ""
    return vocabulary.board(key) if key in BOARD_NAMES else None


def _marker_good(board, v: int, cities: dict) -> str | None:
    """The most valuable good of province v's cities, when every one of them is filled in."""
    goods = vocabulary.rules().goods
    city_goods = [cities.get(board.cities[c]) for c, cp in enumerate(board.city_province) if cp == v]
    if city_goods and all(g in goods for g in city_goods):
        return max(city_goods, key=goods.index)
    return None


def problems(data: Any) -> list[PositionError]:
    """Every placeholder left in `data` and every derived field missing; if none, every problem of the strict
    check."""
    if not isinstance(data, dict):        # "?" as the whole file, or a list: no position to fill in
        return position.check(data)
    left = list(_placeholders(data, "$"))
    if "unseen" not in data:
        left.append("$.unseen")
    if left:
        return [PositionError(path, _what_to_fill(data, path)) for path in left]
    return position.check(data)


def _placeholders(value, path: str):
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _placeholders(v, f"{path}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _placeholders(v, f"{path}[{i}]")
    elif value == PLACEHOLDER:
        yield path


def _what_to_fill(data: dict, path: str) -> str:
    goods = vocabulary.rules().goods
    board = _board(data)
    if path.startswith("$.cities.") and board is not None and path[9:] in board.cities:
        c = board.cities.index(path[9:])
        return (f"to fill in: the good of {path[9:]} ({vocabulary.LETTERS[board.city_letter[c]]}, "
                f"{board.provinces[board.city_province[c]]}): {', '.join(goods)}")
    if path.startswith("$.provinces.") and path.endswith(".marker"):
        prov = path[len("$.provinces."):-len(".marker")]
        hint = ""
        if board is not None and prov in board.provinces and isinstance(data.get("cities"), dict):
            best = _marker_good(board, board.provinces.index(prov), data["cities"])
            if best is not None:
                hint = f": {best} from its cities' goods (--fill writes it in)"
        return f"to fill in: the good on the bonus marker of {prov} (its most valuable city good){hint}"
    if re.fullmatch(r"\$\.display\[\d+\]", path):    # a "?" may sit under any key, e.g. "display[x]"
        i = int(path[len("$.display["):-1])
        return f"to fill in: the card at position {i + 1} of the display (e.g. Architect/I), or null if empty"
    if path == "$.unseen":
        derived = derive_unseen(data)
        if derived is None:
            return ('to fill in: the cards still in the stack per deck, e.g. {"II": ["Architect", "Consul"]}; they '
                    'follow from the display and the hands: once those are filled in, --fill writes them in')
        return (f"to fill in: the cards still in the stack; from the display and the hands: {json.dumps(derived)} "
                f"(--fill writes it in)")
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
    except (PositionError, ValueError):
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
