"""Helpers shared by the commands: game files, list options, player names and map names."""
from __future__ import annotations

import json
import re
from collections import Counter

import click

from .. import compiled, core
from ..content import BOARD_NAMES
from ..gamefile import GameFile
from ..notation import NotationError, resolve
from .app import UserError

GAME_FILE = click.argument("game_file", metavar="GAME_FILE")


def _load(path: str) -> GameFile:
    return GameFile.load(path)


def _echo_json(data) -> None:
    click.echo(json.dumps(data, indent=2))


def _split_list(values, option: str) -> list[str]:
    """Comma (or newline) separated items from one or more option values; '@FILE' reads FILE."""
    items = []
    for value in values:
        if value.startswith("@"):
            try:
                with open(value[1:], encoding="utf-8") as f:
                    value = f.read()
            except OSError as e:
                raise UserError(f"{option}: cannot read {value[1:]}: {e.strerror or e}") from None
        items += [x.strip() for x in re.split(r"[,\n]", value) if x.strip() and not x.strip().startswith("#")]
    return items


def _parse_cities(values, board: compiled.CompiledBoard, goods) -> dict[str, str]:
    """--cities CITY=GOOD,...: every city of the board with its good, checked against the city tokens."""
    cities = [c for c, letter in zip(board.cities, board.city_letter) if letter >= 0]
    out: dict[str, str] = {}
    for item in _split_list(values, "--cities"):
        if item.count("=") != 1:
            raise UserError(f"--cities: {item!r} is not CITY=GOOD (e.g. {cities[0]}={goods[0]})")
        name, good = (x.strip() for x in item.split("="))
        try:
            city = resolve(name, cities, f"city of {board.source.name.title()}")
            good = resolve(good, list(goods), "good")
        except NotationError as e:
            raise UserError(f"--cities: {e}") from None
        if city in out and out[city] != good:
            raise UserError(f"--cities: {city} is given twice ({out[city]} and {good})")
        out[city] = good
    missing = [c for c in cities if c not in out]
    if missing:
        raise UserError(f"--cities: no good given for {len(missing)} of {len(cities)} cities: {', '.join(missing)}")
    # the city tokens of each letter are a fixed set: a typo shows as a count that does not match
    tokens = compiled.rules().raw.city_tokens
    for li, letter in enumerate(compiled.LETTERS):
        have = Counter(out[c] for c, l in zip(board.cities, board.city_letter) if l == li)
        if not have:
            continue
        want = Counter({g: n for g, n in tokens.get(letter, {}).items() if n})
        if have != want:
            fmt = lambda c: ", ".join(f"{c[g]} {g}" for g in goods if c[g]) or "none"  # noqa: E731
            raise UserError(f"--cities: the {letter} cities have {fmt(have)} but the {letter} tokens are "
                            f"{fmt(want)}; check the goods of the {letter} cities")
    return out


def _parse_names(names: str | None, players: int | None) -> tuple[list[str] | None, int]:
    if names is None:
        return None, players or 4
    lst = [x.strip() for x in names.split(",")]
    if players is not None and len(lst) != players:
        raise UserError(f"--names: {len(lst)} names given for {players} players (give one name per player, "
                        f"comma-separated, in seat order)")
    if not 2 <= len(lst) <= core.MAX_PLAYERS:
        raise UserError(f"--names: {len(lst)} names; a game has 2 to {core.MAX_PLAYERS} players")
    if not all(lst):
        raise UserError(f"--names: an empty name in {names!r}; give names like Ann,Bob,Cid")
    dup = [n for n, c in Counter(x.lower() for x in lst).items() if c > 1]
    if dup:
        raise UserError(f"--names: {dup[0]!r} is used twice; names must be distinct")
    if any(x.lower() in ("chance", "nobody") for x in lst):
        raise UserError("--names: 'chance' and 'nobody' are reserved; choose other names")
    return lst, len(lst)


def _board_name(name: str) -> str:
    key = name.strip().lower()
    if key not in BOARD_NAMES:
        raise UserError(f"--map: unknown map {name!r}; valid: {', '.join(BOARD_NAMES)}")
    return key

