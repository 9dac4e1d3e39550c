"""Why a step is refused: the rule it breaks, in words (not enough coins, goods or room, a route taken,
a colonist that has moved, the steps left...). `reason` is asked only after a text matched no legal move.
"""
from __future__ import annotations

from collections import Counter

from .. import core
from . import costs
from .position import STOREHOUSE, location_name
from .vocabulary import ActionType
from .words import DECKS, word_matches

# the phases in which each verb is a step, and what that is, for "wrong moment" refusals
STEP_OF = {"copy": (("diplomat",), "a Diplomat step"), "colonist": (("tribune",), "a Tribune step"),
           "move": (("architect-move",), "an Architect step"),
           "build": (("architect-move", "architect-build"), "an Architect step"),
           "produce": (("prefect",), "a Prefect step"), "keep": (("keep",), "a storehouse keep-choice"),
           "sell": (("mercator",), "a Mercator step"),
           "buy": (("mercator", "senator", "consul"), "a Mercator, Senator or Consul step"),
           "place": (("colonist",), "a Colonist step"), "reveal": (("chance",), "a card turned up from the stack"),
           "enter": (("square",), "the end of an Aegyptus Architect"), "play": (("play",), "the start of a turn"),
           "cash": (("prefect", "colonist"), "a Prefect or Colonist step")}


def reason(game, words: list[str], verb: str) -> str | None:
    """Why the typed step (lower-case words, `verb` resolved) is not legal now, or None if unsure."""
    pos = game.to_json()
    phase = pos["turn"]["phase"]
    if verb == "reveal" and phase != "chance":
        shown = _already_revealed(game, pos, " ".join(words[1:]))
        if shown:
            return shown
    if verb in STEP_OF and phase not in STEP_OF[verb][0]:
        what = STEP_OF[verb][1]
        if verb == "move" and phase == "architect-build":
            return "the movement ended with the first build (moves come before builds)"
        return f"{verb!r} is {what}, and now {game.decider_name} is in phase {phase}"
    me = pos["players"][game.state.turn_player]
    try:
        if verb == "play":
            return _play(game, me, words)
        if verb in ("sell", "buy") and phase == "mercator" and len(words) == 3 and words[1].isdigit():
            return _trade(game, pos, me, verb, int(words[1]), _good(game, words[2]))
        if verb == "buy":
            return _card(game, pos, me, " ".join(words[1:]))
        if verb == "build":
            return _build(game, pos, me, " ".join(words[1:]))
        if verb == "move":
            return _move(game, pos, me, words)
        if verb == "place":
            return _place(game, me, words)
        if verb == "produce":
            return _produce(game, pos, " ".join(words[1:]))
    except LookupError:
        return None
    return None


def _good(game, word: str) -> str:
    found = [g for g in game.rules.goods if g.startswith(word)]
    if len(found) != 1:
        raise LookupError(word)
    return found[0]


def _city(game, text: str) -> int:
    names = [c.lower() for c in game.board.cities]
    found = [i for i, c in enumerate(names) if c == text] or [i for i, c in enumerate(names) if c.startswith(text)]
    if len(found) != 1:
        raise LookupError(text)
    return found[0]


def _province(game, text: str) -> int:
    names = [p.lower() for p in game.board.provinces]
    found = [i for i, p in enumerate(names) if p == text] or [i for i, p in enumerate(names) if p.startswith(text)]
    if len(found) != 1:
        raise LookupError(text)
    return found[0]


def _produce(game, pos, text):
    province = game.board.provinces[_province(game, text)]
    if pos["provinces"][province]["side"] == "coins":
        return (f"the bonus marker of {province} is on its coin side (produced there since the last cash): produce "
                f"in a province whose marker shows its good, or cash (which turns every marker back)")
    return None


def _already_revealed(game, pos, typed):
    """A reveal typed for a card the engine turned up by itself (the only card left in its deck)."""
    label = next((x for x in pos["display"] if x and _names_card(typed, x)), None)
    if label is None:
        return None
    deck = label.rsplit("/", 1)[-1]
    if pos["unseen"].get(deck):
        return f"{label} is in the display already: a card is entered once, when it is turned up"
    # deck empty: its last card was turned up by the engine itself (step_order.forced_reveals)
    return (f"{label} is in the display already and deck {deck} has no card left (the last card of a deck is "
            f"revealed by itself); nothing to enter")


