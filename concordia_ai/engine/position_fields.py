"""The fields of the position format, in one table: what each is, its bounds, whether it is required, seen at
the table or derived from the rest, and what it means.

The table drives the position module's export (the order and the sparse fields of `dump`), its loader (an
unknown field is refused at every level, with a "did you mean"; the numbers are read with the bounds and
defaults here), the position template (it asks only for the visible fields) and `position check --fill`
(it writes in the derived ones). docs/position-format.md documents every field of the table (a test checks
it). Paths use `[]` for the items of a list and `{}` for the entries of an object keyed by names
(`players[].coins`, `provinces{}.marker`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import GameError
from .words import did_you_mean

# far below the core's 2^30 so that no amount of play from a loaded position overflows it
MAX_COINS = 10 ** 6
MAX_TURN = 10 ** 6
MAX_INTERMEDIATE_VP = 10 ** 4
PLAYERS_MINUS_ONE = "n-1"        # a bound that is the number of players less one
NO_DEFAULT = object()


class PositionError(GameError):
    """A bad position: `path` is the JSON path of the first bad field."""

    def __init__(self, path: str, message: str):
        super().__init__(f"{path}: {message}")
        self.path = path
        self.message = message


@dataclass(frozen=True)
class Field:
    path: str                    # where it lives: "players[].coins", "turn.scratch.steps"
    type: str                    # "string", "int", "bool", "object", "list", "map", "name", "name or null", ...
    doc: str
    required: bool = True
    visible: bool = True         # seen at the table: the position template asks for it
    derived: bool = False        # follows from the other fields: `position check --fill` writes it in
    bounds: tuple | None = None  # (low, high) of an int; PLAYERS_MINUS_ONE for a seat or turn count
    default: Any = NO_DEFAULT    # the value of an optional field left out
    sparse: bool = False         # written only when it differs from its default (fields added later)
    note: str = ""               # why the upper bound, for the message that refuses a value above it

    @property
    def name(self) -> str:
        return self.path.rsplit(".", 1)[-1]

    @property
    def parent(self) -> str:
        return self.path.rsplit(".", 1)[0] if "." in self.path else "$"


def _scratch(name, doc, default, bounds=None, type="int", sparse=False):
    return Field(f"turn.scratch.{name}", type, doc, required=False, visible=False, bounds=bounds, default=default,
                 sparse=sparse)


FIELDS: tuple[Field, ...] = (
    Field("format", "string", 'always "concordia-position"'),
    Field("version", "int", "1"),
    Field("board", "name", "imperium, italia, creta or aegyptus"),
    Field("options", "object", "the rule options of the game", required=False, default={}),
    Field("options.wine_variant", "bool", "the wine variant of the display surcharges", required=False,
          default=False),
    Field("options.intermediate_scoring", "bool", "intermediate scoring (Italia, Creta, Aegyptus)", required=False,
          default=False),
    Field("players", "list", "2 to 5 players in seat order: players[0] is the first player"),
    Field("players[].name", "string", "unique (ignoring case), non-empty, no spaces at either end, not chance or "
                                      "nobody"),
    Field("players[].coins", "int", "sestertii", bounds=(0, MAX_COINS), note="a real game uses a few hundred"),
    Field("players[].goods", "map", "good -> count in the storehouse (a good left out is 0)"),
    Field("players[].colonists", "object", "each colonist's place: storehouse, a city or a route City-City"),
    Field("players[].colonists.land", "list", "the 3 land colonists"),
    Field("players[].colonists.sea", "list", "the 3 sea colonists"),
    Field("players[].houses", "list", "the cities with a house of the player"),
    Field("players[].hand", "map", "card label -> count of the cards in hand (0..30); always a Tribune"),
    Field("players[].discard", "map", "card label -> count of the discard pile"),
    Field("players[].top", "name or null", "the top card of the discard pile (what a Diplomat may copy)",
          required=False, default=None),
    Field("players[].intermediate_vp", "int or null", "the VP of this player's intermediate scoring, null before",
          required=False, default=None, bounds=(0, MAX_INTERMEDIATE_VP)),
    Field("cities", "map", "city -> good, for every city with a city token"),
    Field("provinces", "map", "province -> {marker, side}, for every province"),
    Field("provinces{}.marker", "name or null", "the good on the bonus marker (the most valuable good of the "
                                               "province's cities; null only for a variable-bonus province)",
          derived=True),
    Field("provinces{}.side", "name", "goods, or coins after a Prefect produced there"),
    Field("display", "list", "the 7 places of the market display, left to right: Card/N or null"),
    Field("unseen", "map", "deck numeral -> the names of its cards still in the stack (a multiset)", visible=False,
          derived=True),
    Field("stack_order", "list or null", "the true order of the stack, top first, when a simulation knows it",
          required=False, visible=False, default=None),
    Field("chance", "name", "sample (the engine draws the cards turned up) or external (entered as reveal moves)",
          required=False, visible=False, default="sample"),
    Field("praefectus_magnus", "player", "who holds the Praefectus Magnus"),
    Field("turn", "object", "whose turn and what is being resolved"),
    Field("turn.number", "int", "turns completed so far", required=False, default=0, bounds=(0, MAX_TURN),
          note="a real game lasts about 100"),
    Field("turn.player", "player", "whose turn it is"),
    Field("turn.phase", "name", "play, diplomat, tribune, architect-move, architect-build, prefect, mercator, "
                                "senator, consul, colonist, keep, chance, over, square"),
    Field("turn.decider", "player, chance or null", "who decides now; left out, it follows from the phase",
          required=False, visible=False, derived=True),
    Field("turn.card", "name or null", "the card being resolved (after a Diplomat: the copied card)",
          required=False, default=None),
    Field("turn.scratch", "object", "the mid-turn state of the card being resolved (engine internals)",
          required=False, visible=False, default={}),
    _scratch("steps", "Architect: movement steps left", 0, (0, 6)),
    _scratch("moved", "Architect: bitmask of the colonists moved this turn", 0, (0, 63)),
    _scratch("arch_from", "Architect: where each moved colonist started (a raw place), -1 for one not moved",
             [-1] * 6, type="list", sparse=True),
    _scratch("pick_last", "Architect: the last city built in; Senator: the slot (+ 8 x (1 + good paid)) of the "
                          "first card bought", -1, (-1, 63), sparse=True),
    _scratch("merc_sold_last", "Mercator: the last good sold, -1 none", -1, (-1, 4)),
    _scratch("merc_bought_last", "Mercator: the last good bought, -1 none", -1, (-1, 4)),
    _scratch("merc_kinds", "Mercator: kinds traded so far", 0, (0, 2)),
    _scratch("merc_sold_mask", "Mercator: bitmask of the goods sold", 0, (0, 31)),
    _scratch("buys", "Senator/Consul: cards bought this turn", 0, (0, 2)),
    _scratch("col_last", "Colonist: kind x 40 + city of the last placement", 0, (0, 80)),
    _scratch("col_cash_ok", "Colonist: 1 while the income option is open", 0, (0, 1)),
    _scratch("keep_player", "keep: the seat choosing what to keep", 0, (0, PLAYERS_MINUS_ONE)),
    _scratch("keep_last", "keep: the last good kept", 0, (0, 4)),
    _scratch("pend", "keep: per seat, 5 counts of goods received but not yet stored", None, type="list"),
    Field("end", "object", "the end of the game", required=False, default={}),
    Field("end.concordia", "player or null", "who took the Concordia card", required=False, default=None),
    Field("end.trigger_this_turn", "bool", "the game's end was triggered in this turn", required=False,
          visible=False, default=False),
    Field("end.final_turns_left", "int", "final turns left after the end was triggered", required=False,
          default=0, bounds=(0, PLAYERS_MINUS_ONE)),
    Field("intermediate_paid", "bool", "the intermediate scoring's bonus coins have been paid", required=False,
          visible=False, default=False),
    Field("rng", "int", "the 64-bit state of the engine's sampling generator", required=False, visible=False,
          default=1),
    Field("nile_marker", "name", "Aegyptus only: the province the Nile marker is on", required=False,
          default=None),
)

BY_PATH = {f.path: f for f in FIELDS}
SCRATCH = tuple(f for f in FIELDS if f.parent == "turn.scratch")


def children(parent: str) -> list[Field]:
    """The fields of the object at `parent` ("$", "players[]", "turn.scratch")."""
    return [f for f in FIELDS if f.parent == parent]


def known_fields(obj: dict, parent: str, where: str) -> dict:
    """`obj` with its keys as the field names of `parent` (case and outer spaces ignored, as for every name);
    PositionError for a key that is no field there (with a did-you-mean) or a field given twice."""
    known = [f.name for f in children(parent)]
    out = {}
    for key, value in obj.items():
        name = key.strip().lower() if isinstance(key, str) else key
        if name not in known:
            close = did_you_mean(str(name), known)
            hint = f"did you mean {' or '.join(close)}?" if close else f"valid: {', '.join(known)}"
            raise PositionError(f"{where}.{key}", f"unknown field {key!r}; {hint}")
        if name in out:
            raise PositionError(f"{where}.{key}", f"{name} is given twice")
        out[name] = value
    return out


def field_value(obj: Any, path: str, where: str, players: int | None = None) -> Any:
    """The value of the field `path` in the object `obj` (at JSON path `where`), checked against its type and
    bounds; the default for an optional field left out."""
    f = BY_PATH[path]
    if not isinstance(obj, dict):
        raise PositionError(where, "must be an object")
    at = f"{where}.{f.name}"
    if f.name not in obj:
        if f.required:
            raise PositionError(at, "missing")
        return f.default
    value = obj[f.name]
    if f.type.startswith("int"):
        if value is None and f.type == "int or null":
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise PositionError(at, f"{value!r} is not an integer")
        if f.bounds is not None:
            _within(value, f, at, players)
        return value
    want = {"string": str, "name": str, "player": str, "bool": bool, "object": dict, "map": dict, "list": list}
    kind = want.get(f.type)
    if kind is not None and not isinstance(value, kind):
        word = {dict: "an object", list: "a list", str: "a string", bool: "true or false"}[kind]
        raise PositionError(at, f"{value!r} is not {word}")
    return value


def _within(value: int, f: Field, at: str, players: int | None) -> None:
    lo, hi = f.bounds
    if hi == PLAYERS_MINUS_ONE:
        hi = (players or 1) - 1
        if not lo <= value <= hi:
            raise PositionError(at, f"{value} is not in {lo}..{hi}")
    if value < lo:
        raise PositionError(at, f"cannot be negative: {value}" if lo == 0 else f"{value} is less than {lo}")
    if value > hi:
        raise PositionError(at, f"{value} is more than {hi}" + (f" ({f.note})" if f.note else ""))


def markdown_table() -> str:
    """The field table as Markdown, for docs/position-format.md (scripts/position_example.py writes it in)."""
    import json
    rows = ["| field | type | bounds | required | visible | derived | meaning |", "|---|---|---|---|---|---|---|"]
    for f in FIELDS:
        lo, hi = f.bounds or (None, None)
        bounds = "" if f.bounds is None else f"{lo}..n-1" if hi == PLAYERS_MINUS_ONE else f"{lo:,}..{hi:,}"
        shown = f.default is not NO_DEFAULT and (f.default is not None or "null" in f.type)
        required = "yes" if f.required else f"no ({json.dumps(f.default)})" if shown else "no"
        rows.append(f"| `{f.path}` | {f.type} | {bounds} | {required} | {'yes' if f.visible else '-'} | "
                    f"{'yes' if f.derived else '-'} | {f.doc} |")
    return "\n".join(rows)
