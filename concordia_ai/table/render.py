"""Text screens for the CLI: a position a person can check against the table, and score tables.

Everything here reads a Game and returns strings; nothing prints or changes the game.
"""
from __future__ import annotations

from collections import Counter

from ..engine import vocabulary
from ..engine.vocabulary import ActionType
from ..engine.game import CHANCE, SCORE_COLUMNS, Game

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
    "chance": "the card turned up into the display",
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


def bought_names(game: Game, labels) -> list[str]:
    """For each card kind among `labels` that the display sells under other names (Mercator/5 is bought as
    Mercator/I, Mercator/II, ...), a line linking the two: a hand and a discard pile hold kinds, named as
    `play` takes them, and a bought card's deck is not kept, so the hand cannot show the numeral."""
    R = game.rules
    out = []
    for k, kind in enumerate(R.kinds):
        if kind.label == kind.name or kind.label not in labels:
            continue
        sold = [m.label for m in R.market if m.kind == k]
        if not sold:
            continue
        what = f"pays {kind.coins} coins" if kind.label.endswith(f"/{kind.coins}") else f"god {kind.god}"
        names = ", ".join(sold[:-1]) + " or " + sold[-1] if len(sold) > 1 else sold[0]
        out.append(f"{kind.label} ({what}) is the card bought as {names}")
    return out


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
    if decider == CHANCE:     # nobody decides: a card is turned up from the stack
        return f"{_turn_no(game, t['number'])}: {t['player']}'s turn; now a card is turned up into the display (chance)"
    card = f", card {t['card']}" if t["card"] and t["phase"] not in ("play", "chance", "keep") else ""
    return (f"{_turn_no(game, t['number'])}: {t['player']}'s turn; {game.names[decider]} decides now: "
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
    held = {label for p in pos["players"] for pile in (p["hand"], p["discard"]) for label in pile}
    notes = bought_names(game, held)
    if notes:
        L.append("  Hands and discard piles name a card by its kind, as `play` takes it; a bought card's deck "
                 "is not kept:")
        L += [f"    {line}" for line in notes]
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
    counts = ", ".join(f"{d}: {len(unseen[d])}" for d in vocabulary.NUMERALS if d in unseen) or "none"
    L.append(f"Unseen cards per deck: {counts}")
    if pos["chance"] == "external" and unseen:
        L.append("  (" + "; ".join(f"{d}: {', '.join(unseen[d])}" for d in vocabulary.NUMERALS if d in unseen) + ")")
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


def turn_label(n_players: int, number: int) -> str:
    """'turn 4 (round 2)' for the turn after `number` completed turns."""
    return f"turn {number + 1} (round {number // n_players + 1})"


def log_table(game: Game, turns: list, total_moves: int, start_number: int, player: str | None = None) -> str:
    """The history of `concordia log`: one line per turn (history.Turn), its moves numbered as in the file;
    `start_number` is the turn number of the file's initial position."""
    since = turn_label(game.n_players, start_number)
    if turns and turns[0].begun_before:
        since = f"a position inside {since}"
    who = f"; {len(turns)} turn{'s' if len(turns) != 1 else ''} of {player}" if player else ""
    L = [f"{game.board.source.name.title()}, {game.n_players} players: {total_moves} move"
         f"{'s' if total_moves != 1 else ''} since {since}{who}"]
    if not turns:
        L.append("(no turns recorded)" if not player else f"(no turns of {player} recorded)")
        return "\n".join(L)
    rows = []
    for t in turns:
        first, last = t.steps[0].index + 1, t.steps[-1].index + 1
        # the card's own play is the card column
        steps = [s for s in t.steps if not (s.index == first - 1 and t.card and s.type == ActionType.PLAY)]
        texts = [f"[{s.text}]" if s.reveal else (f"{s.decider}: {s.text}" if s.decider != t.player else s.text)
                 for s in steps]
        notes = (["(begun before the starting position)"] if t.begun_before else []) + \
            (["(in progress)"] if not t.complete else [])
        rows.append((f"{first}-{last}" if last > first else f"{first}", str(t.number + 1), str(t.round), t.player,
                     t.card or "-", " ".join(filter(None, ["; ".join(texts)] + notes))))
    head = ("moves", "turn", "round", "player", "card", "steps")
    widths = [max(len(r[i]) for r in rows + [head]) for i in range(5)]
    fmt = lambda r: "  ".join(  # noqa: E731
        [r[0].ljust(widths[0]), r[1].rjust(widths[1]), r[2].rjust(widths[2]), r[3].ljust(widths[3]),
         r[4].ljust(widths[4]), r[5]]).rstrip()
    L.append(fmt(head))
    L += [fmt(r) for r in rows]
    if any(s.reveal for t in turns for s in t.steps):
        L.append("[reveal ...]: a card turned up from the stack into the display")
    if any(s.decider not in (t.player, "chance") for t in turns for s in t.steps):
        L.append("NAME: ...: a choice made by another player than the one whose turn it is (storehouse full)")
    return "\n".join(L)


def board_text(info: dict) -> str:
    """`concordia board`: the cities by province with letter and neighbours, squares and city tokens
    (`info` from board_info.board_info)."""
    cap = info["route_capacity"]

    def holds(kind):
        c = cap[kind]
        return {None: "any number of colonists", "varies": "a number of colonists shown per route"}.get(
            c, f"{c} colonist" + ("s" if c != 1 else ""))

    def names(entries, kind):
        out = []
        for e in entries:
            extra = [e["line"].replace("_", " ").title()] if "line" in e else []
            if cap[kind] == "varies":
                extra.append(f"holds {e['capacity'] or 'any number'}")
            out.append(e["city"] + (f" ({', '.join(extra)})" if extra else ""))
        return ", ".join(out) or "-"

    cities = info["cities"]
    L = [f"{info['title']}: {len(cities)} cities in {len(info['provinces'])} provinces; start city "
         f"{info['start_city']['name']}; {info['recommended_players'][0]} to {info['recommended_players'][1]} "
         f"players recommended",
         f"Routes: each land route holds {holds('land')}, each sea route {holds('sea')}"]
    if info["cash_bonus_extra"]:
        L.append(f"Cash bonus: {info['cash_bonus_extra']} sestertii more than the markers show")
    if info["nile_flood"]:
        L.append(f"Nile flood (the food marker moves downstream): {' > '.join(info['nile_flood'])}")
    L += ["", "Cities by province: name (letter)   neighbours by land | by sea"]
    width = max(len(c["name"]) + 4 for c in cities + [info["start_city"]])
    by_name = {c["name"]: c for c in cities}
    for prov in info["provinces"]:
        L.append(prov["name"] + (" (variable bonus: the producer chooses the good)" if prov["variable_bonus"] else ""))
        for name in prov["cities"]:
            c = by_name[name]
            label = f"{name} ({c['letter']})"
            L.append(f"  {label:<{width}}  land: {names(c['land'], 'land')} | sea: {names(c['sea'], 'sea')}")
    s = info["start_city"]
    L.append("Start city (no city token, no houses)")
    L.append(f"  {s['name']:<{width}}  land: {names(s['land'], 'land')} | sea: {names(s['sea'], 'sea')}")
    if info["special_squares"]:
        L += ["", "Special squares (not cities: no house, no passing through)"]
        for sq in info["special_squares"]:
            text = f"  {sq['name']}: reached by sea from {', '.join(sq['sea'])}; {sq['vp']} VP at the end"
            if sq.get("coins"):
                text += (f"; {sq['coins']} sestertii to each player with a colonist here whenever anyone produces "
                         f"in {', '.join(sq['coins_when_producing_in'])}")
            L.append(text)
    L += ["", "City tokens per letter (one token per city of that letter; `new --cities` is checked against them)"]
    for letter, entry in info["city_tokens"].items():
        tokens = ", ".join(f"{n} {g}" for g, n in entry["tokens"].items() if n)
        L.append(f"  {letter}: {tokens}  ({len(entry['cities'])} cities: {', '.join(entry['cities'])})")
    return "\n".join(L)


# ---------------------------------------------------------------- whole-turn hints

def turn_table(turns: list[dict]) -> list[str]:
    """The ranked whole turns of a hint (dicts of analyze.turn_dicts), one line each plus the moves."""
    head = f"{'#':>2}  {'win %':>12}  {'VP':>5}  {'margin':>6}  {'loss: win %':>11}  {'VP':>5}  {'visits':>7}  turn"
    L = [head]
    for i, t in enumerate(turns, 1):
        loss = (f"{'-':>11}  {'-':>5}" if i == 1 else
                f"{_fixed(100 * t['lossWinrate']):>11}  {_fixed(t['lossVp']):>5}")
        flag = "  (partly greedy)" if t["partial"] else ""
        win = f"{100 * t['winrate']:.1f} ± {100 * t['winrateSe']:.1f}"
        L.append(f"{i:>2}  {win:>12}  {t['vp']:>5.1f}  "
                 f"{t['scoreLead']:>+6.1f}  {loss}  {t['visits']:>7}  {'; '.join(t['moves'])}{flag}")
    return L


def _fixed(x: float) -> str:
    """One decimal, never '-0.0'."""
    text = f"{x:.1f}"
    return "0.0" if text == "-0.0" else text


def effect_line(effect: dict) -> str:
    """'coins 5 -> 2 (-3); cloth +1; houses 0 -> 2 (+2); VP now 7 -> 9 (+2)' from turns.turn_effect."""
    parts = []
    for key, label in (("coins", "coins"), ("houses", "houses"), ("vp_now", "VP now")):
        b, a = effect[key]["before"], effect[key]["after"]
        parts.append(f"{label} {b} -> {a} ({a - b:+d})" if a != b else f"{label} {b} (unchanged)")
    goods = [(k.split(".", 1)[1], v["after"] - v["before"]) for k, v in effect.items() if k.startswith("goods.")]
    changed = [f"{g} {d:+d}" for g, d in goods if d]
    parts.insert(1, "goods " + (", ".join(changed) if changed else "unchanged"))
    return "; ".join(parts)


def line_after_lines(segments: list[dict]) -> list[str]:
    """A principal variation after a turn, one line per turn and player (turns.line_after)."""
    return [f"  turn {s['turn']}, {s['who']}: {'; '.join(s['moves'])}" for s in segments]
