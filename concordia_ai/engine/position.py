"""Positions as JSON: a whole game state, between or inside turns, in names a person can read.

See docs/position-format.md. `dump(state, names)` writes one; `load(data)` validates every field and
raises PositionError naming the JSON path of the first bad one.

A loaded position, loose or strict, is one that play can continue from and save again: it is never a
dead end (every player holds a Tribune, so nobody runs out of cards), its numbers stay far below the
core's limits (MAX_COINS, MAX_TURN: a real game uses a few hundred at most), and it keeps the
invariants play keeps (a single-capacity route holds one colonist; mid-Architect, only the mover's
own colonists may share one, and the movement must be able to end within capacity).
"""
from __future__ import annotations

from typing import Any

from . import position_fields as fields
from . import vocabulary
from .. import core
from .content import BOARD_NAMES
from .position_fields import MAX_COINS, MAX_INTERMEDIATE_VP, MAX_TURN, PositionError, field_value
from .words import did_you_mean
from . import limits
from .player_names import name_problem

FORMAT = "concordia-position"
VERSION = 1
STOREHOUSE = "storehouse"
SIDES = ("goods", "coins")
PHASE_CODES = {name: code for code, name in core.PHASES.items()}
# what the loader offers: PositionError and the limits are defined with the field table, and read here
__all__ = ["FORMAT", "VERSION", "MAX_COINS", "MAX_TURN", "MAX_INTERMEDIATE_VP", "PositionError", "dump", "load",
           "check", "key", "route_name", "location_name"]
CARD_COUNT_LIMIT = 30       # the core's limit on the cards of one kind in a hand or a discard pile


def _max_owned(R) -> int:
    """Cards of one kind a player may own in a loaded position: the core's limit less the most
    copies of one kind in the market, so that buying them all stays within it (a Tribune takes the
    discard pile back into the hand)."""
    copies: dict[int, int] = {}
    for m in R.market:
        copies[m.kind] = copies.get(m.kind, 0) + 1
    return CARD_COUNT_LIMIT - max(copies.values())


