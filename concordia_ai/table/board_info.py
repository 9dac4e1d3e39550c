"""A board as a reference for the table: cities with letter, province and neighbours, special squares and
the city tokens per letter, as plain data (what `concordia board` prints, and its --json)."""
from __future__ import annotations

from ..engine import vocabulary


def board_info(board: vocabulary.CompiledBoard) -> dict:
    src = board.source
    special = src.special or {}
    line_kind = {frozenset(pair): kind for kind, pairs in special.get("sea_route_kinds", {}).items()
                 for pair in pairs}
    neighbours: dict[int, dict[str, list[dict]]] = {c: {"land": [], "sea": []} for c in range(len(board.cities))}
    for a, b, sea, cap in board.routes:
        kind = "sea" if sea else "land"
        for here, there in ((a, b), (b, a)):
            entry = {"city": board.cities[there], "capacity": cap or None}
            line = line_kind.get(frozenset((board.cities[a], board.cities[b])))
            if sea and line:
                entry["line"] = line
            neighbours[here][kind].append(entry)
    for lists in neighbours.values():
        for entries in lists.values():
            entries.sort(key=lambda e: e["city"])

    def place(c: int) -> dict:
        return {"name": board.cities[c], **neighbours[c]}

    tokens = vocabulary.rules().raw.city_tokens
    goods = vocabulary.rules().goods
    letters = {}
    for letter in src.letters_used:
        li = vocabulary.LETTERS.index(letter)
        letters[letter] = {"tokens": {g: tokens[letter].get(g, 0) for g in goods},
                           "cities": [c for c, l in zip(board.cities, board.city_letter) if l == li]}
    variable = board.provinces[board.variable_province] if board.variable_province >= 0 else None
    squares = []
    for c in board.squares:
        name = board.cities[c]
        sq = {"name": name, "sea": [e["city"] for e in neighbours[c]["sea"]],
              "vp": int(special.get("special_square_vp", 0))}
        frank = special.get("frankincense", {})
        if name == "FRANKINCENSE" and frank:
            sq["coins"] = int(frank.get("coins", 0))
            sq["coins_when_producing_in"] = list(frank.get("provinces", []))
        squares.append(sq)
    capacity = {}
    for kind, sea in (("land", 0), ("sea", 1)):
        caps = {cap for _, _, s, cap in board.routes if s == sea}
        capacity[kind] = (caps.pop() or None) if len(caps) == 1 else "varies"
    return {
        "board": board.name,
        "title": src.name.title(),
        "recommended_players": list(src.recommended_players),
        "route_capacity": capacity,
        "provinces": [{"name": p, "cities": [c for c, cp in zip(board.cities, board.city_province) if cp == v],
                       "variable_bonus": p == variable}
                      for v, p in enumerate(board.provinces)],
        "cities": [{**place(c), "letter": vocabulary.LETTERS[board.city_letter[c]],
                    "province": board.provinces[board.city_province[c]]}
                   for c in range(len(board.cities)) if board.city_letter[c] >= 0],
        "start_city": place(board.start_city),
        "special_squares": squares,
        "city_tokens": letters,
        "nile_flood": [board.provinces[v] for v in board.nile],
        "cash_bonus_extra": int(special.get("cash_bonus_extra", 0)),
    }
