"""The game as the page needs it: one JSON object with the board drawing, the players, the market
display with its prices, the legal moves of the moment with the elements that make them, and who is
winning now (the final-result model on the position itself, ai.search.position_outcome: no search).

Nothing here changes a game. The stack order of a simulation is never sent: the page knows what the
table knows (the unseen cards per deck, as `show` tells them).
"""
from __future__ import annotations

from collections import Counter

from ..ai.search import position_outcome
from ..engine import costs
from ..engine.errors import ConcordiaError
from ..engine.game import CHANCE, Game
from ..table import render
from . import board, targets

PLAYER_COLORS = board.PLAYER_COLORS
# what the players' win bars show before a hint (the page shows a hint's own "seatsLabel" after one)
WIN_LABEL = "estimate of the position, no search (final-result model)"


def page_state(game: Game, *, file: str | None = None, moves: int | None = None, redo: int = 0,
               version: str | None = None, view: dict | None = None, playable: bool = True,
               late: list | None = None) -> dict:
    """Everything the page shows for `game`. `view` marks a read-only position (a review point or a
    replay): no moves are offered then. `late`: the steps of this turn the engine's order has passed that
    `play` still takes (web/any_order.py, (text, position offered in)), offered with "late": true."""
    pos = game.to_json()
    scores = game.scores()
    wins = win_shares(game)
    turn = pos["turn"]
    decider = game.decider
    legal = move_list(game, pos, late) if playable and view is None else []
    players = []
    for seat, p in enumerate(pos["players"]):
        home = Counter(kind for kind in ("land", "sea") for place in p["colonists"][kind] if place == "storehouse")
        players.append({
            "seat": seat, "name": p["name"], "color": PLAYER_COLORS[seat], "coins": p["coins"],
            "goods": {g: p["goods"].get(g, 0) for g in game.rules.goods},
            "space": {"used": sum(p["goods"].values()) + sum(home.values()), "of": 12},
            "colonistsHome": {"land": home["land"], "sea": home["sea"]},
            "hand": dict(p["hand"]), "discard": dict(p["discard"]), "top": p["top"],
            # a card held by its kind (Mercator/5) that the display sold as Mercator/II: the line of `show`
            "boughtAs": render.bought_names(game, set(p["hand"]) | set(p["discard"])),
            "houses": len(p["houses"]), "vp": scores[seat]["total"], "score": scores[seat],
            "win": None if wins is None else wins[seat],
            "isTurn": not game.is_over and turn["player"] == p["name"],
            "decides": decider is not None and decider >= 0 and decider == seat,
            "praefectus": pos["praefectus_magnus"] == p["name"],
            "concordia": pos["end"]["concordia"] == p["name"],
        })
    return {
        "file": file, "version": version, "view": view,
        "board": pos["board"], "title": game.board.source.name.title(),
        "status": render.status_line(game), "over": game.is_over,
        "turn": turn["number"] + 1, "round": turn["number"] // game.n_players + 1,
        "phase": turn["phase"], "phaseText": render.PHASE_TEXT.get(turn["phase"], turn["phase"]),
        "player": turn["player"], "card": turn["card"],
        "decider": None if decider is None else ("chance" if decider == CHANCE else game.names[decider]),
        "players": players, "winLabel": None if wins is None else WIN_LABEL,
        "display": display(game), "prices": prices(game),
        "gods": {k.label: k.god for k in game.rules.kinds},
        "unseen": {deck: len(names) for deck, names in pos["unseen"].items()},
        "external": pos["chance"] == "external" and pos["stack_order"] is None,
        "concordia": pos["end"]["concordia"], "finalTurnsLeft": pos["end"]["final_turns_left"],
        "stepsLeft": costs.steps_left(pos), "moves": legal,
        "moveCount": moves, "redo": redo,
        "ranking": [game.names[s] for s in game.ranking()] if game.is_over else None,
        "svg": board.svg(game, pos),
    }


def move_list(game: Game, pos: dict, late: list | None = None) -> list[dict]:
    """The legal moves now: notation, the elements that make each, and what it costs; then the steps of
    this turn that `play` places into the engine's order with those recorded ("late": true, their cost as
    offered)."""
    hand = pos["players"][game.decider]["hand"] if game.decider is not None and game.decider >= 0 else None
    out = []
    for m in game.legal_moves():
        text = game.text(m)
        row = {"text": text, "targets": targets.targets(game, text, hand)}
        cost = costs.cost_text(costs.move_cost(game, pos, m))
        if cost:
            row["cost"] = cost
        out.append(row)
    for text, where in late or []:
        row = {"text": text, "targets": targets.targets(game, text, hand), "late": True}
        cost = costs.cost_text(costs.move_cost(where, where.to_json(), where.parse(text)))
        if cost:
            row["cost"] = cost
        out.append(row)
    return out


def display(game: Game) -> list[dict]:
    """The market display left to right with each card's price for a Senator (cost + surcharge)."""
    by_label = {m.label: m for m in game.rules.market}
    out = []
    for slot, label, price in render.display_prices(game):
        card = by_label.get(label) if label else None
        out.append({"slot": slot, "card": label, "name": card.name if card else None,
                    "god": game.rules.kinds[card.kind].god if card else None, "price": price})
    return out


def prices(game: Game) -> dict[str, int]:
    """What each good sells for (and costs) with a Mercator."""
    return dict(zip(game.rules.goods, game.rules.price))


def win_shares(game: Game) -> list[float] | None:
    """Each seat's share of the wins from here: the final-result model on the position's own evaluation
    (ai.search.position_outcome, the figure every win % of a hint comes from, here without a search; the
    shares sum to 1). None when the game is over (the page shows the final ranking then) or when no
    estimate can be made (missing or damaged model files): the bars are left out, the page still shows."""
    if game.is_over:
        return None
    try:
        return list(position_outcome(game).shares)
    except ConcordiaError:      # ValueWeightsError, OutcomeModelError, GameError: no estimate, no bar
        return None
