"""Positions as JSON: a whole game state, between or inside turns, in names a person can read.

See docs/position-format.md. `dump(state, names)` writes one; `load(data)` validates every field and
raises PositionError naming the JSON path of the first bad one.
"""
from __future__ import annotations

from typing import Any

from . import compiled, core
from .content import BOARD_NAMES

FORMAT = "concordia-position"
VERSION = 1
STOREHOUSE = "storehouse"
SIDES = ("goods", "coins")
PHASE_CODES = {name: code for code, name in core.PHASES.items()}


class PositionError(ValueError):
    """A bad position: `path` is the JSON path of the first bad field."""

    def __init__(self, path: str, message: str):
        super().__init__(f"{path}: {message}")
        self.path = path
        self.message = message


def route_name(board: compiled.CompiledBoard, r: int) -> str:
    a, b, _sea, _cap = board.routes[r]
    return f"{board.cities[a]}-{board.cities[b]}"


def location_name(board: compiled.CompiledBoard, loc: int) -> str:
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
    R = compiled.rules()
    raw = state.export()
    board = compiled.board_by_id(raw["board"])
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
            "scratch": {k: raw[k] for k in _SCRATCH},
        },
        "end": {"concordia": player_name(raw["end_player"]), "trigger_this_turn": bool(raw["end_this_turn"]),
                "final_turns_left": raw["final_turns"]},
        "intermediate_paid": bool(raw["inter_paid"]),
        "rng": raw["rng"],
    }
    if board.nile:
        out["nile_marker"] = board.provinces[board.nile[raw["nile_pos"]]]
    return out


_SCRATCH_RANGE = dict(steps=(0, 6), moved=(0, 63), merc_sold_last=(-1, 4), merc_bought_last=(-1, 4),
                      merc_kinds=(0, 2), merc_sold_mask=(0, 31), buys=(0, 2), col_last=(0, 80), col_cash_ok=(0, 1),
                      keep_player=(0, None), keep_last=(0, 4))
_SCRATCH = ("steps", "moved", "merc_sold_last", "merc_bought_last", "merc_kinds", "merc_sold_mask", "buys",
            "col_last", "col_cash_ok", "keep_player", "keep_last", "pend")


# ------------------------------------------------------------------ loading

def _get(d: dict, key: str, path: str, types, optional=False, default=None):
    if not isinstance(d, dict):
        raise PositionError(path, "must be an object")
    if key not in d:
        if optional:
            return default
        raise PositionError(f"{path}.{key}", "missing")
    v = d[key]
    if types is int and (isinstance(v, bool) or not isinstance(v, int)):
        raise PositionError(f"{path}.{key}", f"{v!r} is not an integer")
    if types is not int and not isinstance(v, types):
        want = {dict: "an object", list: "a list", str: "a string", bool: "true or false"}.get(types, str(types))
        raise PositionError(f"{path}.{key}", f"{v!r} is not {want}")
    return v


def _choice(value, options, path, what):
    if not isinstance(value, str):
        raise PositionError(path, f"{value!r} is not a string; valid {what}: {', '.join(options)}")
    for o in options:
        if o.lower() == value.strip().lower():
            return options.index(o)
    raise PositionError(path, f"unknown {what} {value!r}; valid: {', '.join(options)}")


