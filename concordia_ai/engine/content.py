"""Game content (rules constants, cards, boards) loaded from the JSON files in concordia_ai/data/.

Everything is checked on load. A problem raises ContentError with one line
``<file>: <json path>: <what is wrong>``, e.g.
``concordia_ai/data/maps/creta.json: land_routes[3][1]: unknown city 'Knosos'``.

Results of load_rules() and load_board() are cached: treat the returned objects, including their
dicts, as read-only.
"""

from __future__ import annotations

import functools
import json
from collections import Counter
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any

# The package's data folder (boards, cards, plans, the value model). importlib.resources gives a real
# folder for every install this package supports: the compiled core already rules out zip imports.
DATA_DIR = Path(str(files("concordia_ai") / "data")).resolve()
PACKAGE_DIR = DATA_DIR.parent

BOARD_NAMES = ("imperium", "italia", "creta", "aegyptus")
GODS = ("Vesta", "Jupiter", "Saturnus", "Mercurius", "Mars", "Minerva")
DECK_SIZES = {"I": 8, "II": 7, "III": 6, "IV": 5, "V": 4}
STARTING_HAND_SIZE = 7
SURCHARGE_POSITIONS = 7
SURCHARGE_SIDES = ("standard", "wine_variant")
ANY_GOOD = "any"
MAX_PLAYERS = 5


class ContentError(ValueError):
    """A content file is missing, is not valid JSON, or breaks a rule of the content format."""


@dataclass(frozen=True)
class Card:
    name: str
    god: str
    cost: tuple[str, ...]
    coins: int = 0  # Mercator coins, else 0
    minerva_good: str | None = None
    minerva_vp: int = 0
    deck: str | None = None  # "I".."V" for market cards, None for starting cards


@dataclass(frozen=True)
class Rules:
    goods: tuple[str, ...]
    price: dict[str, int]
    house_goods: dict[str, tuple[str, ...]]
    house_coins: dict[str, int]
    colonist_cost: tuple[str, ...]
    bonus_marker_coins: dict[str, int]
    city_tokens: dict[str, dict[str, int]]
    market_surcharge: dict[str, tuple[tuple[str, ...], ...]]
    houses_per_player: int
    land_colonists: int
    sea_colonists: int
    storehouse_slots: int
    start_goods: dict[str, int]
    start_colonists_on_board: dict[str, int]
    coins_by_seat: tuple[int, ...]
    starting_hand: tuple[Card, ...]
    decks: dict[str, tuple[Card, ...]]
    concordia_vp: int


@dataclass(frozen=True)
class City:
    name: str
    letter: str
    province: str


@dataclass(frozen=True)
class Province:
    name: str
    cities: tuple[str, ...]


@dataclass(frozen=True)
class Board:
    name: str
    start_city: str
    recommended_players: tuple[int, int]
    letters_used: tuple[str, ...]
    provinces: tuple[Province, ...]
    cities: tuple[City, ...]
    land_routes: tuple[tuple[str, str], ...]
    sea_routes: tuple[tuple[str, str], ...]
    special: dict[str, Any]


# ----------------------------------------------------------------------------------------------
# Checked access to parsed JSON


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(PACKAGE_DIR.parent))
    except ValueError:
        return str(path)


