"""The one set of helpers that construct positions for the tests (import only).

A position starts from `Game.new(board, players, seed).to_json()` and is then edited field by field:

    pos = base(players=3)
    set_player(pos, 0, coins=10, goods=dict(food=2, tool=1), land=["Roma", "storehouse", "storehouse"])
    set_cities(pos, {"Novaria": "wine"})
    set_markers(pos, {"Italia": ("wine", "goods")})
    set_turn(pos, 0)
    g = load(pos)

or, for a card play from the starting hand:

    pos = base(3)
    played(pos, 0, "Mercator/3", "Prefect")       # seat 0 has played these (the last on top)
    g = start(pos, 0)                              # phase "play", seat 0 to decide; the turn number kept
    assert "play Architect" in moves(g)

Every Imperium city gets a fixed good from `CITY_GOODS` (the seed-1 deal, a legal layout) so that no
test depends on the seed's shuffle; tests override the cities they rely on. Reading back: `player(g, i)`
is the position dict of seat i; `goods(g, i)`, `coins(g, i)`, `colonists(g, i)`, `houses(g, i)`;
`moves(g)` the legal moves as text; `ok(g)` checks the core's invariants.
"""
from __future__ import annotations

import copy

from concordia_ai.engine.game import CHANCE, Game, GameError  # noqa: F401  (re-exported for the tests)

GOODS = ("brick", "food", "tool", "wine", "cloth")
PRICE = {"brick": 3, "food": 4, "tool": 5, "wine": 6, "cloth": 7}

# A fixed Imperium layout (every city named, same token counts as the seed-1 deal).
CITY_GOODS = {
    "Isca Dumnoniorum": "tool", "Londinium": "food", "Burdigala": "food", "Lutetia": "cloth",
    "Massilia": "food", "Brigantium": "wine", "Olisipo": "brick", "Valentia": "tool",
    "Colonia Agrippina": "cloth", "Vindobona": "brick", "Aquileia": "food", "Novaria": "tool",
    "Syracusae": "brick", "Carthago": "tool", "Rusadir": "brick", "Napoca": "brick", "Sirmium": "wine",
    "Tomis": "food", "Athenae": "cloth", "Dyrrhachium": "wine", "Cyrene": "wine", "Leptis Magna": "tool",
    "Attalia": "brick", "Byzantium": "brick", "Sinope": "tool", "Antiochia": "food", "Tyros": "wine",
    "Alexandria": "brick", "Memphis": "cloth", "Petra": "food",
}

# Every Imperium province (with its cities), for markers.
PROVINCES = {
    "Britannia": ["Isca Dumnoniorum", "Londinium"], "Gallia": ["Burdigala", "Lutetia", "Massilia"],
    "Hispania": ["Brigantium", "Olisipo", "Valentia"], "Germania": ["Colonia Agrippina", "Vindobona"],
    "Italia": ["Aquileia", "Novaria", "Syracusae"], "Mauretania": ["Carthago", "Rusadir"],
    "Dacia": ["Napoca", "Sirmium", "Tomis"], "Hellas": ["Athenae", "Dyrrhachium"],
    "Lybia": ["Cyrene", "Leptis Magna"], "Asia": ["Attalia", "Byzantium", "Sinope"],
    "Syria": ["Antiochia", "Tyros"], "Aegyptus": ["Alexandria", "Memphis", "Petra"],
}

START_HAND = {"Tribune": 1, "Architect": 1, "Prefect": 2, "Mercator/3": 1, "Diplomat/Jupiter": 1,
                 "Senator": 1}


def _best(goods_list):
    return max(goods_list, key=GOODS.index)


def base(players: int = 3, board: str = "imperium", seed: int = 1, wine_variant: bool = False,
         intermediate_scoring: bool = False) -> dict:
    """A fresh start position with the fixed layout (markers follow it, goods side up); the turn
    scratch is dropped (the loader fills its defaults)."""
    pos = Game.new(board, players, seed=seed, wine_variant=wine_variant,
                   intermediate_scoring=intermediate_scoring).to_json()
    pos["turn"].pop("scratch", None)
    if board == "imperium":
        set_cities(pos, CITY_GOODS)
    return pos


def set_cities(pos: dict, cities: dict[str, str], markers: bool = True) -> dict:
    """Set city goods; with `markers`, every province's marker becomes its most valuable city good
    (the side of each marker is kept)."""
    pos["cities"].update(cities)
    if markers and pos["board"] == "imperium":
        for prov, names in PROVINCES.items():
            pos["provinces"][prov]["marker"] = _best([pos["cities"][c] for c in names])
    return pos


def set_markers(pos: dict, markers: dict[str, tuple[str, str] | str]) -> dict:
    """markers: province -> (good, side) or just side ('goods' / 'coins')."""
    for prov, m in markers.items():
        if isinstance(m, str):
            pos["provinces"][prov]["side"] = m
        else:
            pos["provinces"][prov]["marker"], pos["provinces"][prov]["side"] = m
    return pos


def all_markers(pos: dict, side: str) -> dict:
    for prov in pos["provinces"]:
        pos["provinces"][prov]["side"] = side
    return pos


KEEP = "keep"