def load(data: Any, strict: bool = False) -> tuple[core.CoreState, list[str]]:
    """A (state, player names) pair from a position; PositionError names the first bad field.

    Constructed positions (rule studies, 'what if I held a Weaver') may give any hands; `strict` also
    demands that every card is accounted for as in a real game (see _check_cards)."""
    R = compiled.rules()
    goods = list(R.goods)
    kind_labels = [k.label for k in R.kinds]
    market_labels = [m.label for m in R.market]
    if not isinstance(data, dict):
        raise PositionError("$", "a position is a JSON object")
    if _get(data, "format", "$", str) != FORMAT:
        raise PositionError("$.format", f"must be {FORMAT!r}")
    version = _get(data, "version", "$", int)
    if version != VERSION:
        raise PositionError("$.version", f"{version} is not supported (this program reads version {VERSION})")
    board_id = _choice(_get(data, "board", "$", str), list(BOARD_NAMES), "$.board", "board")
    board = compiled.board_by_id(board_id)
    opts = _get(data, "options", "$", dict, optional=True, default={})
    options = 0
    if _get(opts, "wine_variant", "$.options", bool, optional=True, default=False):
        options |= core.OPTION_WINE_VARIANT
    if _get(opts, "intermediate_scoring", "$.options", bool, optional=True, default=False):
        options |= core.OPTION_INTERMEDIATE
    players = _get(data, "players", "$", list)
    if not 2 <= len(players) <= core.MAX_PLAYERS:
        raise PositionError("$.players", f"{len(players)} players; a game has 2 to {core.MAX_PLAYERS}")
    names = []
    for i, p in enumerate(players):
        name = _get(p, "name", f"$.players[{i}]", str)
        if not name.strip() or name.lower() in [x.lower() for x in names] or name.lower() in ("chance", "nobody"):
            raise PositionError(f"$.players[{i}].name", f"{name!r} is empty, reserved or used twice (names ignore case)")
        names.append(name)
    n = len(names)

    def seat(value, path, allow_none=False):
        if value is None and allow_none:
            return -1
        return _choice(value, names, path, "player")

    def card_counts(obj, path):
        if not isinstance(obj, dict):
            raise PositionError(path, "must be an object of card name -> count")
        vec = [0] * len(kind_labels)
        for label, cnt in obj.items():
            k = _choice(label, kind_labels, f"{path}.{label}", "card")
            if isinstance(cnt, bool) or not isinstance(cnt, int) or not 0 <= cnt <= 30:
                raise PositionError(f"{path}.{label}", f"{cnt!r} is not a count 0..30")
            vec[k] += cnt
        return vec

    raw_players = []
    for i, p in enumerate(players):
        path = f"$.players[{i}]"
        coins = _get(p, "coins", path, int)
        if coins < 0:
            raise PositionError(f"{path}.coins", "cannot be negative")
        gd = _get(p, "goods", path, dict)
        vec = [0] * 5
        for g, cnt in gd.items():
            j = _choice(g, goods, f"{path}.goods.{g}", "good")
            if isinstance(cnt, bool) or not isinstance(cnt, int) or cnt < 0:
                raise PositionError(f"{path}.goods.{g}", f"{cnt!r} is not a count")
            vec[j] = cnt
        cols = _get(p, "colonists", path, dict)
        locs = []
        for sea, kind in enumerate(("land", "sea")):
            lst = _get(cols, kind, f"{path}.colonists", list)
            if len(lst) != 3:
                raise PositionError(f"{path}.colonists.{kind}", "must list 3 colonists (a place or 'storehouse')")
            for j, text in enumerate(lst):
                if not isinstance(text, str):
                    raise PositionError(f"{path}.colonists.{kind}[{j}]", f"{text!r} is not a place name")
                locs.append(_find_location(board, text, sea, f"{path}.colonists.{kind}[{j}]"))
        houses = []
        for j, h in enumerate(_get(p, "houses", path, list)):
            c = _choice(h, list(board.cities), f"{path}.houses[{j}]", "city")
            if c == board.start_city or c in board.squares:
                raise PositionError(f"{path}.houses[{j}]", f"no house can stand in {board.cities[c]}")
            if c in houses:
                raise PositionError(f"{path}.houses[{j}]", f"a second house in {h}")
            houses.append(c)
        top = p.get("top")
        raw_players.append(dict(
            coins=coins, goods=vec, colonists=locs, houses=houses,
            hand=card_counts(_get(p, "hand", path, dict), f"{path}.hand"),
            discard=card_counts(_get(p, "discard", path, dict), f"{path}.discard"),
            top=-1 if top is None else _choice(top, kind_labels, f"{path}.top", "card"),
            inter_done=0 if p.get("intermediate_vp") is None else 1,
            inter_vp=_get(p, "intermediate_vp", path, int) if p.get("intermediate_vp") is not None else 0))
        if raw_players[-1]["inter_vp"] < 0:
            raise PositionError(f"{path}.intermediate_vp", "cannot be negative")

    cities = _get(data, "cities", "$", dict)
    city_good = [-1] * len(board.cities)
    for name, g in cities.items():
        c = _choice(name, list(board.cities), f"$.cities.{name}", "city")
        if board.city_letter[c] < 0:
            raise PositionError(f"$.cities.{name}", f"{board.cities[c]} takes no city token (no good)")
        city_good[c] = _choice(g, goods, f"$.cities.{name}", "good")
    for c, letter in enumerate(board.city_letter):
        if letter >= 0 and city_good[c] < 0:
            raise PositionError(f"$.cities.{board.cities[c]}", "missing: every city needs its good")
    provinces = _get(data, "provinces", "$", dict)
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
        entry = provinces.get(given[v]) if v in given else None
        if entry is None:
            raise PositionError(path, "missing")
        mg = _get(entry, "marker", path, (str, type(None)))
        marker_good[v] = -1 if mg is None else _choice(mg, goods, f"{path}.marker", "good")
        marker_coin[v] = _choice(_get(entry, "side", path, str), list(SIDES), f"{path}.side", "side")
        if marker_good[v] < 0 and (v != board.variable_province or marker_coin[v]):
            raise PositionError(f"{path}.marker", "needs a good (the marker's goods side)")

    display_names = _get(data, "display", "$", list)
    if len(display_names) != 7:
        raise PositionError("$.display", "must list 7 positions (a card like 'Weaver/II' or null)")
    display = [-1 if x is None else _choice(x, market_labels, f"$.display[{i}]", "market card")
               for i, x in enumerate(display_names)]
    for i, c in enumerate(display):
        if c < 0:
            continue
        if display.index(c) != i:
            raise PositionError(f"$.display[{i}]", f"{R.market[c].label} listed twice")
        if R.market[c].deck >= n:
            raise PositionError(f"$.display[{i}]", f"{R.market[c].label} is not in the decks of a {n}-player game")
    unseen = _get(data, "unseen", "$", dict)
    numerals = list(compiled.NUMERALS[:n])
    order = data.get("stack_order")
    stack_top_first = []
    by_deck = {}
    for numeral, lst in unseen.items():
        d = _choice(numeral, numerals, f"$.unseen.{numeral}", f"deck for {n} players")
        if not isinstance(lst, list):
            raise PositionError(f"$.unseen.{numeral}", "must be a list of card names")
        ids = []
        for j, name in enumerate(lst):
            label = f"{name}/{numerals[d]}" if isinstance(name, str) else name
            cid = _choice(label, market_labels, f"$.unseen.{numeral}[{j}]", f"card of deck {numerals[d]}")
            if cid in display or cid in ids:
                where = "in the display" if cid in display else "listed twice"
                raise PositionError(f"$.unseen.{numeral}[{j}]", f"{R.market[cid].label} is also {where}")
            ids.append(cid)
        by_deck[d] = ids
    for d in sorted(by_deck):
        # unknown order: the core keeps each deck ascending from the bottom of the array (canonical)
        stack_top_first += sorted(by_deck[d], reverse=True)
    order_known = 0
    if order is not None:
        if not isinstance(order, list):
            raise PositionError("$.stack_order", "a list of cards, top first, or null")
        ids = [_choice(x, market_labels, f"$.stack_order[{j}]", "market card") for j, x in enumerate(order)]
        if sorted(ids) != sorted(stack_top_first):
            raise PositionError("$.stack_order", "must hold exactly the unseen cards")
        stack_top_first = ids
        order_known = 1
    chance = _choice(_get(data, "chance", "$", str, optional=True, default="sample"),
                     ["sample", "external"], "$.chance", "chance mode")
    turn = _get(data, "turn", "$", dict)
    phase_name = _get(turn, "phase", "$.turn", str)
    if phase_name not in PHASE_CODES:
        raise PositionError("$.turn.phase", f"unknown phase {phase_name!r}; valid: {', '.join(PHASE_CODES)}")
    decider = turn.get("decider")
    if decider == "chance":
        decider_code = core.CHANCE
    elif decider is None:
        decider_code = core.NOBODY
    else:
        decider_code = seat(decider, "$.turn.decider")
    card = turn.get("card")
    scratch = _get(turn, "scratch", "$.turn", dict, optional=True, default={})
    end = _get(data, "end", "$", dict, optional=True, default={})
    turn_number = _get(turn, "number", "$.turn", int, optional=True, default=0)
    if turn_number < 0:
        raise PositionError("$.turn.number", f"{turn_number} is negative")
    final_turns = _get(end, "final_turns_left", "$.end", int, optional=True, default=0)
    if not 0 <= final_turns <= n - 1:
        raise PositionError("$.end.final_turns_left", f"{final_turns} is not in 0..{n - 1}")
    _get(end, "trigger_this_turn", "$.end", bool, optional=True)
    inter_paid = _get(data, "intermediate_paid", "$", bool, optional=True, default=False)
    turn_player = seat(_get(turn, "player", "$.turn", str), "$.turn.player")
    _check_decider(phase_name, decider_code, turn_player, scratch, names)
    for i, p in enumerate(raw_players):
        if not any(p["hand"]):
            raise PositionError(f"$.players[{i}].hand", "empty: a player always holds at least the Tribune")
    if strict:
        _check_cards(raw_players, display, by_deck, n, names)
    _check_routes(board, raw_players, phase_name, names)
    raw = dict(
        board=board_id, n_players=n, options=options, phase=PHASE_CODES[phase_name], decider=decider_code,
        turn_player=turn_player,
        pm_holder=seat(_get(data, "praefectus_magnus", "$", str), "$.praefectus_magnus"),
        order_known=order_known, chance_external=chance,
        city_good=city_good, marker_coin=marker_coin, marker_good=marker_good, display=display,
        stack=list(reversed(stack_top_first)),
        nile_pos=_choice(data.get("nile_marker"), [board.provinces[v] for v in board.nile], "$.nile_marker",
                         "Nile province") if board.nile else 0,
        act_kind=-1 if card is None else _choice(card, kind_labels, "$.turn.card", "card"),
        end_player=seat(end.get("concordia"), "$.end.concordia", allow_none=True),
        end_this_turn=int(bool(end.get("trigger_this_turn", False))),
        final_turns=final_turns,
        inter_paid=int(inter_paid),
        turns=turn_number,
        rng=_get(data, "rng", "$", int, optional=True, default=1),
        players=raw_players,
    )
    defaults = dict(steps=0, moved=0, merc_sold_last=-1, merc_bought_last=-1, merc_kinds=0, merc_sold_mask=0,
                    buys=0, col_last=0, col_cash_ok=0, keep_player=0, keep_last=0, pend=[[0] * 5] * n)
    for key in _SCRATCH:
        raw[key] = scratch.get(key, defaults[key])
        if key == "pend":
            ok = isinstance(raw[key], list) and len(raw[key]) == n and all(
                isinstance(row, list) and len(row) == 5 and
                all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= 60 for x in row) for row in raw[key])
            if not ok:
                raise PositionError("$.turn.scratch.pend", f"a list of {n} lists of 5 counts (one per player)")
        else:
            lo, hi = _SCRATCH_RANGE[key]
            v = raw[key]
            if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= (n - 1 if hi is None else hi):
                raise PositionError(f"$.turn.scratch.{key}", f"{v!r} is not an integer in {lo}..{n - 1 if hi is None else hi}")
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
                   **{k: f"turn.scratch.{k}" for k in _SCRATCH})


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
                "senator", "consul", "colonist")


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


