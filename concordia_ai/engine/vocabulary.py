"""Compile the checked game content into the flat arrays the Cython core takes, and register them.

Indices fixed here are the core's vocabulary: goods 0..4 in price order, card kinds, market card ids,
cities (board order, then the start city, then special squares), provinces and routes (land, then sea).
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from functools import lru_cache

from .. import core
from .content import BOARD_NAMES, Board, Card, load_board, load_rules

GODS = ("Vesta", "Jupiter", "Saturnus", "Mercurius", "Mars", "Minerva")
SPECIALISTS = ("Mason", "Farmer", "Smith", "Vintner", "Weaver")
LETTERS = ("A", "B", "C", "D")
NUMERALS = ("I", "II", "III", "IV", "V")

# The numbers are the core's (core.ACTION_TYPES, core.PHASES: cext/core.pxd A_* and PH_*), looked up by the
# core's own words, never copied; tests/test_vocabulary_enums.py checks both ways that they match.
_ACTION = {word: number for number, word in core.ACTION_TYPES.items()}
_PHASE = {word: number for number, word in core.PHASES.items()}


class ActionType(IntEnum):
    """The kind of a move: `core.decode(move)[0]` (a move is type | a << 8 | b << 16). Compare moves with
    these, not with notation prefixes such as "play "."""
    PLAY = _ACTION["play"]                    # a = card kind
    COPY = _ACTION["copy"]                    # a = card kind on another player's pile (Diplomat)
    DONE = _ACTION["done"]
    TRIBUNE_COLONIST = _ACTION["tribune-colonist"]   # a = 0 land / 1 sea
    MOVE = _ACTION["move"]                    # a = colonist, b = route
    BUILD = _ACTION["build"]                  # a = city
    PRODUCE = _ACTION["produce"]              # a = province, b = chosen good or 255
    CASH = _ACTION["cash"]
    KEEP = _ACTION["keep"]                    # a = good
    SELL = _ACTION["sell"]                    # a = good, b = units
    BUY = _ACTION["buy"]                      # a = good, b = units
    CARD = _ACTION["card"]                    # a = display slot, b = good paying 'any' or 255
    PLACE = _ACTION["place"]                  # a = 0 land / 1 sea, b = city
    COLONIST_CASH = _ACTION["colonist-cash"]
    REVEAL = _ACTION["reveal"]                # a = market card id (chance)
    ENTER = _ACTION["enter"]                  # a = sea route to a special square (Aegyptus)

    @property
    def word(self) -> str:
        """The core's name of the kind (core.ACTION_TYPES)."""
        return core.ACTION_TYPES[self.value]


class Phase(IntEnum):
    """What the decider is asked: `state.phase`. `word` is the name positions and `Game.phase` use."""
    PLAY = _PHASE["play"]
    DIPLOMAT = _PHASE["diplomat"]
    TRIBUNE = _PHASE["tribune"]
    ARCHITECT_MOVE = _PHASE["architect-move"]
    ARCHITECT_BUILD = _PHASE["architect-build"]
    PREFECT = _PHASE["prefect"]
    MERCATOR = _PHASE["mercator"]
    SENATOR = _PHASE["senator"]
    CONSUL = _PHASE["consul"]
    COLONIST = _PHASE["colonist"]
    KEEP = _PHASE["keep"]
    CHANCE = _PHASE["chance"]
    OVER = _PHASE["over"]
    SQUARE = _PHASE["square"]                 # Aegyptus: which line sends its colonist onto a square

    @property
    def word(self) -> str:
        return core.PHASES[self.value]


def move_type(move: int) -> ActionType | None:
    """The kind of a move code (None for a number that is no kind of move)."""
    return action_type(core.decode(move)[0])


def action_type(number: int) -> ActionType | None:
    """The ActionType of a decoded move's type number, or None if the core has no such kind."""
    return ActionType(number) if number in core.ACTION_TYPES else None


@dataclass(frozen=True)
class Kind:
    """A playable card kind: cards with the same name, god and coins play and score alike."""
    name: str
    god: str
    coins: int
    action: int
    good: int          # specialist good, -1 otherwise
    minerva: int

    label: str = ""    # unique name for notation and positions: Architect, Mercator/5, Diplomat/Mars


@dataclass(frozen=True)
class MarketCard:
    id: int
    kind: int
    deck: int          # 0 = I
    cost: tuple[int, ...]
    name: str

    @property
    def numeral(self) -> str:
        return NUMERALS[self.deck]

    @property
    def label(self) -> str:
        return f"{self.name}/{self.numeral}"


@dataclass(frozen=True)
class CompiledRules:
    goods: tuple[str, ...]
    price: tuple[int, ...]
    kinds: tuple[Kind, ...]
    market: tuple[MarketCard, ...]
    surcharge: dict            # variant name -> tuple of 7 tuples of good names ('any' allowed)
    start_hand: tuple[int, ...]  # starting cards per kind
    raw: object


@dataclass(frozen=True)
class CompiledBoard:
    id: int
    name: str
    cities: tuple[str, ...]          # index = core city id
    start_city: int
    provinces: tuple[str, ...]
    city_province: tuple[int, ...]
    city_letter: tuple[int, ...]
    squares: tuple[int, ...]         # special squares (not cities)
    routes: tuple[tuple[int, int, int, int], ...]   # (city a, city b, sea?, capacity; 0 = any number)
    variable_province: int
    nile: tuple[int, ...]
    frank_provinces: tuple[int, ...]
    source: Board

    def city_index(self, name: str) -> int:
        return self.cities.index(name)


def _kind_key(card: Card):
    return card.name, card.god, card.coins


