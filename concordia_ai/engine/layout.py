"""A real table's start, checked once for every way it comes in: `concordia new --cities/--display/--names`
(cli/track.py) and the board's start page (web/actions.py, POST /api/new), both through `Game.from_table`
and the helpers here, so the page refuses exactly what the CLI refuses, in the same words.

Every refusal is a LayoutError that names its field ("names", "cities", "display") and the items at fault
(the cities or the display places), so the CLI writes "--cities: ..." and the page shows the line beside
the field and marks the items. After these checks the position itself goes through the strict check of
`concordia position check` (position.load, strict) in `Game.from_table`.
"""
from __future__ import annotations

from collections import Counter

from . import limits, notation, vocabulary
from .. import core
from .errors import GameError
from .player_names import name_problem

FIELDS = ("names", "players", "cities", "display")
RESERVED_NAMES = ("chance", "nobody")


class LayoutError(GameError):
    """A refused layout: `field` is the field at fault, `items` the cities (names) or display places (0-based)
    in it, `message` the line without the field's name."""

    def __init__(self, field: str, message: str, items=(), where: str | None = None):
        super().__init__(f"{where or field}: {message}")
        self.field, self.message, self.items = field, message, list(items)


# ------------------------------------------------------------------ names

def names(given: list[str], players: int | None = None, typed: str | None = None) -> tuple[list[str], int]:
    """(names, players) for the player names in seat order; `players` when given must match their number.
    `typed` is how the names were typed (quoted for an empty name), else they are joined with commas."""
    lst = [str(x).strip() for x in given]
    if players is not None and len(lst) != players:
        raise LayoutError("names", f"{len(lst)} names given for {players} players (give one name per player, "
                                   f"comma-separated, in seat order)")
    if not 2 <= len(lst) <= core.MAX_PLAYERS:
        raise LayoutError("names", f"{len(lst)} names; a game has 2 to {core.MAX_PLAYERS} players")
    if not all(lst):
        raise LayoutError("names", f"an empty name in {limits.shown(typed if typed is not None else ','.join(lst))}; "
                                   f"give names like Ann,Bob,Cid")
    for name in lst:
        if name_problem(name):
            raise LayoutError("names", f"{limits.shown(name)} {name_problem(name)}")
    dup = [n for n, c in Counter(x.lower() for x in lst).items() if c > 1]
    if dup:
        raise LayoutError("names", f"{dup[0]!r} is used twice; names must be distinct")
    if any(x.lower() in RESERVED_NAMES for x in lst):
        raise LayoutError("names", "'chance' and 'nobody' are reserved; choose other names")
    return lst, len(lst)


# ------------------------------------------------------------------ the cities' goods

def city_label(board: vocabulary.CompiledBoard, city: str) -> str:
    """'Londinium (B, Britannia)': what a player finds printed on the board."""
    c = board.cities.index(city)
    return f"{city} ({vocabulary.LETTERS[board.city_letter[c]]}, {board.provinces[board.city_province[c]]})"


def token_cities(board: vocabulary.CompiledBoard) -> list[str]:
    """The cities that take a city token (a good), in the board's order."""
    return [c for c, letter in zip(board.cities, board.city_letter) if letter >= 0]


def cities(board: vocabulary.CompiledBoard, given: dict) -> dict[str, str]:
    """Every city's good, checked: each city of the board (names case-insensitive) once with a good, no
    other place, and for each letter exactly the goods of that letter's city tokens (a fixed set: a typo
    shows as a count that does not match). Returns {city: good} in the board's spelling."""
    goods = list(vocabulary.rules().goods)
    if not isinstance(given, dict):
        raise LayoutError("cities", "give every city's good, {city: good}")
    names_ = token_cities(board)
    by_lower = {c.lower(): c for c in board.cities}
    out: dict[str, str] = {}
    for name, good in given.items():
        city = by_lower.get(str(name).strip().lower())
        if city is None or city not in names_:
            what = "takes no city token (no good)" if city else f"is no city of {board.source.name.title()}"
            raise LayoutError("cities", f"{limits.shown(str(name))} {what}", [city] if city else [])
        g = str(good).strip().lower() if isinstance(good, str) else None
        if g not in goods:
            raise LayoutError("cities", f"{limits.shown(good)} for {city} is no good; valid: {', '.join(goods)}",
                              [city])
        if city in out and out[city] != g:
            raise LayoutError("cities", f"{city_label(board, city)} is given twice ({out[city]} and {g})", [city])
        out[city] = g
    missing = [c for c in names_ if c not in out]
    if missing:
        raise LayoutError("cities", f"no good given for {len(missing)} of {len(names_)} cities: "
                                    f"{', '.join(city_label(board, c) for c in missing)}", missing)
    tokens = vocabulary.rules().raw.city_tokens
    for li, letter in enumerate(vocabulary.LETTERS):
        of_letter = [c for c, l in zip(board.cities, board.city_letter) if l == li]
        have = Counter(out[c] for c in of_letter)
        if not have:
            continue
        want = Counter({g: n for g, n in tokens.get(letter, {}).items() if n})
        if have != want:
            fmt = lambda c: ", ".join(f"{c[g]} {g}" for g in goods if c[g]) or "none"  # noqa: E731
            listed = ", ".join(f"{c} ({board.provinces[board.city_province[board.cities.index(c)]]})={out[c]}"
                               for c in of_letter)
            raise LayoutError("cities", f"the {letter} cities have {fmt(have)} but the {letter} tokens are "
                                        f"{fmt(want)}; the {letter} cities were given: {listed} (concordia board "
                                        f"{board.name} lists the cities by letter)", of_letter)
    return out


# ------------------------------------------------------------------ the opening display

def display(players: int, given: list) -> list[str]:
    """The seven opening display cards left to right as labels ("Architect/I"; a name alone is its deck I
    card): known cards, none twice, all from deck I (the display starts with deck I cards only)."""
    rules = vocabulary.rules()
    if not isinstance(given, list) or len(given) != 7:
        found = f" ({len(given)} given)" if isinstance(given, list) else ""
        raise LayoutError("display", f"give the 7 display cards, left to right (e.g. Architect/I){found}",
                          [] if not isinstance(given, list) else range(len(given), 7))
    opening = {m.name: m.label for m in rules.market if m.deck == 0}
    options = [m.label for m in rules.market] + list(opening)
    chosen = []
    for i, card in enumerate(given):
        try:
            label = notation.resolve(card, options, "market card")
        except notation.NotationError as e:
            raise LayoutError("display", str(e), [i], where=f"display[{i}]") from None
        chosen.append(opening.get(label, label))
    twice = [i for i, label in enumerate(chosen) if label in chosen[:i]]
    if twice:
        first = chosen.index(chosen[twice[0]])
        raise LayoutError("display", f"{chosen[twice[0]]} is listed twice (cards {first + 1} and {twice[0] + 1}); "
                                     f"the display holds 7 different cards", [first, twice[0]])
    used = set(vocabulary.NUMERALS[:players])
    for i, label in enumerate(chosen):
        if label.split("/")[1] not in used:
            raise LayoutError("display", f"{label} is not in the decks of a {players}-player game", [i])
    for i, label in enumerate(chosen):
        if not label.endswith("/I"):
            raise LayoutError("display", f"at the start the display holds deck I cards only; {label} is not "
                                         "from deck I", [i])
    return chosen


def field_of(path: str) -> str | None:
    """The layout field a position path ("$.cities.Roma", "display[2]") belongs to, if any."""
    head = path.replace("$.", "").split(".")[0].split("[")[0]
    return head if head in FIELDS else None