def key(state: core.CoreState) -> str:
    """A short identity of a whole state (the same for equal states, also across processes): a hash of
    the core's export in canonical JSON. (Stands in until the core provides a key of its own.)"""
    import hashlib
    import json
    blob = json.dumps(state.export(), sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(blob.encode(), digest_size=16).hexdigest()


def route_name(board: vocabulary.CompiledBoard, r: int) -> str:
    a, b, _sea, _cap = board.routes[r]
    return f"{board.cities[a]}-{board.cities[b]}"


def location_name(board: vocabulary.CompiledBoard, loc: int) -> str:
    if loc == core.STORE:
        return STOREHOUSE
    if loc >= core.ROUTE_OFFSET:
        return route_name(board, loc - core.ROUTE_OFFSET)
    return board.cities[loc]


def _find_location(board, text: str, sea: int, path: str) -> int:
    key = text.strip().lower()
    if key == STOREHOUSE:
        return core.STORE
    for c, name in enumerate(board.cities):
        if name.lower() == key:
            return c
    for r, (a, b, rsea, _cap) in enumerate(board.routes):
        if rsea != sea:
            continue
        names = {f"{board.cities[a]}-{board.cities[b]}".lower(), f"{board.cities[b]}-{board.cities[a]}".lower()}
        if key in names:
            return core.ROUTE_OFFSET + r
    kind = "sea" if sea else "land"
    raise PositionError(path, f"{text!r} is not a city, '{STOREHOUSE}' or a {kind} route 'City-City' of {board.name}")


def dump(state: core.CoreState, names: list[str]) -> dict[str, Any]:
    """The position of `state` (players named `names`)."""
    R = vocabulary.rules()
    raw = state.export()
    board = vocabulary.board_by_id(raw["board"])
    goods = R.goods
    n = raw["n_players"]

    def player_name(i):
        return names[i] if 0 <= i < n else None

    def counts(vec):
        return {R.kinds[k].label: c for k, c in enumerate(vec) if c}

    players = []
    for i, p in enumerate(raw["players"]):
        players.append({
            "name": names[i],
            "coins": p["coins"],
            "goods": {g: p["goods"][j] for j, g in enumerate(goods)},
            "colonists": {
                "land": [location_name(board, x) for x in p["colonists"][:3]],
                "sea": [location_name(board, x) for x in p["colonists"][3:]],
            },
            "houses": [board.cities[c] for c in p["houses"]],
            "hand": counts(p["hand"]),
            "discard": counts(p["discard"]),
            "top": R.kinds[p["top"]].label if p["top"] >= 0 else None,
            "intermediate_vp": p["inter_vp"] if p["inter_done"] else None,
        })
    unseen: dict[str, list[str]] = {}
    for cid in reversed(raw["stack"]):
        card = R.market[cid]
        unseen.setdefault(card.numeral, []).append(card.name)
    for names_in_deck in unseen.values():
        names_in_deck.sort()
    out = {
        "format": FORMAT,
        "version": VERSION,
        "board": board.name,
        "options": {"wine_variant": bool(raw["options"] & core.OPTION_WINE_VARIANT),
                    "intermediate_scoring": bool(raw["options"] & core.OPTION_INTERMEDIATE)},
        "players": players,
        "cities": {board.cities[c]: goods[g] for c, g in enumerate(raw["city_good"]) if g >= 0},
        "provinces": {
            board.provinces[v]: {"marker": goods[raw["marker_good"][v]] if raw["marker_good"][v] >= 0 else None,
                                 "side": SIDES[raw["marker_coin"][v]]}
            for v in range(len(board.provinces))},
        "display": [R.market[c].label if c >= 0 else None for c in raw["display"]],
        "unseen": unseen,
        "stack_order": [R.market[c].label for c in reversed(raw["stack"])] if raw["order_known"] else None,
        "chance": "external" if raw["chance_external"] else "sample",
        "praefectus_magnus": names[raw["pm_holder"]],
        "turn": {
            "number": raw["turns"],
            "player": names[raw["turn_player"]],
            "phase": core.PHASES[raw["phase"]],
            "decider": player_name(raw["decider"]) if raw["decider"] >= 0 else
            ("chance" if raw["decider"] == core.CHANCE else None),
            "card": R.kinds[raw["act_kind"]].label if raw["act_kind"] >= 0 else None,
            # the sparse fields (the canonical-order memory of the card in play) only when set, so that
            # positions and game files from before them still compare equal
            "scratch": {f.name: raw[f.name] for f in fields.SCRATCH if not f.sparse or raw[f.name] != f.default},
        },
        "end": {"concordia": player_name(raw["end_player"]), "trigger_this_turn": bool(raw["end_this_turn"]),
                "final_turns_left": raw["final_turns"]},
        "intermediate_paid": bool(raw["inter_paid"]),
        "rng": raw["rng"],
    }
    if board.nile:
        out["nile_marker"] = board.provinces[board.nile[raw["nile_pos"]]]
    return out


# ------------------------------------------------------------------ loading

def _choice(value, options, path, what):
    if not isinstance(value, str):
        raise PositionError(path, f"{value!r} is not a string; valid {what}: {', '.join(options)}")
    for o in options:
        if o.lower() == value.strip().lower():
            return options.index(o)
    close = did_you_mean(value, options)
    if close:
        raise PositionError(path, f"unknown {what} {value!r}; did you mean {' or '.join(close)}?")
    raise PositionError(path, f"unknown {what} {value!r}; valid: {', '.join(options)}")


def _object(obj, parent: str, where: str) -> dict:
    """An object of the field table, with no field it does not know."""
    if not isinstance(obj, dict):
        raise PositionError(where, "must be an object")
    return fields.known_fields(obj, parent, where)


class _Reader:
    """What `load` has read so far: the board, the names and the rules, for the sections that follow."""

    def __init__(self, data: Any):
        self.R = vocabulary.rules()
        self.goods = list(self.R.goods)
        self.kind_labels = [k.label for k in self.R.kinds]
        self.market_labels = [m.label for m in self.R.market]
        if not isinstance(data, dict):
            raise PositionError("$", "a position is a JSON object")
        if field_value(data, "format", "$") != FORMAT:
            raise PositionError("$.format", f"must be {FORMAT!r}")
        version = field_value(data, "version", "$")
        if version != VERSION:
            raise PositionError("$.version", f"{version} is not supported (this program reads version {VERSION})")
        self.data = data = _object(data, "$", "$")
        self.board_id = _choice(field_value(data, "board", "$"), list(BOARD_NAMES), "$.board", "board")
        self.board = vocabulary.board_by_id(self.board_id)
        opts = _object(field_value(data, "options", "$"), "options", "$.options")
        self.options = (core.OPTION_WINE_VARIANT if field_value(opts, "options.wine_variant", "$.options") else 0) | \
            (core.OPTION_INTERMEDIATE if field_value(opts, "options.intermediate_scoring", "$.options") else 0)
        self.names = self._names(field_value(data, "players", "$"))
        self.n = len(self.names)

    def _names(self, players: list) -> list[str]:
        if not 2 <= len(players) <= core.MAX_PLAYERS:
            raise PositionError("$.players", f"{len(players)} players; a game has 2 to {core.MAX_PLAYERS}")
        names: list[str] = []
        self.players = [_object(p, "players[]", f"$.players[{i}]") for i, p in enumerate(players)]
        for i, p in enumerate(self.players):
            name = field_value(p, "players[].name", f"$.players[{i}]")
            if name != name.strip():
                raise PositionError(f"$.players[{i}].name",
                                    f"{name!r} has spaces at an end; write it as {name.strip()!r}")
            if name_problem(name):       # no control, formatting or overlong names (engine/player_names.py)
                raise PositionError(f"$.players[{i}].name", f"{limits.shown(name)} {name_problem(name)}")
            if not name.strip() or name.lower() in [x.lower() for x in names] or name.lower() in ("chance", "nobody"):
                raise PositionError(f"$.players[{i}].name",
                                    f"{name!r} is empty, reserved or used twice (names ignore case)")
            names.append(name)
        return names

    def seat(self, value, path, allow_none=False) -> int:
        if value is None and allow_none:
            return -1
        return _choice(value, self.names, path, "player")

    def card_counts(self, obj, path) -> list[int]:
        if not isinstance(obj, dict):
            raise PositionError(path, "must be an object of card name -> count")
        vec = [0] * len(self.kind_labels)
        for label, cnt in obj.items():
            k = _choice(label, self.kind_labels, f"{path}.{label}", "card")
            if isinstance(cnt, bool) or not isinstance(cnt, int) or not 0 <= cnt <= CARD_COUNT_LIMIT:
                raise PositionError(f"{path}.{label}", f"{cnt!r} is not a count 0..{CARD_COUNT_LIMIT}")
            vec[k] += cnt
        return vec

    # -------------------------------------------------------------- the sections of a position
    def player(self, i: int, p: dict) -> dict:
        path = f"$.players[{i}]"
        coins = field_value(p, "players[].coins", path)
        vec = [0] * 5
        for g, cnt in field_value(p, "players[].goods", path).items():
            j = _choice(g, self.goods, f"{path}.goods.{g}", "good")
            if isinstance(cnt, bool) or not isinstance(cnt, int) or cnt < 0:
                raise PositionError(f"{path}.goods.{g}", f"{cnt!r} is not a count")
            vec[j] = cnt
        cols = _object(field_value(p, "players[].colonists", path), "players[].colonists", f"{path}.colonists")
        locs = []
        for sea, kind in enumerate(("land", "sea")):
            lst = field_value(cols, f"players[].colonists.{kind}", f"{path}.colonists")
            if len(lst) != 3:
                raise PositionError(f"{path}.colonists.{kind}", "must list 3 colonists (a place or 'storehouse')")
            for j, text in enumerate(lst):
                if not isinstance(text, str):
                    raise PositionError(f"{path}.colonists.{kind}[{j}]", f"{text!r} is not a place name")
                locs.append(_find_location(self.board, text, sea, f"{path}.colonists.{kind}[{j}]"))
        houses: list[int] = []
        for j, h in enumerate(field_value(p, "players[].houses", path)):
            c = _choice(h, list(self.board.cities), f"{path}.houses[{j}]", "city")
            if c == self.board.start_city or c in self.board.squares:
                raise PositionError(f"{path}.houses[{j}]", f"no house can stand in {self.board.cities[c]}")
            if c in houses:
                raise PositionError(f"{path}.houses[{j}]", f"a second house in {h}")
            houses.append(c)
        hand = self.card_counts(field_value(p, "players[].hand", path), f"{path}.hand")
        discard = self.card_counts(field_value(p, "players[].discard", path), f"{path}.discard")
        top = field_value(p, "players[].top", path)
        inter_vp = field_value(p, "players[].intermediate_vp", path)
        max_owned = _max_owned(self.R)
        for k, (held, played) in enumerate(zip(hand, discard)):
            if held + played > max_owned:
                raise PositionError(f"{path}.hand.{self.kind_labels[k]}",
                                    f"{held + played} {self.kind_labels[k]} cards in hand and discard; at most "
                                    f"{max_owned} (the engine counts to {CARD_COUNT_LIMIT}, and more can be bought)")
        return dict(coins=coins, goods=vec, colonists=locs, houses=houses, hand=hand, discard=discard,
                    top=-1 if top is None else _choice(top, self.kind_labels, f"{path}.top", "card"),
                    inter_done=0 if inter_vp is None else 1, inter_vp=inter_vp or 0)

    def cities(self) -> list[int]:
        board = self.board
        city_good = [-1] * len(board.cities)
        for name, g in field_value(self.data, "cities", "$").items():
            c = _choice(name, list(board.cities), f"$.cities.{name}", "city")
            if board.city_letter[c] < 0:
                raise PositionError(f"$.cities.{name}", f"{board.cities[c]} takes no city token (no good)")
            city_good[c] = _choice(g, self.goods, f"$.cities.{name}", "good")
        for c, letter in enumerate(board.city_letter):
            if letter >= 0 and city_good[c] < 0:
                raise PositionError(f"$.cities.{board.cities[c]}", "missing: every city needs its good")
        return city_good

    def provinces(self) -> tuple[list[int], list[int]]:
        board = self.board
        provinces = field_value(self.data, "provinces", "$")
        marker_good = [-1] * len(board.provinces)
        marker_coin = [0] * len(board.provinces)
        given = {}          # every name is case-insensitive: provinces too
        lower = [x.lower() for x in board.provinces]
        for key in provinces:
            if key.strip().lower() not in lower:
                raise PositionError(f"$.provinces.{key}", f"no such province on {board.name}; valid: "
                                                          f"{', '.join(board.provinces)}")
            v = lower.index(key.strip().lower())
            if v in given:
                raise PositionError(f"$.provinces.{key}", f"{board.provinces[v]} is given twice")
            given[v] = key
        for v, pname in enumerate(board.provinces):
            path = f"$.provinces.{given.get(v, pname)}"
            if v not in given:
                raise PositionError(path, "missing")
            entry = _object(provinces[given[v]], "provinces{}", path)
            mg = field_value(entry, "provinces{}.marker", path)
            marker_good[v] = -1 if mg is None else _choice(mg, self.goods, f"{path}.marker", "good")
            marker_coin[v] = _choice(field_value(entry, "provinces{}.side", path), list(SIDES), f"{path}.side", "side")
            if marker_good[v] < 0 and (v != board.variable_province or marker_coin[v]):
                raise PositionError(f"{path}.marker", "needs a good (the marker's goods side)")
        return marker_good, marker_coin

    def display(self) -> list[int]:
        names = field_value(self.data, "display", "$")
        if len(names) != 7:
            raise PositionError("$.display", "must list 7 positions (a card like 'Weaver/II' or null)")
        display = [-1 if x is None else _choice(x, self.market_labels, f"$.display[{i}]", "market card")
                   for i, x in enumerate(names)]
        for i, c in enumerate(display):
            if c < 0:
                continue
            if display.index(c) != i:
                raise PositionError(f"$.display[{i}]", f"{self.R.market[c].label} listed twice")
            if self.R.market[c].deck >= self.n:
                raise PositionError(f"$.display[{i}]",
                                    f"{self.R.market[c].label} is not in the decks of a {self.n}-player game")
        return display

    def stack(self, display: list[int]) -> tuple[dict, list[int], int]:
        """(the unseen cards by deck, the stack top first, whether its order is known)."""
        numerals = list(vocabulary.NUMERALS[:self.n])
        by_deck = {}
        for numeral, lst in field_value(self.data, "unseen", "$").items():
            d = _choice(numeral, numerals, f"$.unseen.{numeral}", f"deck for {self.n} players")
            if not isinstance(lst, list):
                raise PositionError(f"$.unseen.{numeral}", "must be a list of card names")
            ids = []
            for j, name in enumerate(lst):
                label = f"{name}/{numerals[d]}" if isinstance(name, str) else name
                cid = _choice(label, self.market_labels, f"$.unseen.{numeral}[{j}]", f"card of deck {numerals[d]}")
                if cid in display or cid in ids:
                    where = "in the display" if cid in display else "listed twice"
                    raise PositionError(f"$.unseen.{numeral}[{j}]", f"{self.R.market[cid].label} is also {where}")
                ids.append(cid)
            by_deck[d] = ids
        # unknown order: the core keeps each deck ascending from the bottom of the array (canonical)
        stack_top_first = [c for d in sorted(by_deck) for c in sorted(by_deck[d], reverse=True)]
        order = self.data.get("stack_order")
        if order is None:
            return by_deck, stack_top_first, 0
        if not isinstance(order, list):
            raise PositionError("$.stack_order", "a list of cards, top first, or null")
        ids = [_choice(x, self.market_labels, f"$.stack_order[{j}]", "market card") for j, x in enumerate(order)]
        if sorted(ids) != sorted(stack_top_first):
            raise PositionError("$.stack_order", "must hold exactly the unseen cards")
        return by_deck, ids, 1

    def turn(self) -> dict:
        """The turn and end sections as the core's raw fields (the scratch separately: `scratch`)."""
        turn = _object(field_value(self.data, "turn", "$"), "turn", "$.turn")
        phase_name = field_value(turn, "turn.phase", "$.turn")
        if phase_name not in PHASE_CODES:
            raise PositionError("$.turn.phase", f"unknown phase {phase_name!r}; valid: {', '.join(PHASE_CODES)}")
        decider = turn.get("decider")
        if decider == "chance":
            decider_code = core.CHANCE
        elif decider is None:
            decider_code = core.NOBODY
        else:
            decider_code = self.seat(decider, "$.turn.decider")
        card = field_value(turn, "turn.card", "$.turn")
        scratch = _object(field_value(turn, "turn.scratch", "$.turn"), "turn.scratch", "$.turn.scratch")
        end = _object(field_value(self.data, "end", "$"), "end", "$.end")
        out = dict(turns=field_value(turn, "turn.number", "$.turn"),
                   final_turns=field_value(end, "end.final_turns_left", "$.end", self.n),
                   end_this_turn=int(field_value(end, "end.trigger_this_turn", "$.end")),
                   inter_paid=int(field_value(self.data, "intermediate_paid", "$")))
        turn_player = self.seat(field_value(turn, "turn.player", "$.turn"), "$.turn.player")
        if "decider" not in turn:      # left out (the template does): it follows from the phase
            decider_code = _decider_of(phase_name, turn_player, scratch, self.n)
        _check_decider(phase_name, decider_code, turn_player, scratch, self.names)
        out.update(phase=PHASE_CODES[phase_name], decider=decider_code, turn_player=turn_player,
                   act_kind=-1 if card is None else _choice(card, self.kind_labels, "$.turn.card", "card"),
                   end_player=self.seat(end.get("concordia"), "$.end.concordia", allow_none=True))
        self.scratch_given = scratch
        return out

    def scratch(self) -> dict:
        """The mid-turn fields, each checked against the field table (pend and arch_from by shape)."""
        n, out = self.n, {}
        for f in fields.SCRATCH:
            value = field_value(self.scratch_given, f.path, "$.turn.scratch", n)
            if f.name == "pend":
                value = [[0] * 5 for _ in range(n)] if value is None else value
                if not (isinstance(value, list) and len(value) == n and all(
                        isinstance(row, list) and len(row) == 5 and all(
                            isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= 60 for x in row)
                        for row in value)):
                    raise PositionError("$.turn.scratch.pend", f"a list of {n} lists of 5 counts (one per player)")
            elif f.name == "arch_from":
                top = core.ROUTE_OFFSET + len(self.board.routes)
                if not (isinstance(value, list) and len(value) == 6 and all(
                        isinstance(x, int) and not isinstance(x, bool) and -1 <= x < top for x in value)):
                    raise PositionError("$.turn.scratch.arch_from", "a list of 6 raw places (where each colonist "
                                        "moved this Architect started; -1 for one that has not moved)")
            out[f.name] = value
        return out


def load(data: Any, strict: bool = False, problems: list | None = None) -> tuple[core.CoreState, list[str]]:
    """A (state, player names) pair from a position; PositionError names the first bad field.

    Constructed positions (rule studies, 'what if I held a Weaver') may give any hands; `strict` also
    demands that every card is accounted for as in a real game (see _check_cards) and that each bonus
    marker shows its province's most valuable good. With a `problems` list the strict checks add every
    problem they find to it instead of raising the first one (see `check`)."""
    rd = _Reader(data)
    board, names, n = rd.board, rd.names, rd.n
    data = rd.data
    raw_players = [rd.player(i, p) for i, p in enumerate(rd.players)]
    city_good = rd.cities()
    marker_good, marker_coin = rd.provinces()
    display = rd.display()
    by_deck, stack_top_first, order_known = rd.stack(display)
    chance = _choice(field_value(data, "chance", "$"), ["sample", "external"], "$.chance", "chance mode")
    turn = rd.turn()
    tribune = next(k for k, kind in enumerate(rd.R.kinds) if kind.name == "Tribune")
    for i, p in enumerate(raw_players):
        if not p["hand"][tribune]:
            # without one a player who plays out their hand has no move left: a dead end
            raise PositionError(f"$.players[{i}].hand", "holds no Tribune: a player always holds the Tribune "
                                "(playing it takes every card back)")
    if strict:
        found = _check_cards(raw_players, display, by_deck, n, names) + \
            _check_markers(board, city_goods=city_good, marker_good=marker_good)
        if found and problems is None:
            raise found[0]
        if problems is not None:
            problems.extend(found)
    _check_routes(board, raw_players, names)
    raw = dict(
        turn, board=rd.board_id, n_players=n, options=rd.options,
        pm_holder=rd.seat(field_value(data, "praefectus_magnus", "$"), "$.praefectus_magnus"),
        order_known=order_known, chance_external=chance,
        city_good=city_good, marker_coin=marker_coin, marker_good=marker_good, display=display,
        stack=list(reversed(stack_top_first)),
        nile_pos=_choice(data.get("nile_marker"), [board.provinces[v] for v in board.nile], "$.nile_marker",
                         "Nile province") if board.nile else 0,
        rng=field_value(data, "rng", "$"), players=raw_players, **rd.scratch())
    try:
        state = core.CoreState.load(raw)
    except ValueError as e:
        # the core names its raw field first ("players[0].goods: ..."): keep that as the path
        field, _, message = str(e).partition(": ")
        if message and " " not in field:
            raise PositionError(f"$.{_position_path(field)}", message) from None
        raise PositionError("$", str(e)) from None
    return state, names


# the core's raw field names and where each lives in a position (the error names the user's field)
_CORE_PATHS = dict(turns="turn.number", phase="turn.phase", decider="turn.decider", turn_player="turn.player",
                   act_kind="turn.card", pm_holder="praefectus_magnus", nile_pos="nile_marker",
                   end_player="end.concordia", end_this_turn="end.trigger_this_turn",
                   final_turns="end.final_turns_left", inter_paid="intermediate_paid", city_good="cities",
                   marker_good="provinces", marker_coin="provinces", stack="unseen", inter_vp="intermediate_vp",
                   **{f.name: f.path for f in fields.SCRATCH})


def _position_path(field: str) -> str:
    """`players[0].inter_vp` -> `players[0].intermediate_vp`, `turns` -> `turn.number`."""
    parts = field.split(".")
    head = parts[0].split("[")[0]
    if head in _CORE_PATHS:
        parts[0] = _CORE_PATHS[head] + parts[0][len(head):]
    if len(parts) > 1 and parts[-1] in _CORE_PATHS and parts[0].startswith("players["):
        parts[-1] = _CORE_PATHS[parts[-1]]
    return ".".join(parts)


_TURN_PHASES = ("play", "diplomat", "tribune", "architect-move", "architect-build", "prefect", "mercator",
                "senator", "consul", "colonist", "square")


def _decider_of(phase: str, turn_player: int, scratch: dict, n: int) -> int:
    """Who decides in `phase` (a position may leave turn.decider out: it follows from the rest)."""
    if phase in _TURN_PHASES:
        return turn_player
    if phase == "keep":
        kp = scratch.get("keep_player", 0)
        return kp if isinstance(kp, int) and not isinstance(kp, bool) and 0 <= kp < n else turn_player
    return core.CHANCE if phase == "chance" else core.NOBODY


def _check_decider(phase: str, decider: int, turn_player: int, scratch: dict, names: list[str]) -> None:
    """Who decides follows from the phase: the turn player, a keep-choice's receiver, chance, or nobody."""
    if phase in _TURN_PHASES:
        want, why = turn_player, f"in phase {phase} the turn player ({names[turn_player]}) decides"
    elif phase == "keep":
        kp = scratch.get("keep_player", 0)
        want = kp if isinstance(kp, int) and 0 <= kp < len(names) else decider
        why = "in phase keep the receiving player (turn.scratch.keep_player) decides"
    elif phase == "chance":
        want, why = core.CHANCE, "in phase chance the decider is 'chance'"
    else:
        want, why = core.NOBODY, "when the game is over the decider is null"
    if decider != want:
        given = "chance" if decider == core.CHANCE else ("null" if decider == core.NOBODY else names[decider])
        raise PositionError("$.turn.decider", f"{why}, not {given}")


def _check_cards(players: list[dict], display: list[int], by_deck: dict, n: int,
                 names: list[str]) -> list[PositionError]:
    """Every card is somewhere: the starting cards with each player (the Tribune always in hand, since playing
    it takes every card back), each market card of the decks in play in a hand, the display or the stack.
    Returns every problem found."""
    R = vocabulary.rules()
    start = R.start_hand
    tribune = next(k for k, kind in enumerate(R.kinds) if kind.name == "Tribune")
    problems = []
    bought = [0] * len(R.kinds)
    owners: list[list[tuple[int, int]]] = [[] for _ in R.kinds]   # per kind: (seat, cards beyond the start)
    for i, p in enumerate(players):
        if p["hand"][tribune] != 1 or p["discard"][tribune] != 0:
            problems.append(PositionError(f"$.players[{i}].hand", f"{names[i]} must hold exactly one Tribune in "
                                          f"hand (playing it takes every card back)"))
        for k in range(len(R.kinds)):
            owned = p["hand"][k] + p["discard"][k]
            if owned < start[k] and k != tribune:
                problems.append(PositionError(
                    f"$.players[{i}].hand", f"{owned} {R.kinds[k].label} in hand and discard pile, but every player "
                    f"keeps the {start[k]} of the starting hand"))
            if owned > start[k]:
                bought[k] += owned - start[k]
                owners[k].append((i, owned - start[k]))
    free = [0] * len(R.kinds)
    placed = {c for c in display if c >= 0} | {c for ids in by_deck.values() for c in ids}
    for m in R.market:
        if m.deck < n and m.id not in placed:
            free[m.kind] += 1
    decks = f"decks {vocabulary.NUMERALS[0]}-{vocabulary.NUMERALS[n - 1]}"
    for k in range(len(R.kinds)):
        if bought[k] == free[k] or k == tribune:
            continue
        label = R.kinds[k].label
        missing = f"but {free[k]} {label} of {decks} {'is' if free[k] == 1 else 'are'} missing from the display " \
                  f"and the unseen cards"
        if len(owners[k]) == 1:   # one player holds them all: most likely a mis-entry in that hand
            i, extra = owners[k][0]
            problems.append(PositionError(f"$.players[{i}].hand", f"{names[i]} holds {start[k] + extra} {label} "
                                          f"(hand and discard pile), {extra} more than the starting hand, {missing}"))
        else:
            who = ", ".join(f"{names[i]} {extra}" for i, extra in owners[k]) or "nobody"
            problems.append(PositionError("$.players", f"{bought[k]} {label} bought (beyond the starting hands: "
                                          f"{who}), {missing}"))
    return problems


def _check_markers(board, city_goods: list[int], marker_good: list[int]) -> list[PositionError]:
    """Each bonus marker shows the most valuable good of its province's cities (the variable-bonus
    province excepted, whose marker is the producer's choice)."""
    goods = vocabulary.rules().goods
    problems = []
    for v, pname in enumerate(board.provinces):
        if v == board.variable_province:
            continue
        cities = [c for c, cp in enumerate(board.city_province) if cp == v]
        best = max((city_goods[c] for c in cities), default=-1)
        if best >= 0 and marker_good[v] != best:
            have = ", ".join(f"{board.cities[c]} {goods[city_goods[c]]}" for c in cities)
            problems.append(PositionError(f"$.provinces.{pname}.marker",
                                          f"{goods[marker_good[v]]}, but the bonus marker shows the most valuable "
                                          f"good of {pname}'s cities: {goods[best]} ({have})"))
    return problems


def check(data: Any) -> list[PositionError]:
    """Every problem of a position under the strict check: all card and marker problems, then the first
    field that cannot be read (the loader cannot go on past it), if any. Empty when the position is sound."""
    problems: list[PositionError] = []
    try:
        load(data, strict=True, problems=problems)
    except PositionError as e:
        problems.append(e)
    return problems


def _check_routes(board, players: list[dict], names: list[str]) -> None:
    """A single-capacity route holds one colonist, in every phase: the canonical Architect movement
    (colonists in index order, each once, onto open routes only) never leaves two colonists on one such
    route, not even halfway, so a position with any sharing is not one play can reach (the core's load
    refuses it too)."""
    holders: dict[int, list[tuple[int, int]]] = {}
    for i, p in enumerate(players):
        for j, loc in enumerate(p["colonists"]):
            if loc >= core.ROUTE_OFFSET and board.routes[loc - core.ROUTE_OFFSET][3]:
                holders.setdefault(loc, []).append((i, j))
    for loc, here in holders.items():
        if len(here) < 2:
            continue
        i, j = here[1]
        kind, idx = ("land", j) if j < 3 else ("sea", j - 3)
        raise PositionError(f"$.players[{i}].colonists.{kind}[{idx}]",
                            f"{route_name(board, loc - core.ROUTE_OFFSET)} already holds a colonist of "
                            f"{names[here[0][0]]} (a route of capacity one)")