def _check_cards(players: list[dict], display: list[int], by_deck: dict, n: int, names: list[str]) -> None:
    """Every card is somewhere: the starting cards with each player (the Tribune always in hand, since playing
    it takes every card back), each market card of the decks in play in a hand, the display or the stack."""
    R = compiled.rules()
    start = R.start_hand
    tribune = next(k for k, kind in enumerate(R.kinds) if kind.name == "Tribune")
    bought = [0] * len(R.kinds)
    for i, p in enumerate(players):
        if p["hand"][tribune] != 1 or p["discard"][tribune] != 0:
            raise PositionError(f"$.players[{i}].hand", "must hold the Tribune (playing it takes every card back)")
        for k in range(len(R.kinds)):
            owned = p["hand"][k] + p["discard"][k]
            if owned < start[k]:
                raise PositionError(f"$.players[{i}].hand",
                                    f"{names[i]} lacks a starting card: {R.kinds[k].label} (hand and discard)")
            bought[k] += owned - start[k]
    free = [0] * len(R.kinds)
    placed = {c for c in display if c >= 0} | {c for ids in by_deck.values() for c in ids}
    for m in R.market:
        if m.deck < n and m.id not in placed:
            free[m.kind] += 1
    for k in range(len(R.kinds)):
        if bought[k] != free[k]:
            raise PositionError("$.players", f"{bought[k]} bought {R.kinds[k].label} card(s) in the players' hands, "
                                f"but {free[k]} left the display (the rest are in the display or unseen)")


def _check_routes(board, players: list[dict], phase: str, names: list[str]) -> None:
    """A single-capacity route holds one colonist (mid-movement of an Architect excepted)."""
    if phase == "architect-move":
        return
    seen = {}
    for i, p in enumerate(players):
        for j, loc in enumerate(p["colonists"]):
            if loc < core.ROUTE_OFFSET or not board.routes[loc - core.ROUTE_OFFSET][3]:
                continue
            if loc in seen:
                kind, idx = ("land", j) if j < 3 else ("sea", j - 3)
                raise PositionError(f"$.players[{i}].colonists.{kind}[{idx}]",
                                    f"{route_name(board, loc - core.ROUTE_OFFSET)} already holds a colonist of "
                                    f"{names[seen[loc]]}")
            seen[loc] = i