def _lacking(have: dict, coins: int, need_coins: int, need: dict) -> str | None:
    short = [f"{n - have.get(g, 0)} {g}" for g, n in need.items() if have.get(g, 0) < n]
    if coins < need_coins:
        short.insert(0, f"{need_coins - coins} coins")
    return ", ".join(short) or None


def _play(game, me, words):
    label = " ".join(words[1:])
    held = [k for k, n in me["hand"].items() if n]
    if not any(_names_card(label, k) for k in held):
        return f"{me['name']} holds no {label!r} (hand: {', '.join(held)})"
    return None


def _trade(game, pos, me, verb, n, good):
    sc = pos["turn"]["scratch"]
    goods = game.rules.goods
    g = goods.index(good)
    if sc["merc_kinds"] >= 2:
        return "a Mercator trades two kinds at most, and two are traded"
    if sc["merc_sold_mask"] >> g & 1:
        return f"{good} was sold this Mercator (a kind is traded once: give the whole amount, e.g. sell 3 {good})" \
            if verb == "sell" else f"{good} was sold this Mercator (a kind is bought or sold, not both)"
    if sc["merc_bought_last"] == g:
        return f"{good} was bought this Mercator (a kind is traded once, bought or sold)"
    if verb == "sell":
        have = me["goods"][good]
        return f"{me['name']} has {have} {good}" if have < n else None
    price = n * game.rules.price[g]
    if me["coins"] < price:
        return f"{n} {good} cost {price} coins; {me['name']} has {me['coins']}"
    used = sum(me["goods"].values()) + sum(c == STOREHOUSE for k in ("land", "sea") for c in me["colonists"][k])
    room = game.rules.raw.storehouse_slots - used
    if room < n:
        return f"{me['name']}'s storehouse has room for {room} more"
    return None


def _legal_texts(game) -> list[str]:
    return [game.text(m) for m in game.legal_moves()]


def _names_card(typed: str, label: str) -> bool:
    """The typed card ("merc/5", "arch", "consul/ii") names the card `label` ("Mercator/5")."""
    return word_matches(typed, label.lower()) or word_matches(typed, label.lower().split("/")[0])


def _card(game, pos, me, text):
    name = text.split(" paying ")[0].strip()
    shown = [x for x in pos["display"] if x]
    slots = [i for i, label in enumerate(pos["display"]) if label and _names_card(name, label)]
    if not slots:
        kind, _, deck = name.partition("/")
        same = [x for x in shown if deck in DECKS and _names_card(kind, x)]
        if same:      # the card is there, from another deck: say which, never buy it in its place
            card = same[0].split("/")[0]
            legal = [t for t in _legal_texts(game) if t.split(" paying ")[0] == f"buy {same[0]}"]
            return (f"{card}/{deck.upper()} is not in the display; its {card} is {' and '.join(same)}"
                    + (f" ({legal[0]})" if legal else ""))
        return f"{name!r} is not in the display ({', '.join(shown)})"
    sc = pos["turn"]["scratch"]
    if pos["turn"]["phase"] == "senator" and sc["buys"] >= 2:
        return "a Senator buys two cards at most"
    label = pos["display"][slots[0]]
    variant = "wine_variant" if pos["options"]["wine_variant"] else "standard"
    payings = [t.split(" paying ")[1] for t in _legal_texts(game) if t.startswith(f"buy {label} paying ")]
    if pos["turn"]["phase"] == "senator" and "any" in game.rules.surcharge[variant][slots[0]] \
            and " paying " not in text and len(payings) > 1:
        return (f"{label}'s place in the display adds any one good: say which, e.g. buy {label} paying {payings[0]} "
                f"(it can be paid with {', '.join(payings)})")
    paying = text.split(" paying ")[1].strip() if " paying " in text else None
    paid = next((j for j, g in enumerate(game.rules.goods) if paying and g.startswith(paying)), None)
    any_good = pos["turn"]["phase"] == "senator" and "any" in game.rules.surcharge[variant][slots[0]]
    price = costs.card_price(game, pos, slots[0], paid if any_good else None)
    cost = costs.cost_text({"goods": price}) + (" + any one good" if any_good and paid is None else "")
    short = _lacking(me["goods"], me["coins"], 0, price)
    if not short and any_good and paid is None and sum(me["goods"].values()) <= sum(price.values()):
        short = "one more good of any kind"
    if short:
        return f"{label} costs {cost} here; {me['name']} lacks {short}"
    return None