def set_player(pos: dict, i: int, *, coins=None, goods=None, land=None, sea=None, houses=None,
               hand=None, discard=None, top=KEEP, played=None, extra=None) -> dict:
    """Edit seat i. goods: dict (missing kinds are 0). land/sea: up to 3 places, padded with 'storehouse'.
    hand/discard: dicts replacing the piles. top: a card label, or None for an empty pile; left out, it is
    kept, or with a new `discard` becomes a card of that pile (None if it is empty).
    played: labels moved one by one from the current hand to the discard pile (the last one on top).
    extra: cards {label: count} added to the hand first (a player always owns at least the 7 starting cards)."""
    p = pos["players"][i]
    if extra is not None:
        for label, cnt in extra.items():
            p["hand"][label] = p["hand"].get(label, 0) + cnt
    if played is not None:
        hand_now, disc_now = dict(p["hand"]), dict(p["discard"])
        for label in played:
            assert hand_now.get(label, 0) > 0, f"{label} not in hand {hand_now}"
            hand_now[label] -= 1
            if not hand_now[label]:
                del hand_now[label]
            disc_now[label] = disc_now.get(label, 0) + 1
        p["hand"], p["discard"] = hand_now, disc_now
        p["top"] = played[-1] if played else p["top"]

    if coins is not None:
        p["coins"] = coins
    if goods is not None:
        p["goods"] = {g: int(goods.get(g, 0)) for g in GOODS}
    if land is not None:
        p["colonists"]["land"] = (list(land) + ["storehouse"] * 3)[:3]
    if sea is not None:
        p["colonists"]["sea"] = (list(sea) + ["storehouse"] * 3)[:3]
    if houses is not None:
        p["houses"] = list(houses)
    if hand is not None:
        p["hand"] = dict(hand)
    if discard is not None:
        p["discard"] = dict(discard)
        if top == KEEP:
            top = next(iter(discard), None) if discard else None
    if top != KEEP:
        p["top"] = top
    return pos


def played(pos: dict, i: int, *labels: str, extra: dict | None = None) -> dict:
    """Seat i has played `labels` (the last one on top) out of the starting hand (plus `extra` cards
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


def set_turn(pos: dict, seat: int, phase: str = "play", number: int = 10) -> dict:
    """It is seat's turn, at the start (phase 'play', decider = that seat)."""
    name = pos["players"][seat]["name"]
    pos["turn"]["player"] = name
    pos["turn"]["decider"] = name
    pos["turn"]["phase"] = phase
    pos["turn"]["number"] = number
    pos["turn"]["card"] = None
    pos["turn"]["scratch"] = {}
    return pos


def set_pm(pos: dict, seat: int) -> dict:
    pos["praefectus_magnus"] = pos["players"][seat]["name"]
    return pos


def load(pos: dict) -> Game:
    return Game.from_json(copy.deepcopy(pos))


def start(pos: dict, player: int = 0, number: int | None = None) -> Game:
    """Load pos with `player` to play a card (phase 'play'), keeping the turn number unless given."""
    pos = copy.deepcopy(pos)
    set_turn(pos, player, number=pos["turn"]["number"] if number is None else number)
    return load(pos)


def run(g: Game, *steps: str) -> Game:
    """Apply moves in notation, in order."""
    for m in steps:
        g.apply(m)
    return g


def build(players: int = 3, turn: int = 0, **seat0) -> tuple[dict, Game]:
    """Shortcut: base position, seat 0 edited with `seat0`, turn of `turn`; returns (pos, game)."""
    pos = base(players)
    if seat0:
        set_player(pos, 0, **seat0)
    set_turn(pos, turn)
    return pos, load(pos)


# ---------------------------------------------------------------- reading back

def player(g: Game, i: int) -> dict:
    return g.to_json()["players"][i]


def goods(g: Game, i: int) -> dict:
    return dict(player(g, i)["goods"])


def coins(g: Game, i: int) -> int:
    return player(g, i)["coins"]


def colonists(g: Game, i: int) -> dict:
    return player(g, i)["colonists"]


def houses(g: Game, i: int) -> list:
    return sorted(player(g, i)["houses"])


def moves(g: Game) -> list[str]:
    return [g.text(m) for m in g.legal_moves()]


def gds(**kw) -> dict:
    """A full goods dict: gds(food=2) -> {'brick': 0, 'food': 2, 'tool': 0, 'wine': 0, 'cloth': 0}."""
    return {g: kw.get(g, 0) for g in GOODS}


def norm_route(text: str) -> str:
    """A route name in a fixed orientation, to compare places regardless of direction."""
    if "-" not in text or text == "storehouse":
        return text
    # city names contain spaces but no '-'
    a, b = text.split("-", 1)
    return "-".join(sorted((a, b)))


def places(g: Game, i: int, kind: str) -> list[str]:
    """Sorted places of seat i's colonists of `kind` ('land'/'sea'), routes normalised."""
    return sorted(norm_route(x) for x in colonists(g, i)[kind])


def ok(g: Game) -> None:
    errs = g.state.invariant_errors()
    assert errs == [], errs


def heuristic_mid_game(board: str = "italia", players: int = 3, seed: int = 21, turns: int = 6) -> Game:
    """A game after a few heuristic turns, stopped where the player to move plays a card (Ann, Bob, Cid...)."""
    from concordia_ai.ai.bots import make_bot
    g = Game.new(board, players, seed=seed, names=["Ann", "Bob", "Cid", "Dee", "Eve"][:players])
    bots = [make_bot("heuristic", seed=i) for i in range(players)]
    while g.state.turns < turns or g.phase != "play":
        g.apply(bots[g.decider].choose(g))
    return g
