"""What a step costs: a house's coins and goods, a card's price with the display surcharge, an Architect
move's steps, a Mercator trade's coins. Used by `concordia moves` and by the reasons for a refused step.

Every function takes the position dict (`game.to_json()`) once, so that listing all legal moves dumps the
state one time."""
from __future__ import annotations

from collections import Counter
from functools import lru_cache

from .. import core
from .vocabulary import ActionType, action_type


@lru_cache(maxsize=None)
def _distances(board_id: int):
    return core.board_distances(board_id)


def steps_left(pos: dict) -> int | None:
    """The Architect's movement steps left, None outside an Architect's movement."""
    return pos["turn"]["scratch"]["steps"] if pos["turn"]["phase"] == "architect-move" else None


def house_cost(game, pos: dict, city: int) -> tuple[int, dict[str, int]]:
    """(coins, goods) of an own house in `city`: coins for its good times the houses there after it."""
    raw = game.rules.raw
    name = game.board.cities[city]
    good = pos["cities"][name]
    there = sum(name in p["houses"] for p in pos["players"])
    return raw.house_coins[good] * (there + 1), dict(Counter(raw.house_goods[good]))


def card_price(game, pos: dict, slot: int, paying: int | None) -> dict[str, int]:
    """The goods a card in display `slot` costs: a Senator adds the slot's surcharge (`paying` for 'any')."""
    R = game.rules
    card = next(m for m in R.market if m.label == pos["display"][slot])
    goods = Counter({g: card.cost[j] for j, g in enumerate(R.goods) if card.cost[j]})
    if pos["turn"]["phase"] == "senator":
        variant = "wine_variant" if pos["options"]["wine_variant"] else "standard"
        goods.update(g for g in R.surcharge[variant][slot] if g != "any")
        if paying is not None:
            goods[R.goods[paying]] += 1
    return dict(goods)


def move_cost(game, pos: dict, code: int) -> dict:
    """The cost of a legal move as fields (empty when it costs nothing):
    coins (paid; negative = received), goods {good: n} (paid), steps (Architect movement)."""
    t, x, y = core.decode(code)
    atype = action_type(t)
    R = game.rules
    if atype == ActionType.BUILD:
        coins, goods = house_cost(game, pos, x)
        return {"coins": coins, "goods": goods}
    if atype == ActionType.CARD:
        return {"goods": card_price(game, pos, x, y if y < 5 else None)}
    if atype == ActionType.MOVE:
        loc = game.state.colonist_location(game.state.turn_player, x)
        rr, cr = _distances(game.board.id)
        return {"steps": rr[loc - core.ROUTE_OFFSET][y] if loc >= core.ROUTE_OFFSET else cr[loc][y]}
    if atype in (ActionType.PLACE, ActionType.TRIBUNE_COLONIST):
        return {"goods": dict(Counter(R.raw.colonist_cost))}
    if atype in (ActionType.SELL, ActionType.BUY):
        coins = y * R.price[x]
        return {"coins": -coins if atype == ActionType.SELL else coins}
    return {}


def cost_text(cost: dict) -> str:
    """'3 coins, brick + food', '2 steps', 'receives 12 coins', or ''."""
    parts = []
    if "coins" in cost:
        c = cost["coins"]
        parts.append(f"receives {-c} coins" if c < 0 else f"{c} coin{'s' if c != 1 else ''}")
    if cost.get("goods"):
        parts.append(" + ".join(f"{n} {g}" if n > 1 else g for g, n in cost["goods"].items()))
    if "steps" in cost:
        parts.append(f"{cost['steps']} step{'s' if cost['steps'] != 1 else ''}")
    return ", ".join(parts)