def _build(game, pos, me, text):
    c = _city(game, text)
    city = game.board.cities[c]
    if c == game.board.start_city or c in game.board.squares:
        return f"no house can stand in {city}"
    if city in me["houses"]:
        return f"{me['name']} already has a house in {city}"
    seat = game.state.turn_player
    ends = set()
    for i in range(6):
        loc = game.state.colonist_location(seat, i)
        if loc >= core.ROUTE_OFFSET:
            a, b, _, _ = game.board.routes[loc - core.ROUTE_OFFSET]
            ends |= {a, b}
    if c not in ends:
        return f"no colonist of {me['name']} stands on a route next to {city}"
    coins, goods = costs.house_cost(game, pos, c)
    short = _lacking(me["goods"], me["coins"], coins, goods)
    if short:
        return f"a house in {city} costs {costs.cost_text({'coins': coins, 'goods': goods})}; " \
               f"{me['name']} lacks {short}"
    return None


def _move(game, pos, me, words):
    if len(words) < 5 or ">" not in words:
        return None
    kind = "sea" if words[1].startswith("s") else "land"
    at = words.index(">")
    frm, to = " ".join(words[2:at]), " ".join(words[at + 1:])
    seat = game.state.turn_player
    lo = 3 if kind == "sea" else 0
    here = [i for i in range(lo, lo + 3)
            if location_name(game.board, game.state.colonist_location(seat, i)).lower() in (frm, _flip(frm))]
    if not here:
        return f"{me['name']} has no {kind} colonist at {frm!r}"
    moved = pos["turn"]["scratch"]["moved"]
    if all(moved >> i & 1 for i in here):
        return f"the {kind} colonist at {frm!r} has moved already this Architect (each moves once)"
    routes = [r for r in range(len(game.board.routes))
              if location_name(game.board, core.ROUTE_OFFSET + r).lower() in (to, _flip(to))]
    if not routes:
        return None
    r = routes[0]
    sc = pos["turn"]["scratch"]
    steps = costs.move_cost(game, pos, core.encode(ActionType.MOVE, here[0], r))["steps"]
    if steps > sc["steps"]:
        return f"that move needs {steps} steps; {sc['steps']} left" if steps < 255 else "that route cannot be reached"
    others = [p["name"] for q, p in enumerate(pos["players"]) if q != seat
              and any(game.state.colonist_location(q, i) == core.ROUTE_OFFSET + r for i in range(6))]
    cap = game.board.routes[r][3]
    route = location_name(game.board, core.ROUTE_OFFSET + r)
    if others and cap:
        return f"{route} is taken by {others[0]}"
    mine = [i for i in range(lo, lo + 3) if game.state.colonist_location(seat, i) == core.ROUTE_OFFSET + r]
    started = sc.get("arch_from", [-1] * 6)
    if mine and cap or any(started[i] == core.ROUTE_OFFSET + r for i in range(lo, lo + 3)):
        return (f"{route} is where an own {kind} colonist stands or stood this Architect: a chain (this one onto "
                f"it, that one on) or a swap is entered as its outcome, one direct move (or none), which costs "
                f"no more steps")
    return (f"the engine takes {me['name']}'s moves in colonist order, once each, without chains through own "
            "routes (docs/notation.md); give all of this Architect's moves together to have them placed")


def _flip(route: str) -> str:
    parts = route.split("-")
    return "-".join(reversed(parts)) if len(parts) == 2 else route


def _place(game, me, words):
    if len(words) < 3:
        return None
    kind = "sea" if words[1].startswith("s") else "land"
    need = Counter(game.rules.raw.colonist_cost)
    short = _lacking(me["goods"], me["coins"], 0, dict(need))
    if short:
        return f"a colonist costs {costs.cost_text({'goods': dict(need)})}; {me['name']} lacks {short}"
    if STOREHOUSE not in me["colonists"][kind]:
        return f"{me['name']} has no {kind} colonist left in the storehouse"
    c = _city(game, " ".join(words[2:]))
    city = game.board.cities[c]
    if c != game.board.start_city and city not in me["houses"]:
        return f"{me['name']} has no house in {city} (a new colonist goes to " \
               f"{game.board.cities[game.board.start_city]} or a city with an own house)"
    return None
