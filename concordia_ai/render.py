"""Text screens for the CLI: a position a person can check against the table, and score tables.

Everything here reads a Game and returns strings; nothing prints or changes the game.
"""
from __future__ import annotations

from collections import Counter

from . import compiled
from .game import CHANCE, SCORE_COLUMNS, Game

PHASE_TEXT = {
    "play": "plays a card from hand",
    "diplomat": "chooses a top discard card to copy (Diplomat)",
    "tribune": "may buy a colonist (Tribune)",
    "architect-move": "moves colonists, then builds (Architect)",
    "architect-build": "builds houses (Architect)",
    "prefect": "chooses a province to produce in, or cash (Prefect)",
    "mercator": "sells and buys goods (Mercator)",
    "senator": "buys cards from the display (Senator)",
    "consul": "buys a card from the display (Consul)",
    "colonist": "places colonists or takes cash (Colonist)",
    "keep": "chooses goods to keep (storehouse full)",
    "chance": "a card is revealed into the display: enter the card seen",
    "square": "chooses which line's sea colonist enters the square (Aegyptus)",
    "over": "game over",
}


def hidden_position(game: Game) -> dict:
    """The position as `show --json` prints it: the order of the unseen cards is not shown."""
    pos = game.to_json()
    pos["stack_order"] = None
    return pos


def display_prices(game: Game) -> list[tuple[int, str | None, str]]:
    """(position 1..7, card label or None, price for a Senator: card cost + surcharge, 'any' as '?')."""
    R = game.rules
    pos = game.to_json()
    variant = "wine_variant" if pos["options"]["wine_variant"] else "standard"
    surcharge = R.surcharge[variant]
    by_label = {m.label: m for m in R.market}
    out = []
    for i, label in enumerate(pos["display"]):
        if label is None:
            out.append((i + 1, None, ""))
            continue
        card = by_label[label]
        goods = [g for j, g in enumerate(R.goods) for _ in range(card.cost[j])]
        extra = ["?" if g == "any" else g for g in surcharge[i]]
        out.append((i + 1, label, " + ".join(_counted(goods + extra))))
    return out


def _counted(items: list[str]) -> list[str]:
    c = Counter(items)
    return [f"{n} {g}" if n > 1 else g for g, n in c.items()]


def _cards(counts: dict[str, int]) -> str:
    return ", ".join(f"{label} x{n}" if n > 1 else label for label, n in counts.items()) or "-"


def _colonists(cols: dict) -> str:
    places: dict[str, Counter] = {}
    for kind in ("land", "sea"):
        for place in cols[kind]:
            places.setdefault(place, Counter())[kind] += 1
    parts = []
    for place, c in sorted(places.items(), key=lambda kv: (kv[0] == "storehouse", kv[0])):
        what = " + ".join(f"{n} {k}" for k, n in c.items())
        parts.append(f"{place} ({what})")
    return "; ".join(parts)


def status_line(game: Game) -> str:
    """Whose turn, who decides now and what: 'turn 3: Ann's turn; Ann decides: play (plays a card ...)'."""
    pos = game.to_json()
    t = pos["turn"]
    if game.is_over:
        return f"{_turn_no(game, t['number'])}: game over"
    decider = game.decider
    who = "chance" if decider == CHANCE else game.names[decider]
    card = f", card {t['card']}" if t["card"] and t["phase"] not in ("play", "chance", "keep") else ""
    return (f"{_turn_no(game, t['number'])}: {t['player']}'s turn; {who} decides now: "
            f"{t['phase']} ({PHASE_TEXT.get(t['phase'], t['phase'])}{card})")


def _turn_no(game: Game, number: int) -> str:
    return f"turn {number + 1} (round {number // game.n_players + 1})"


def next_line(game: Game, game_file: str = "GAME_FILE") -> str:
    """What is decided next, for after `play`/`undo`."""
    if game.is_over:
        best = game.names[game.ranking()[0]]
        return f"game over; {best} wins (concordia score {game_file} for the table)"
    line = "next: " + status_line(game)
    moves = game.legal_moves()
    if game.decider == CHANCE:
        line += "; possible: " + ", ".join(game.text(m) for m in moves)
    elif len(moves) <= 8:
        line += "; legal: " + ", ".join(game.text(m) for m in moves)
    else:
        line += f"; {len(moves)} legal moves (concordia moves {game_file})"
    return line