def _join(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


class _Checker:
    """Typed access to one JSON document; every failure names the file and the JSON path."""

    def __init__(self, file: str):
        self.file = file

    def fail(self, path: str, what: str):
        raise ContentError(f"{self.file}: {path or '(top)'}: {what}")

    def obj(self, value: Any, path: str, required: tuple[str, ...] = (), optional: tuple[str, ...] = ()) -> dict:
        if not isinstance(value, dict):
            self.fail(path, f"expected an object, got {type(value).__name__}")
        for key in required:
            if key not in value:
                self.fail(_join(path, key), "missing")
        allowed = set(required) | set(optional)
        for key in value if allowed else ():  # no fields named: any keys allowed
            if not key.startswith("_") and key not in allowed:
                self.fail(_join(path, key), f"unknown field (valid: {', '.join(sorted(allowed))})")
        return value

    def list(self, value: Any, path: str, length: int | None = None) -> list:
        if not isinstance(value, list):
            self.fail(path, f"expected a list, got {type(value).__name__}")
        if length is not None and len(value) != length:
            self.fail(path, f"expected {length} entries, got {len(value)}")
        return value

    def str(self, value: Any, path: str) -> str:
        if not isinstance(value, str) or not value:
            self.fail(path, f"expected a non-empty string, got {value!r}")
        return value

    def int(self, value: Any, path: str, minimum: int = 0) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(path, f"expected an integer, got {value!r}")
        if value < minimum:
            self.fail(path, f"expected at least {minimum}, got {value}")
        return value

    def one_of(self, value: Any, path: str, valid, what: str) -> str:
        self.str(value, path)
        if value not in valid:
            self.fail(path, f"unknown {what} {value!r} (valid: {', '.join(valid)})")
        return value

    def unique_names(self, names: list[str], path: str, what: str) -> None:
        for i, name in enumerate(names):
            if name in names[:i]:
                self.fail(_join(path, i), f"duplicate {what} {name!r}")

    def per_good(self, value: Any, path: str, goods: tuple[str, ...], minimum: int = 0) -> dict[str, int]:
        self.obj(value, path, required=goods)
        return {g: self.int(value[g], _join(path, g), minimum) for g in goods}

    def goods_list(self, value: Any, path: str, goods: tuple[str, ...], allow_any: bool = False) -> tuple[str, ...]:
        valid = goods + ((ANY_GOOD,) if allow_any else ())
        items = self.list(value, path)
        return tuple(self.one_of(g, _join(path, i), valid, "good") for i, g in enumerate(items))


def _read_json(path: Path) -> tuple[_Checker, Any]:
    check = _Checker(_display(path))
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ContentError(f"{check.file}: (file): cannot read: {exc.strerror or exc}") from None
    try:
        return check, json.loads(text)
    except json.JSONDecodeError as exc:
        raise ContentError(f"{check.file}: line {exc.lineno} column {exc.colno}: invalid JSON: {exc.msg}") from None


# ----------------------------------------------------------------------------------------------
# Rules and cards (game.json)


def _card(check: _Checker, value: Any, path: str, goods: tuple[str, ...], deck: str | None) -> Card:
    check.obj(value, path, required=("name", "god", "cost"), optional=("coins", "minerva_good", "minerva_vp"))
    name = check.str(value["name"], _join(path, "name"))
    god = check.one_of(value["god"], _join(path, "god"), GODS, "god")
    cost = check.goods_list(value["cost"], _join(path, "cost"), goods)
    coins = check.int(value.get("coins", 0), _join(path, "coins"))
    minerva_good = value.get("minerva_good")
    minerva_vp = check.int(value.get("minerva_vp", 0), _join(path, "minerva_vp"))
    if god == "Minerva":
        if minerva_good is None:
            check.fail(_join(path, "minerva_good"), "missing (required for a Minerva card)")
        check.one_of(minerva_good, _join(path, "minerva_good"), goods, "good")
        if minerva_vp < 1:
            check.fail(_join(path, "minerva_vp"), "a Minerva card needs a positive value")
    elif minerva_good is not None or minerva_vp:
        check.fail(_join(path, "minerva_good"), f"only Minerva cards have a Minerva good (this card's god is {god})")
    return Card(name, god, cost, coins, minerva_good, minerva_vp, deck)


def load_rules_file(path: str | Path) -> Rules:
    """Load and check a game.json file (not cached)."""
    check, data = _read_json(Path(path))
    check.obj(
        data,
        "",
        required=(
            "goods", "price", "house_cost", "colonist_cost", "bonus_marker_coins", "city_tokens",
            "market_surcharge", "player_setup", "cards",
        ),
    )

    goods_raw = check.list(data["goods"], "goods")
    if not goods_raw:
        check.fail("goods", "no goods listed")
    goods = tuple(check.str(g, _join("goods", i)) for i, g in enumerate(goods_raw))
    check.unique_names(list(goods), "goods", "good")
    if ANY_GOOD in goods:
        check.fail("goods", f"{ANY_GOOD!r} is reserved for market surcharges")

    price = check.per_good(data["price"], "price", goods, minimum=1)

    house_cost = check.obj(data["house_cost"], "house_cost", required=goods)
    house_goods, house_coins = {}, {}
    for g in goods:
        p = _join("house_cost", g)
        check.obj(house_cost[g], p, required=("goods", "coins"))
        house_goods[g] = check.goods_list(house_cost[g]["goods"], _join(p, "goods"), goods)
        house_coins[g] = check.int(house_cost[g]["coins"], _join(p, "coins"), minimum=1)

    colonist_cost = check.goods_list(data["colonist_cost"], "colonist_cost", goods)
    bonus_marker_coins = check.per_good(data["bonus_marker_coins"], "bonus_marker_coins", goods, minimum=1)

    tokens = check.obj(data["city_tokens"], "city_tokens")
    city_tokens = {}
    for letter, pool in tokens.items():
        p = _join("city_tokens", letter)
        if len(letter) != 1 or not letter.isupper():
            check.fail(p, "a token letter must be one capital letter")
        city_tokens[letter] = check.per_good(pool, p, goods)
        if sum(city_tokens[letter].values()) == 0:
            check.fail(p, "empty token pool")

    surcharge = check.obj(data["market_surcharge"], "market_surcharge", required=SURCHARGE_SIDES)
    market_surcharge = {}
    for side in SURCHARGE_SIDES:
        p = _join("market_surcharge", side)
        positions = check.list(surcharge[side], p, length=SURCHARGE_POSITIONS)
        market_surcharge[side] = tuple(
            check.goods_list(extra, _join(p, i), goods, allow_any=True) for i, extra in enumerate(positions)
        )

    setup = check.obj(
        data["player_setup"],
        "player_setup",
        required=(
            "houses", "land_colonists", "sea_colonists", "storehouse_slots", "start_colonists_on_board",
            "start_goods", "coins_by_seat",
        ),
    )
    p = "player_setup"
    houses = check.int(setup["houses"], _join(p, "houses"), minimum=1)
    land_colonists = check.int(setup["land_colonists"], _join(p, "land_colonists"), minimum=1)
    sea_colonists = check.int(setup["sea_colonists"], _join(p, "sea_colonists"), minimum=1)
    storehouse_slots = check.int(setup["storehouse_slots"], _join(p, "storehouse_slots"), minimum=1)
    on_board_path = _join(p, "start_colonists_on_board")
    on_board = check.obj(setup["start_colonists_on_board"], on_board_path, required=("land", "sea"))
    start_colonists_on_board = {
        "land": check.int(on_board["land"], _join(on_board_path, "land")),
        "sea": check.int(on_board["sea"], _join(on_board_path, "sea")),
    }
    if start_colonists_on_board["land"] > land_colonists:
        check.fail(_join(on_board_path, "land"), f"more than the {land_colonists} land colonists a player has")
    if start_colonists_on_board["sea"] > sea_colonists:
        check.fail(_join(on_board_path, "sea"), f"more than the {sea_colonists} sea colonists a player has")
    start_goods = check.per_good(setup["start_goods"], _join(p, "start_goods"), goods)
    stored = sum(start_goods.values()) + land_colonists + sea_colonists - sum(start_colonists_on_board.values())
    if stored > storehouse_slots:
        check.fail(_join(p, "start_goods"), f"{stored} items do not fit in {storehouse_slots} storehouse slots")
    seats = check.list(setup["coins_by_seat"], _join(p, "coins_by_seat"), length=MAX_PLAYERS)
    coins_by_seat = tuple(check.int(c, _join(_join(p, "coins_by_seat"), i)) for i, c in enumerate(seats))

    cards = check.obj(data["cards"], "cards", required=("starting_hand", "market", "concordia_card_vp"))
    hand = check.list(cards["starting_hand"], "cards.starting_hand", length=STARTING_HAND_SIZE)
    starting_hand = tuple(
        _card(check, c, _join("cards.starting_hand", i), goods, None) for i, c in enumerate(hand)
    )
    for i, c in enumerate(starting_hand):
        if c.cost:
            check.fail(_join("cards.starting_hand", i) + ".cost", "starting cards cost nothing")
    market = check.obj(cards["market"], "cards.market", required=tuple(DECK_SIZES))
    if list(market) != list(DECK_SIZES):
        check.fail("cards.market", f"decks must be listed in the order {', '.join(DECK_SIZES)}")
    decks = {}
    for numeral, size in DECK_SIZES.items():
        p = _join("cards.market", numeral)
        deck = check.list(market[numeral], p, length=size)
        decks[numeral] = tuple(_card(check, c, _join(p, i), goods, numeral) for i, c in enumerate(deck))
    concordia_vp = check.int(cards["concordia_card_vp"], "cards.concordia_card_vp", minimum=1)

    return Rules(
        goods=goods,
        price=price,
        house_goods=house_goods,
        house_coins=house_coins,
        colonist_cost=colonist_cost,
        bonus_marker_coins=bonus_marker_coins,
        city_tokens=city_tokens,
        market_surcharge=market_surcharge,
        houses_per_player=houses,
        land_colonists=land_colonists,
        sea_colonists=sea_colonists,
        storehouse_slots=storehouse_slots,
        start_goods=start_goods,
        start_colonists_on_board=start_colonists_on_board,
        coins_by_seat=coins_by_seat,
        starting_hand=starting_hand,
        decks=decks,
        concordia_vp=concordia_vp,
    )


# ----------------------------------------------------------------------------------------------
# Boards (maps/<name>.json)


def _routes(check: _Checker, value: Any, path: str, ends: set[str]) -> tuple[tuple[str, str], ...]:
    routes, seen = [], {}
    for i, route in enumerate(check.list(value, path)):
        p = _join(path, i)
        a, b = check.list(route, p, length=2)
        for j, end in enumerate((a, b)):
            check.str(end, _join(p, j))
            if end not in ends:
                check.fail(_join(p, j), f"unknown city {end!r}")
        if a == b:
            check.fail(p, f"route from {a!r} to itself")
        key = frozenset((a, b))
        if key in seen:
            check.fail(p, f"duplicate route {a} - {b} (same as {_join(path, seen[key])})")
        seen[key] = i
        routes.append((a, b))
    return tuple(routes)


def _check_special(check: _Checker, special: dict, sea_routes, province_names: set[str], squares) -> None:
    if "sea_route_kinds" in special:
        p = "special.sea_route_kinds"
        kinds = check.obj(special["sea_route_kinds"], p)
        sea = {frozenset(r) for r in sea_routes}
        kind_of: dict[frozenset, str] = {}
        for kind, routes in kinds.items():
            for i, route in enumerate(check.list(routes, _join(p, kind))):
                rp = _join(_join(p, kind), i)
                key = frozenset(check.list(route, rp, length=2))
                if key not in sea:
                    check.fail(rp, f"{' - '.join(route)} is not one of the sea_routes")
                if key in kind_of:
                    check.fail(rp, f"{' - '.join(route)} already listed under {kind_of[key]!r}")
                kind_of[key] = kind
        for i, route in enumerate(sea_routes):
            if frozenset(route) not in kind_of:
                check.fail(_join("sea_routes", i), f"{' - '.join(route)} has no kind in special.sea_route_kinds")
    for name in squares:
        p = _join("special.special_spaces", name)
        space = check.obj(special["special_spaces"][name], p, required=("connected_by_sea_to",), optional=("rule",))
        listed = set(check.list(space["connected_by_sea_to"], _join(p, "connected_by_sea_to")))
        actual = {a if b == name else b for a, b in sea_routes if name in (a, b)}
        if listed != actual:
            check.fail(_join(p, "connected_by_sea_to"), f"does not match the sea routes to {name}: {sorted(actual)}")
    if "nile_flood" in special:
        p = "special.nile_flood"
        flood = check.obj(special["nile_flood"], p, required=("order_downstream", "starts_in"), optional=("rule",))
        order = check.list(flood["order_downstream"], _join(p, "order_downstream"))
        for i, name in enumerate(order):
            check.one_of(name, _join(_join(p, "order_downstream"), i), sorted(province_names), "province")
        check.unique_names(order, _join(p, "order_downstream"), "province")
        check.one_of(flood["starts_in"], _join(p, "starts_in"), order, "province")
    for key in ("nile_provinces", "red_sea_harbour_provinces"):
        if key in special:
            for i, name in enumerate(check.list(special[key], _join("special", key))):
                check.one_of(name, _join(_join("special", key), i), sorted(province_names), "province")
    # structured fields the rules core reads (concordia_ai.engine.vocabulary)
    if "variable_bonus_province" in special:
        check.one_of(special["variable_bonus_province"], "special.variable_bonus_province",
                     sorted(province_names), "province")
    if "cash_bonus_extra" in special:
        check.int(special["cash_bonus_extra"], "special.cash_bonus_extra", minimum=0)
    if "sea_route_capacity" in special:
        # a description starting 'unlimited', or true: every sea line holds any number of sea colonists
        cap = special["sea_route_capacity"]
        if cap is not True and not (isinstance(cap, str) and cap.lower().startswith("unlimited")):
            check.fail("special.sea_route_capacity", f"expected true or a text starting 'unlimited', got {cap!r}")
    if "frankincense" in special:
        p = "special.frankincense"
        frank = check.obj(special["frankincense"], p, required=("provinces", "coins"))
        if "FRANKINCENSE" not in squares:
            check.fail(p, "needs the special square FRANKINCENSE in special.special_spaces")
        names = check.list(frank["provinces"], _join(p, "provinces"))
        for i, name in enumerate(names):
            check.one_of(name, _join(_join(p, "provinces"), i), sorted(province_names), "province")
        check.unique_names(names, _join(p, "provinces"), "province")
        check.int(frank["coins"], _join(p, "coins"), minimum=1)
    if "special_square_vp" in special:
        check.int(special["special_square_vp"], "special.special_square_vp", minimum=0)
        if not squares:
            check.fail("special.special_square_vp", "the board has no special_spaces")


def load_board_file(path: str | Path, rules: Rules | None = None) -> Board:
    """Load and check one map file (not cached). Token pools are checked against `rules`
    (default: the packaged game.json)."""
    if rules is None:
        rules = load_rules()
    check, data = _read_json(Path(path))
    check.obj(
        data,
        "",
        required=("name", "start_city", "recommended_players", "letters_used", "provinces", "cities",
                  "land_routes", "sea_routes"),
        optional=("market", "special"),
    )
    name = check.str(data["name"], "name")
    start_city = check.str(data["start_city"], "start_city")
    players = check.list(data["recommended_players"], "recommended_players", length=2)
    lo = check.int(players[0], "recommended_players[0]", minimum=2)
    hi = check.int(players[1], "recommended_players[1]", minimum=lo)
    if hi > MAX_PLAYERS:
        check.fail("recommended_players[1]", f"at most {MAX_PLAYERS} players")

    letters_raw = check.list(data["letters_used"], "letters_used")
    letters_used = tuple(
        check.one_of(x, _join("letters_used", i), tuple(rules.city_tokens), "token letter")
        for i, x in enumerate(letters_raw)
    )
    check.unique_names(list(letters_used), "letters_used", "letter")

    special = check.obj(data.get("special", {}), "special")
    squares = tuple(check.obj(special.get("special_spaces", {}), "special.special_spaces"))

    cities = []
    for i, c in enumerate(check.list(data["cities"], "cities")):
        p = _join("cities", i)
        check.obj(c, p, required=("name", "letter", "province"))
        city = City(check.str(c["name"], _join(p, "name")), check.str(c["letter"], _join(p, "letter")),
                    check.str(c["province"], _join(p, "province")))
        if city.name == start_city:
            check.fail(_join(p, "name"), f"the start city {start_city!r} is not listed among the cities")
        if city.name in squares:
            check.fail(_join(p, "name"), f"{city.name!r} is a special square, not a city")
        if city.letter not in letters_used:
            check.fail(_join(p, "letter"), f"letter {city.letter!r} is not in letters_used {list(letters_used)}")
        cities.append(city)
    check.unique_names([c.name for c in cities], "cities", "city")
    city_by_name = {c.name: c for c in cities}

    provinces = []
    listed_in: dict[str, str] = {}
    for i, prov in enumerate(check.list(data["provinces"], "provinces")):
        p = _join("provinces", i)
        check.obj(prov, p, required=("name", "cities"), optional=("number",))
        pname = check.str(prov["name"], _join(p, "name"))
        members = check.list(prov["cities"], _join(p, "cities"))
        if not members:
            check.fail(_join(p, "cities"), "a province needs at least one city")
        for j, cname in enumerate(members):
            cp = _join(_join(p, "cities"), j)
            check.str(cname, cp)
            if cname not in city_by_name:
                check.fail(cp, f"unknown city {cname!r}")
            if cname in listed_in:
                check.fail(cp, f"city {cname!r} is already in province {listed_in[cname]!r}")
            if city_by_name[cname].province != pname:
                check.fail(cp, f"city {cname!r} says its province is {city_by_name[cname].province!r}")
            listed_in[cname] = pname
        provinces.append(Province(pname, tuple(members)))
    check.unique_names([pr.name for pr in provinces], "provinces", "province")
    for i, city in enumerate(cities):
        if city.name not in listed_in:
            check.fail(_join(_join("cities", i), "province"),
                       f"city {city.name!r} is not listed in any province (province {city.province!r})")

    used = {c.letter for c in cities}
    for i, letter in enumerate(letters_used):
        if letter not in used:
            check.fail(_join("letters_used", i), f"no city uses letter {letter!r}")
    per_letter = Counter(c.letter for c in cities)
    for i, letter in enumerate(letters_used):
        pool = sum(rules.city_tokens[letter].values())
        if pool != per_letter[letter]:
            check.fail(_join("letters_used", i),
                       f"{per_letter[letter]} cities have letter {letter!r} but its token pool has {pool} tokens")

    city_ends = set(city_by_name) | {start_city}
    land_routes = _routes(check, data["land_routes"], "land_routes", city_ends)
    sea_routes = _routes(check, data["sea_routes"], "sea_routes", city_ends | set(squares))

    # Every city, the start city and every special square must be reachable over land and sea.
    nodes = [start_city, *city_by_name, *squares]
    adjacent: dict[str, set[str]] = {n: set() for n in nodes}
    for a, b in land_routes + sea_routes:
        adjacent[a].add(b)
        adjacent[b].add(a)
    reached, frontier = {start_city}, [start_city]
    while frontier:
        for nxt in adjacent[frontier.pop()] - reached:
            reached.add(nxt)
            frontier.append(nxt)
    cut_off = [n for n in nodes if n not in reached]
    if cut_off:
        check.fail("land_routes", f"map is not connected: no route from {start_city} to {', '.join(cut_off)}")

    _check_special(check, special, sea_routes, {pr.name for pr in provinces}, squares)

    return Board(
        name=name,
        start_city=start_city,
        recommended_players=(lo, hi),
        letters_used=letters_used,
        provinces=tuple(provinces),
        cities=tuple(cities),
        land_routes=land_routes,
        sea_routes=sea_routes,
        special=special,
    )


# ----------------------------------------------------------------------------------------------
# Cached entry points


def _resolve_dir(data_dir: str | Path | None) -> Path:
    return DATA_DIR if data_dir is None else Path(data_dir).resolve()


@functools.lru_cache(maxsize=None)
def _rules_cached(data_dir: Path) -> Rules:
    return load_rules_file(data_dir / "game.json")


@functools.lru_cache(maxsize=None)
def _board_cached(name: str, data_dir: Path) -> Board:
    path = data_dir / "maps" / f"{name}.json"
    board = load_board_file(path, _rules_cached(data_dir))
    if board.name != name:
        raise ContentError(f"{_display(path)}: name: {board.name!r} does not match the file name {name!r}")
    return board


def load_rules(data_dir: str | Path | None = None) -> Rules:
    """The rules constants and cards from `<data_dir>/game.json` (default: the packaged data)."""
    return _rules_cached(_resolve_dir(data_dir))


def load_board(name: str, data_dir: str | Path | None = None) -> Board:
    """A board by name (case-insensitive), from `<data_dir>/maps/<name>.json`."""
    key = name.strip().lower() if isinstance(name, str) else name
    if key not in BOARD_NAMES:
        raise ContentError(f"unknown board {name!r} (valid: {', '.join(BOARD_NAMES)})")
    return _board_cached(key, _resolve_dir(data_dir))
