"""The decisions of a plan bot: each sub-decision of `legal_moves()` answered by the plan's rules.

One handler per phase. A handler applies its rule when the plan gives one and otherwise falls back
on the greedy one-step evaluation (`core.choose_greedy`, or the same evaluation over the moves the
rule left open). Colonist movement is the exception: the evaluation cannot tell routes apart, so
colonists always follow a simple scoring of the cities they could reach (see `_city_wants`).

Nothing here looks at hidden information: every look-ahead runs on a copy whose stack order is
forgotten, so a refill draws from the unseen cards.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..engine import vocabulary
from ..engine.vocabulary import ActionType
from .. import core
from .plans import ANY_CARD, NEEDS, SURPLUS, Plan

GAMMA = 0.6          # each step still to go leaves a city worth this fraction to a colonist
AFFORDABLE = 1.5     # a city the player can pay for now is worth this much more
NEW_PROVINCE = 0.5   # bonus for a city in a province without an own house (Saturnus)
TOWARD = 2.0         # bonus for the first colonists_toward entry (later entries get less)
POSITION = 0.25      # weight of the colonists' positions in a whole turn's value (in VP-like units)
RIVAL_SHARE = 0.3    # as the core's greedy: own estimate minus this share of the best rival's


def _type(move: int) -> ActionType | None:
    return vocabulary.move_type(move)


class _Declines(Exception):
    """The plan would end a card a Diplomat has just copied with nothing done in it. The core does not
    offer that `done` (the outcome is the Diplomat's own `done`), so the copy is not worth making."""


# ---------------------------------------------------------------- board geometry

@dataclass(frozen=True)
class Geometry:
    route_decay: np.ndarray      # [route, city]: GAMMA ** steps until a colonist on the route can build there
    city_decay: np.ndarray       # [sea, city, city]: the same from a colonist standing in a city
    route_steps: tuple           # [route][route] steps (same kind), 255 unreachable
    city_steps: tuple            # [city][route]
    buildable: np.ndarray        # cities that take houses
    province: tuple              # province index per city, -1 none
    squares: frozenset           # special squares (Aegyptus): a colonist there stays


@lru_cache(maxsize=None)
def geometry(board_id: int) -> Geometry:
    B = vocabulary.board_by_id(board_id)
    rr, cr = core.board_distances(board_id)
    n_cities = len(B.cities)
    adjacent = [[[r for r, (a, b, sea, _) in enumerate(B.routes) if sea == kind and x in (a, b)]
                 for x in range(n_cities)] for kind in (0, 1)]

    def decay(steps):
        d = min(steps, default=255)
        return GAMMA ** d if d < 255 else 0.0

    route_decay = np.array([[decay([rr[r][q] for q in adjacent[sea][x]]) for x in range(n_cities)]
                            for r, (_, _, sea, _) in enumerate(B.routes)])
    city_decay = np.array([[[decay([cr[c][q] for q in adjacent[kind][x]]) for x in range(n_cities)]
                            for c in range(n_cities)] for kind in (0, 1)])
    buildable = np.array([B.city_letter[c] >= 0 for c in range(n_cities)])
    return Geometry(route_decay, city_decay, tuple(map(tuple, rr)), tuple(map(tuple, cr)), buildable,
                    tuple(B.city_province), frozenset(B.squares))


# ---------------------------------------------------------------- what a look-ahead reports

@dataclass(frozen=True)
class Snapshot:
    coins: int
    goods: int
    wealth: int
    houses: int
    cards: int
    discard: int
    colonists: int


def snapshot(state, seat: int) -> Snapshot:
    R = vocabulary.rules()
    p = state.export()["players"][seat]
    goods = sum(p["goods"])
    return Snapshot(p["coins"], goods, p["coins"] + sum(n * c for n, c in zip(p["goods"], R.price)),
                    len(p["houses"]), sum(p["hand"]) + sum(p["discard"]), sum(p["discard"]),
                    sum(1 for loc in p["colonists"] if loc != core.STORE))


def _lookahead_copy(state, seed: int):
    t = state.copy()
    t.set_chance(False, False)      # forget the stack order: refills draw from the unseen cards
    t.reseed(seed)
    return t


def judge(state, seat: int) -> float:
    """The core's estimate of `seat`'s final score minus a share of the best rival's (as choose_greedy)."""
    v = core.evaluate_state(state)
    rivals = [x for q, x in enumerate(v) if q != seat]
    return v[seat] - RIVAL_SHARE * max(rivals)


@dataclass(frozen=True)
class Turn:
    """The rest of a turn after one card (or Diplomat copy), played by the plan on a copy."""
    value: float
    before: Snapshot
    after: Snapshot
    copied: int          # the card kind a Diplomat copied, -1 none

    def useful(self, kind: int) -> bool:
        """Did the card do its job: the Architect built, the Senator bought, the Prefect paid...?"""
        action = vocabulary.rules().kinds[kind].action
        if action == core.CARD_ACTIONS["Diplomat"]:
            return self.copied >= 0 and self.useful(self.copied)
        b, a = self.before, self.after
        return {
            core.CARD_ACTIONS["Tribune"]: b.discard > 0,
            core.CARD_ACTIONS["Architect"]: a.houses > b.houses,
            core.CARD_ACTIONS["Prefect"]: a.goods > b.goods or a.coins > b.coins,
            core.CARD_ACTIONS["Mercator"]: True,
            core.CARD_ACTIONS["Senator"]: a.cards > b.cards,
            core.CARD_ACTIONS["Consul"]: a.cards > b.cards,
            core.CARD_ACTIONS["Colonist"]: a.colonists > b.colonists or a.coins > b.coins,
        }.get(action, a.goods > b.goods)       # a specialist: it produced


# ---------------------------------------------------------------- the player

class PlanPlayer:
    """Chooses moves for whoever decides in a state, following `plan`."""

    def __init__(self, plan: Plan):
        self.plan = plan
        self.R = vocabulary.rules()
        self._handlers = {
            "play": self._play, "diplomat": self._diplomat, "tribune": self._tribune,
            "architect-move": self._architect, "architect-build": self._architect,
            "prefect": self._prefect, "mercator": self._mercator, "senator": self._buy_card,
            "consul": self._buy_card, "colonist": self._colonist, "keep": self._keep,
        }

    def choose(self, state, seed: int) -> int:
        """A legal move for whoever decides in `state`; the same seed gives the same move."""
        rng = random.Random(seed)
        try:
            return self._decide(state, rng)
        except _Declines:
            # only when a game is handed over inside such a copy: it must go on, so the evaluation decides
            return core.choose_greedy(state, rng.getrandbits(62), False)

    @staticmethod
    def _done(legal) -> int:
        """`done`, or _Declines where the core folds it into the Diplomat's `done`."""
        for m in legal:
            if _type(m) == ActionType.DONE:
                return m
        raise _Declines

    def _decide(self, state, rng) -> int:
        legal = state.legal_actions()
        if not legal:
            raise ValueError("no legal move")
        if len(legal) == 1:
            return legal[0]
        if state.decider < 0:                       # a card revealed from the stack: any will do
            return rng.choice(legal)
        return self._handlers[state.phase_name](state, legal, rng)

    # ---- fallbacks
    def _greedy(self, state, moves, rng) -> int:
        """The greedy one-step evaluation over `moves` (the core's own when they are all the legal moves)."""
        if len(moves) == 1:
            return moves[0]
        if set(moves) == set(state.legal_actions()):
            return core.choose_greedy(state, rng.getrandbits(62), False)
        seat, seed = state.decider, rng.getrandbits(62)
        values = []
        for m in moves:
            t = _lookahead_copy(state, seed)
            t.apply(m)
            values.append(judge(t, seat))
        best = max(values)
        return rng.choice([m for m, v in zip(moves, values) if v > best - 1e-6])

    def _after(self, state, move: int, seed: int = 1) -> Snapshot:
        t = _lookahead_copy(state, seed)
        t.apply(move)
        return snapshot(t, state.decider)

    # ---- playing a card
    def _turn(self, state, move: int, seed: int) -> Turn:
        """Play `move` on a copy and the rest of the turn by this plan (rivals' keep choices greedily)."""
        seat = state.decider
        t = _lookahead_copy(state, seed)
        before = snapshot(t, seat)
        turn, copied, rng = t.turns, -1, random.Random(seed)
        t.apply(move)
        for _ in range(200):
            if t.is_over or t.turns != turn:
                break
            if t.decider == seat:
                m = self._decide(t, rng)
            else:
                m = core.choose_greedy(t, rng.getrandbits(62), False)
            if _type(m) == ActionType.COPY and copied < 0:
                copied = core.decode(m)[1]
            t.apply(m)
        return Turn(judge(t, seat) + POSITION * self._position(t, seat), before, snapshot(t, seat), copied)

    def _position(self, state, seat: int) -> float:
        """What `seat`'s colonists are worth where they stand (the evaluation does not see it)."""
        ex = state.export()
        wants = self._city_wants(state, ex, seat)
        colonists = ex["players"][seat]["colonists"]
        return sum(self._place_value(state, self._uncovered(state, wants, colonists, i), loc, 1 if i >= 3 else 0)
                   for i, loc in enumerate(colonists))

    def _uncovered(self, state, wants, colonists, i: int) -> np.ndarray:
        """`wants` without the cities another colonist already stands next to (one colonist per city is enough)."""
        B = vocabulary.board_by_id(state.board_id)
        out = wants.copy()
        for j, loc in enumerate(colonists):
            if j != i and loc >= core.ROUTE_OFFSET:
                out[list(B.routes[loc - core.ROUTE_OFFSET][:2])] = 0.0
        return out

    def _card_choice(self, state, moves, rng, kind_of) -> int:
        """The first `play` entry whose card is useful now, else the best evaluated whole turn of a
        useful card (of any card when none is useful)."""
        seed = rng.getrandbits(62)
        turns = {}
        for m in moves:
            try:
                turns[m] = self._turn(state, m, seed)
            except _Declines:       # a copy the plan would leave empty: the same as the Diplomat's done
                pass
        if not turns:
            return self._greedy(state, moves, rng)
        moves = [m for m in moves if m in turns]
        useful = [m for m in moves if kind_of(m) >= 0 and turns[m].useful(kind_of(m))]
        for entry in self.plan.play:
            matching = [m for m in useful if self._is(kind_of(m), entry)]
            if matching:
                return max(matching, key=lambda m: turns[m].value)
        return max(useful or moves, key=lambda m: turns[m].value)

    def _is(self, kind: int, entry: str) -> bool:
        k = self.R.kinds[kind]
        return entry in (k.name, k.label)

    def _play(self, state, legal, rng) -> int:
        hand = state.export()["players"][state.decider]["hand"]
        tribune = [m for m in legal if self.R.kinds[core.decode(m)[1]].name == "Tribune"]
        limit = self.plan.tribune_when_hand_below
        if tribune and limit:
            if sum(hand) < limit:
                return tribune[0]
            legal = [m for m in legal if m not in tribune] or tribune
        return self._card_choice(state, legal, rng, lambda m: core.decode(m)[1])

    def _diplomat(self, state, legal, rng) -> int:
        return self._card_choice(state, legal, rng, lambda m: core.decode(m)[1] if _type(m) == ActionType.COPY else -1)

    # ---- colonists: where they go, which ones join
    def _city_wants(self, state, ex, seat: int) -> np.ndarray:
        """How much `seat` wants a house in each city (0 where it has one or none can stand); a city it
        can pay for now counts AFFORDABLE times as much."""
        base, affordable = self._wants_and_means(state, ex, seat)
        return base * np.where(affordable, AFFORDABLE, 1.0)

    def _wants_and_means(self, state, ex, seat: int) -> tuple[np.ndarray, np.ndarray]:
        """(how much `seat` wants a house in each city, whether it can pay for that house now)."""
        B = vocabulary.board_by_id(state.board_id)
        geo = geometry(state.board_id)
        me = ex["players"][seat]
        mine = set(me["houses"])
        my_provinces = {geo.province[c] for c in mine}
        in_city = {}
        for p in ex["players"]:
            for c in p["houses"]:
                in_city[c] = in_city.get(c, 0) + 1
        raw = self.R.raw
        toward = self.plan.colonists_toward
        wants = np.zeros(len(B.cities))
        affordable = np.zeros(len(B.cities), dtype=bool)
        for x in range(len(B.cities)):
            good = ex["city_good"][x]
            if not geo.buildable[x] or x in mine or good < 0:
                continue
            gname = self.R.goods[good]
            w = 1.0
            if geo.province[x] not in my_provinces:
                w += NEW_PROVINCE
            for i, entry in enumerate(toward):
                if entry in (gname, B.provinces[geo.province[x]]):
                    w += TOWARD * (len(toward) - i) / len(toward)
                    break
            wants[x] = w
            coins = raw.house_coins[gname] * (in_city.get(x, 0) + 1)
            need = [raw.house_goods[gname].count(g) for g in self.R.goods]
            affordable[x] = me["coins"] >= coins and all(h >= n for h, n in zip(me["goods"], need))
        return wants, affordable

    def _place_value(self, state, wants, loc: int, sea: int) -> float:
        """What a colonist at `loc` is worth: its best wanted city, discounted by the steps to reach it."""
        geo = geometry(state.board_id)
        if loc >= core.ROUTE_OFFSET:
            return float((geo.route_decay[loc - core.ROUTE_OFFSET] * wants).max())
        if loc == core.STORE or loc in geo.squares:
            return 0.0                              # in the storehouse or on a special square: stays there
        return float((geo.city_decay[sea][loc] * wants).max())

    def _steps(self, state, loc: int, route: int) -> int:
        geo = geometry(state.board_id)
        return geo.route_steps[loc - core.ROUTE_OFFSET][route] if loc >= core.ROUTE_OFFSET else geo.city_steps[loc][route]

    def _architect(self, state, legal, rng) -> int:
        """Move while a move lets a colonist build now or brings it nearer to what the plan wants;
        then build by the `build` rule."""
        ex = state.export()
        seat = state.decider
        base, affordable = self._wants_and_means(state, ex, seat)
        wants = base * np.where(affordable, AFFORDABLE, 1.0)
        colonists = ex["players"][seat]["colonists"]
        now = self._buildable_now(state, colonists, base, affordable)
        scored = []
        for m in legal:
            if _type(m) != ActionType.MOVE:
                continue
            _, i, r = core.decode(m)
            sea = 1 if i >= 3 else 0
            moved = list(colonists)
            moved[i] = core.ROUTE_OFFSET + r
            free = self._uncovered(state, wants, colonists, i)
            gain = self._buildable_now(state, moved, base, affordable) - now + \
                self._place_value(state, free, moved[i], sea) - self._place_value(state, free, colonists[i], sea)
            scored.append((round(gain, 9), -self._steps(state, colonists[i], r), -m, m))
        stop = [m for m in legal if _type(m) in (ActionType.BUILD, ActionType.DONE)]
        if scored and (max(scored)[0] > 0 or not stop):   # no stop: a shared route must be cleared first
            return max(scored)[3]
        return self._build(state, stop, wants, rng)

    def _buildable_now(self, state, colonists, wants, affordable) -> float:
        """The wanted cities the colonists stand next to and the player can pay for: the best counts
        three times (one house is sure), the others once (the money may run out)."""
        B = vocabulary.board_by_id(state.board_id)
        near = set()
        for loc in colonists:
            if loc >= core.ROUTE_OFFSET:
                near.update(B.routes[loc - core.ROUTE_OFFSET][:2])
        values = sorted((wants[x] for x in near if affordable[x] and wants[x] > 0), reverse=True)
        return 3 * values[0] + sum(values[1:]) if values else 0.0

    def _build(self, state, moves, wants, rng) -> int:
        """A house by the `build` rule, or done.

        The rule picks the set of houses (in its order of preference, each one the money still allows);
        the core takes a turn's builds in city order, so the first city of that set is built now (the
        same choice from the next state gives the rest of the set)."""
        rule = self.plan.build
        builds = [m for m in moves if _type(m) == ActionType.BUILD]
        if rule == "greedy" or not builds:
            return self._greedy(state, moves, rng)
        seat = state.decider
        me = state.export()["players"][seat]
        spend = {}
        for m in builds:
            after = _lookahead_copy(state, 1)
            after.apply(m)
            p = after.export()["players"][seat]
            spend[m] = (me["coins"] - p["coins"], [b - a for b, a in zip(me["goods"], p["goods"])])
        worth = {m: c + sum(n * price for n, price in zip(g, self.R.price)) for m, (c, g) in spend.items()}
        if rule == "cheap":
            builds = [m for m in builds if spend[m][0] <= self.plan.build_max_coins]
        if rule == "best":
            builds.sort(key=lambda m: (-wants[core.decode(m)[1]], worth[m], m))
        else:                                          # max and cheap: cheapest first
            builds.sort(key=lambda m: (worth[m], -wants[core.decode(m)[1]], m))
        coins, goods, chosen = me["coins"], list(me["goods"]), []
        for m in builds:
            c, g = spend[m]
            if c <= coins and all(n <= h for n, h in zip(g, goods)):
                chosen.append(m)
                coins -= c
                goods = [h - n for h, n in zip(goods, g)]
        if not chosen:
            return self._done(moves)
        return min(chosen, key=lambda m: core.decode(m)[1])      # city order

    def _kinds_wanted(self) -> tuple[int, ...]:
        rule = self.plan.new_colonists
        return {"land": (0, 1), "sea": (1, 0), "any": (0, 1)}.get(rule, ())

    def _tribune(self, state, legal, rng) -> int:
        rule = self.plan.new_colonists
        if rule == "greedy":
            return self._greedy(state, legal, rng)
        options = {core.decode(m)[1]: m for m in legal if _type(m) == ActionType.TRIBUNE_COLONIST}
        if rule == "none" or not options:
            return self._done(legal)
        if rule == "any" and len(options) == 2:
            ex = state.export()
            wants = self._city_wants(state, ex, state.decider)
            start = vocabulary.board_by_id(state.board_id).start_city
            return max(options.values(), key=lambda m: (self._place_value(state, wants, start, core.decode(m)[1]),
                                                        -core.decode(m)[1]))
        return next(options[k] for k in self._kinds_wanted() if k in options)

    def _colonist(self, state, legal, rng) -> int:
        """Place colonists of the wanted kind while affordable, each in the city worth most; else the cash."""
        rule = self.plan.new_colonists
        if rule == "greedy":
            return self._greedy(state, legal, rng)
        places = [m for m in legal if _type(m) == ActionType.PLACE] if rule != "none" else []
        if rule in ("land", "sea"):
            for kind in self._kinds_wanted():
                if any(core.decode(m)[1] == kind for m in places):
                    places = [m for m in places if core.decode(m)[1] == kind]
                    break
        if places:
            wants = self._city_wants(state, state.export(), state.decider)
            return max(places, key=lambda m: (self._place_value(state, wants, core.decode(m)[2], core.decode(m)[1]),
                                              -m))
        return next((m for m in legal if _type(m) == ActionType.COLONIST_CASH), None) or self._done(legal)

    # ---- goods
    def _prefect(self, state, legal, rng) -> int:
        seat = state.decider
        before = state.export()["players"][seat]["goods"]
        cash = [m for m in legal if _type(m) == ActionType.CASH]
        if self.plan.cash_at_least and cash:
            if self._after(state, cash[0]).coins - snapshot(state, seat).coins >= self.plan.cash_at_least:
                return cash[0]
        if not self.plan.produce:
            return self._greedy(state, legal, rng)
        B = vocabulary.board_by_id(state.board_id)
        entries = self.plan.produce
        ranked = []
        for m in legal:
            if _type(m) != ActionType.PRODUCE:
                continue
            t = _lookahead_copy(state, 1)
            t.apply(m)
            after = t.export()
            gained = [a + p - b for a, p, b in zip(after["players"][seat]["goods"], after["pend"][seat], before)]
            province = B.provinces[core.decode(m)[1]]
            rank = next((i for i, e in enumerate(entries)
                         if e == province or (e in self.R.goods and gained[self.R.goods.index(e)] > 0)), None)
            if rank is not None:
                worth = sum(n * p for n, p in zip(gained, self.R.price))
                ranked.append(((rank, -worth, m), m))
        if not ranked:
            return self._greedy(state, legal, rng)
        return min(ranked)[1]

    def _mercator(self, state, legal, rng) -> int:
        """Sell by mercator_sell, then buy by mercator_buy; at most two kinds of goods, as the card allows."""
        ex = state.export()
        kinds_left = 2 - ex["merc_kinds"]
        need = self._needs(state, ex)
        me = ex["players"][state.decider]
        lacking = self._lacking(need, me["goods"])
        for verb, entries in ((ActionType.SELL, self.plan.mercator_sell), (ActionType.BUY, self.plan.mercator_buy)):
            offers = {}
            for m in legal:
                if _type(m) == verb:
                    _, g, units = core.decode(m)
                    offers.setdefault(g, []).append((units, m))
            wanted = []
            for good, units in entries:
                if good == NEEDS:
                    wanted += lacking
                elif good == SURPLUS:
                    wanted += self._surplus(need, me, lacking)
                else:
                    wanted.append((self.R.goods.index(good), units))
            first = {}
            for g, units in wanted:
                first.setdefault(g, units)          # a good's first entry wins
            kinds = kinds_left - (1 if verb == ActionType.SELL and kinds_left == 2 and lacking else 0)  # room to buy
            wanted = [(g, units) for g, units in first.items() if g in offers][:kinds]
            if wanted:
                # the core takes trades in the goods' order; the list's order chose which goods
                g, units = min(wanted)
                fitting = [o for o in offers[g] if units == 0 or o[0] <= units]
                return max(fitting or offers[g][:1])[1]
        return self._done(legal)

    def _needs(self, state, ex) -> list[int]:
        """Goods the decider needs for its next house, its first wanted card on display and a colonist
        the plan wants to add."""
        seat = state.decider
        me = ex["players"][seat]
        raw = self.R.raw
        need = [0] * len(self.R.goods)
        house = self._next_house(state, ex, seat)
        if house is not None:
            for g in raw.house_goods[self.R.goods[ex["city_good"][house]]]:
                need[self.R.goods.index(g)] += 1
        card = self._wanted_card(state, ex)
        if card is not None:
            for g, n in enumerate(card):
                need[g] += n
        if self.plan.new_colonists in ("any", "land", "sea") and core.STORE in me["colonists"]:
            for g in raw.colonist_cost:
                need[self.R.goods.index(g)] += 1
        return need

    def _lacking(self, need, have) -> list[tuple[int, int]]:
        """(good, units) short of `need`, the dearest shortfall first."""
        short = [(g, n - h) for g, (n, h) in enumerate(zip(need, have)) if n > h]
        return sorted(short, key=lambda x: (-x[1] * self.R.price[x[0]], x[0]))

    def _surplus(self, need, me, lacking) -> list[tuple[int, int]]:
        """(good, units) beyond `need` to sell when the storehouse has no room for what is lacking;
        the largest surplus first."""
        stored = sum(1 for loc in me["colonists"] if loc == core.STORE)
        room = self.R.raw.storehouse_slots - sum(me["goods"]) - stored
        short = sum(n for _, n in lacking) - room
        if short <= 0:
            return []
        extra = [(g, min(h - n, short)) for g, (n, h) in enumerate(zip(need, me["goods"])) if h > n]
        return sorted(extra, key=lambda x: (-x[1], x[0]))

    def _next_house(self, state, ex, seat: int) -> int | None:
        """The city the colonists can reach that the plan wants most (reach discounted by steps)."""
        geo = geometry(state.board_id)
        wants = self._wants_and_means(state, ex, seat)[0]
        reach = np.zeros(len(wants))
        for i, loc in enumerate(ex["players"][seat]["colonists"]):
            if loc >= core.ROUTE_OFFSET:
                reach = np.maximum(reach, geo.route_decay[loc - core.ROUTE_OFFSET])
            elif loc != core.STORE and loc not in geo.squares:
                reach = np.maximum(reach, geo.city_decay[1 if i >= 3 else 0][loc])
        score = wants * reach
        return int(score.argmax()) if score.max() > 0 else None

    def _wanted_card(self, state, ex) -> list[int] | None:
        """The goods the first `buy` entry's card on display costs at its slot (with the Senator's surcharge)."""
        variant = "wine_variant" if ex["options"] & core.OPTION_WINE_VARIANT else "standard"
        for entry in self.plan.buy:
            if entry == ANY_CARD:                   # the evaluation's choice: nothing to save up for
                return None
            costs = []
            for slot, cid in enumerate(ex["display"]):
                if cid < 0:
                    continue
                card = self.R.market[cid]
                if entry in (card.name, self.R.kinds[card.kind].label, self.R.kinds[card.kind].god):
                    cost = list(card.cost)
                    for g in self.R.surcharge[variant][slot]:
                        if g in self.R.goods:
                            cost[self.R.goods.index(g)] += 1
                    costs.append(cost)
            if costs:
                return min(costs, key=lambda c: (sum(n * p for n, p in zip(c, self.R.price)), c))
        return None

    def _keep(self, state, legal, rng) -> int:
        by_good = {self.R.goods[core.decode(m)[1]]: m for m in legal}
        for good in self.plan.keep:
            if good in by_good:
                return by_good[good]
        return self._greedy(state, legal, rng)

    # ---- cards from the display
    def _buy_card(self, state, legal, rng) -> int:
        if not self.plan.buy:
            return self._greedy(state, legal, rng)
        before = snapshot(state, state.decider).wealth
        cards = [m for m in legal if _type(m) == ActionType.CARD]
        for entry in self.plan.buy:
            if entry == ANY_CARD:                   # the rest of the purchase is the evaluation's
                return self._greedy(state, legal, rng)
            matching = [m for m in cards if self._card_matches(state, m, entry)]
            if matching:
                return min(matching, key=lambda m: (before - self._after(state, m).wealth, m))
        return self._done(legal)

    def _card_matches(self, state, move: int, entry: str) -> bool:
        card = self.R.market[state.display_card(core.decode(move)[1])]
        kind = self.R.kinds[card.kind]
        return entry in (card.name, kind.label, kind.god)