def show(game: Game, moves_played: int | None = None) -> str:
    """The full screen of `concordia show`."""
    pos = game.to_json()
    R, B = game.rules, game.board
    slots = R.raw.storehouse_slots
    houses_per_player = R.raw.houses_per_player
    scores = game.scores()
    L: list[str] = []
    n = game.n_players
    mode = ("real table: cards revealed into the display are entered as moves" if pos["chance"] == "external"
            else "simulation: cards revealed are drawn by the engine")
    opts = [k.replace("_", " ") for k, v in pos["options"].items() if v]
    L.append(f"{B.source.name.title()}, {n} players ({mode})" + (f"; options: {', '.join(opts)}" if opts else ""))
    L.append(status_line(game) + (f"  [{moves_played} moves recorded]" if moves_played is not None else ""))
    L.append(f"Praefectus Magnus: {pos['praefectus_magnus']}")
    end = pos["end"]
    if end["concordia"] is None:
        L.append(f"Concordia card: not yet taken (it goes to the first player to build their "
                 f"{houses_per_player}th house or to buy the last card of the display)")
    else:
        left = end["final_turns_left"]
        L.append(f"Concordia card: {end['concordia']}" +
                 ("" if game.is_over else f"; final turns left: {left}" +
                  (" (the ending is triggered this turn)" if end["trigger_this_turn"] else "")))
    if "nile_marker" in pos:
        L.append(f"Nile marker: {pos['nile_marker']}")
    L.append("")
    L.append("Players (in seat order)")
    width = max(len(p["name"]) for p in pos["players"])
    for i, p in enumerate(pos["players"]):
        goods = p["goods"]
        in_store = sum(1 for k in ("land", "sea") for x in p["colonists"][k] if x == "storehouse")
        used = sum(goods.values()) + in_store
        marks = []
        if p["name"] == pos["turn"]["player"] and not game.is_over:
            marks.append("to play")
        if p["name"] == pos["praefectus_magnus"]:
            marks.append("Praefectus Magnus")
        if p["name"] == end["concordia"]:
            marks.append("Concordia card")
        mark = f"  <- {', '.join(marks)}" if marks else ""
        coins = f"{p['coins']} coin" + ("" if p["coins"] == 1 else "s")
        L.append(f"  {p['name']:<{width}}  {coins}, {scores[i]['total']} VP so far{mark}")
        pad = " " * (width + 4)
        L.append(f"{pad}goods: " + " ".join(f"{g} {c}" for g, c in goods.items()) +
                 f"  (storehouse {used}/{slots} spaces used)")
        L.append(f"{pad}hand: {_cards(p['hand'])}")
        L.append(f"{pad}discard: {_cards(p['discard'])}; top: {p['top'] or '-'}")
        houses = sorted(p["houses"])
        L.append(f"{pad}houses ({len(houses)} of {houses_per_player}): {', '.join(houses) or '-'}")
        L.append(f"{pad}colonists: {_colonists(p['colonists'])}")
        if p.get("intermediate_vp") is not None:
            L.append(f"{pad}intermediate scoring: {p['intermediate_vp']} VP")
    L.append("")
    L.append("Board: provinces (bonus marker) and cities (good; houses)")
    owners: dict[str, list[str]] = {}
    for p in pos["players"]:
        for h in p["houses"]:
            owners.setdefault(h, []).append(p["name"])
    for v, pname in enumerate(B.provinces):
        prov = pos["provinces"][pname]
        marker = f"{prov['marker']} ({prov['side']} side up)" if prov["marker"] else \
            ("variable bonus" if v == B.variable_province else "no marker")
        L.append(f"  {pname}: {marker}")
        cities = [c for c, cp in enumerate(B.city_province) if cp == v]
        parts = []
        for c in cities:
            name = B.cities[c]
            own = owners.get(name)
            parts.append(f"{name} {pos['cities'].get(name, '?')}" + (f" [{', '.join(own)}]" if own else ""))
        L.append("      " + "; ".join(parts))
    L.append("")
    L.append("Display (price for a Senator = card cost + surcharge for its position; ? = any good)")
    for i, label, price in display_prices(game):
        L.append(f"  {i}. {label or '(empty)':<20} {price}".rstrip())
    unseen = pos["unseen"]
    counts = ", ".join(f"{d}: {len(unseen[d])}" for d in compiled.NUMERALS if d in unseen) or "none"
    L.append(f"Unseen cards per deck: {counts}")
    if pos["chance"] == "external" and unseen:
        L.append("  (" + "; ".join(f"{d}: {', '.join(unseen[d])}" for d in compiled.NUMERALS if d in unseen) + ")")
    if game.is_over:
        L.append("")
        L.append(score_table(game))
    return "\n".join(L)


def score_rows(game: Game) -> list[dict]:
    scores = game.scores()
    return [{"name": game.names[i], **scores[i]} for i in range(game.n_players)]


def score_table(game: Game) -> str:
    """Per player and god, 'if the game ended now', then the ranking."""
    rows = score_rows(game)
    cols = list(SCORE_COLUMNS)
    width = max(6, max(len(r["name"]) for r in rows))
    head = f"{'player':<{width}} " + " ".join(f"{c:>9}" for c in cols)
    L = ["Final score" if game.is_over else "Score if the game ended now", head, "-" * len(head)]
    for r in rows:
        L.append(f"{r['name']:<{width}} " + " ".join(f"{r[c]:>9}" for c in cols))
    L.append("")
    L.append("Ranking (ties: Praefectus Magnus order):")
    for place, seat in enumerate(game.ranking(), 1):
        L.append(f"  {place}. {game.names[seat]} {rows[seat]['total']} VP")
    return "\n".join(L)