def _labelled(kinds: list[Kind]) -> list[Kind]:
    """Name alone where unique; else qualified by god (Diplomat/Mars) or, if gods agree, by coins (Mercator/5)."""
    out = []
    for k in kinds:
        same = [o for o in kinds if o.name == k.name]
        if len(same) == 1:
            label = k.name
        elif len({o.god for o in same}) == len(same):
            label = f"{k.name}/{k.god}"
        else:
            label = f"{k.name}/{k.coins}"
        out.append(Kind(k.name, k.god, k.coins, k.action, k.good, k.minerva, label))
    return out


@lru_cache(maxsize=None)
def rules() -> CompiledRules:
    r = load_rules()
    goods = tuple(r.goods)
    kinds: list[Kind] = []
    index: dict = {}

    def kind_of(card: Card) -> int:
        key = _kind_key(card)
        if key not in index:
            action = core.CARD_ACTIONS.get(card.name, 8)
            good = goods.index(card.minerva_good) if card.minerva_good else -1
            index[key] = len(kinds)
            kinds.append(Kind(card.name, card.god, card.coins, action, good, card.minerva_vp))
        return index[key]

    start_hand = [0] * 32
    for card in r.starting_hand:
        start_hand[kind_of(card)] += 1
    market = []
    for deck_no, (numeral, cards) in enumerate(r.decks.items()):
        for card in cards:
            cost = [0] * 5
            for g in card.cost:
                cost[goods.index(g)] += 1
            market.append(MarketCard(len(market), kind_of(card), deck_no, tuple(cost), card.name))

    def vec(names):
        v = [0] * 5
        for g in names:
            v[goods.index(g)] += 1
        return v

    kinds = _labelled(kinds)
    sides = ("standard", "wine_variant")
    compiled = dict(
        price=[r.price[g] for g in goods],
        house_coins=[r.house_coins[g] for g in goods],
        house_goods=[vec(r.house_goods[g]) for g in goods],
        colonist_cost=vec(r.colonist_cost),
        marker_coins=[r.bonus_marker_coins[g] for g in goods],
        start_goods=[r.start_goods.get(g, 0) for g in goods],
        surcharge=[[vec([x for x in pos if x != "any"]) for pos in r.market_surcharge[side]] for side in sides],
        surcharge_any=[[sum(1 for x in pos if x == "any") for pos in r.market_surcharge[side]] for side in sides],
        kinds=[dict(action=k.action, god=GODS.index(k.god), coins=k.coins, good=k.good, minerva=k.minerva)
               for k in kinds],
        start_hand=start_hand[:len(kinds)],
        market=[dict(kind=m.kind, deck=m.deck, cost=list(m.cost)) for m in market],
        coins_by_seat=list(r.coins_by_seat),
        tokens=[[r.city_tokens.get(letter, {}).get(g, 0) for g in goods] for letter in LETTERS],
        houses=r.houses_per_player,
        slots=r.storehouse_slots,
        concordia_vp=r.concordia_vp,
    )
    core.register_rules(compiled)
    return CompiledRules(goods, tuple(compiled["price"]), tuple(kinds), tuple(market),
                         dict(r.market_surcharge), tuple(compiled["start_hand"]), r)


@lru_cache(maxsize=None)
def board(name: str) -> CompiledBoard:
    rules()
    b = load_board(name)
    board_id = BOARD_NAMES.index(b.name.lower())
    special = b.special or {}
    squares = sorted(special.get("special_spaces", {}).keys())
    cities = [c.name for c in b.cities] + [b.start_city] + squares
    provinces = [p.name for p in b.provinces]
    city_province = [provinces.index(c.province) for c in b.cities] + [-1] * (1 + len(squares))
    city_letter = [LETTERS.index(c.letter) for c in b.cities] + [-1] * (1 + len(squares))
    sea_cap = 0 if special.get("sea_route_capacity") else 1
    routes = [(cities.index(a), cities.index(e), 0, 1) for a, e in b.land_routes]
    routes += [(cities.index(a), cities.index(e), 1, sea_cap) for a, e in b.sea_routes]
    variable = special.get("variable_bonus_province")
    flood = special.get("nile_flood", {})
    order = list(flood.get("order_downstream", []))
    if order:
        # the core's marker position 0 is where the marker starts: rotate the cycle to start there
        start = order.index(flood.get("starts_in", order[0]))
        order = order[start:] + order[:start]
    if len(order) > 8:
        raise ValueError(f"{name}: at most 8 Nile provinces")
    nile = [provinces.index(p) for p in order]
    frank = special.get("frankincense", {})
    frank_provinces = [provinces.index(p) for p in frank.get("provinces", [])]
    compiled = dict(
        n_cities=len(cities), start_city=len(b.cities), n_provinces=len(provinces),
        city_province=city_province, city_letter=city_letter,
        city_special=[0] * (len(b.cities) + 1) + [1] * len(squares),
        routes=routes,
        variable_province=provinces.index(variable) if variable else -1,
        cash_extra=int(special.get("cash_bonus_extra", 0)),
        nile=nile, frank_provinces=frank_provinces,
        frank_square=cities.index("FRANKINCENSE") if "FRANKINCENSE" in cities else -1,
        gold_square=cities.index("GOLD") if "GOLD" in cities else -1,
        frank_coins=int(frank.get("coins", 0)),
        square_vp=int(special.get("special_square_vp", 0)),
    )
    core.register_board(board_id, compiled)
    return CompiledBoard(board_id, b.name.lower(), tuple(cities), len(b.cities), tuple(provinces),
                         tuple(city_province), tuple(city_letter),
                         tuple(range(len(b.cities) + 1, len(cities))), tuple(routes),
                         compiled["variable_province"], tuple(nile), tuple(frank_provinces), b)


def board_by_id(board_id: int) -> CompiledBoard:
    return board(BOARD_NAMES[board_id])
