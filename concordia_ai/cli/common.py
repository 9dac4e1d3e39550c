"""Helpers shared by the commands: game and position files, list options, player names and map names."""
from __future__ import annotations

import json
import os

import click

from ..engine import layout, vocabulary, limits
from ..io import safe_read
from ..engine.content import BOARD_NAMES
from ..engine.game import Game
from ..table.game_file import FORMAT as GAME_FORMAT
from ..table.game_file import GameFile
from ..engine.position import FORMAT as POSITION_FORMAT
from ..engine.position import PositionError
from ..engine.notation import NotationError, resolve
from ..engine.words import did_you_mean
from .app import UserError

GAME_FILE = click.argument("game_file", metavar="GAME_FILE")
# commands that only read a game accept a position file too (docs/position-format.md)
GAME_OR_POSITION = click.argument("game_file", metavar="FILE")


def _load(path: str) -> GameFile:
    """A game file for the commands that record or replay moves; a position file is refused with the
    command that starts tracking from it."""
    if _file_format(path) == POSITION_FORMAT:
        raise UserError(f"{path} is a position file, not a game file: it has no moves to play, undo or list; "
                        f"start tracking from it with: concordia new GAME_FILE --position {path}")
    return GameFile.load(path)


def load_any(path: str) -> tuple[Game, GameFile | None]:
    """The game in a game file or a position file: (game, its GameFile) or (game, None) for a position.

    One loader for every command that only reads a game (show, moves, score, hint), so each of them takes
    both kinds of file with the same checks and the same error messages."""
    fmt = _file_format(path)
    if fmt == POSITION_FORMAT:
        return load_position(path), None
    if isinstance(fmt, str) and fmt != GAME_FORMAT:
        raise UserError(f"{path}: $.format is {fmt!r}; expected {GAME_FORMAT!r} (a game file) or "
                        f"{POSITION_FORMAT!r} (a position file)")
    gf = GameFile.load(path)   # also reports a missing, unreadable or malformed file
    return gf.game, gf


def load_position(path: str, strict: bool = False) -> Game:
    """A position file as a Game; a bad field is named by file and JSON path."""
    data = _read_json(path, "position file")
    try:
        return Game.from_json(data, strict=strict)
    except PositionError as e:
        raise UserError(f"{path}: {e.path}: {e.message} (concordia position check {path} lists every problem)") \
            from None


def _read_json(path: str, what: str):
    if not os.path.lexists(path):
        raise UserError(f"{what} {path} not found")
    if os.path.isdir(path):
        raise UserError(f"{path} is a folder, not a {what}")
    try:
        return safe_read.read_json(path)     # regular files only, size, UTF-8 and nesting checked first
    except safe_read.UserFileError as e:
        raise UserError(f"{what} {e}" if str(e).startswith(path) else str(e)) from None


def _file_format(path: str) -> str | None:
    """The "format" field of a JSON file, or None when it cannot be told (the real loader reports why)."""
    try:
        data = safe_read.read_json(path)
    except safe_read.UserFileError:
        return None
    return data.get("format") if isinstance(data, dict) else None


def _echo_json(data) -> None:
    click.echo(json.dumps(data, indent=2))


class ListItem(str):
    """One item of a list option; `source` is None when the user typed it, else 'FILE line N'."""
    source: str | None = None


def _item(text: str, source: str | None) -> ListItem:
    item = ListItem(text)
    item.source = source
    return item


def quoted(item: str) -> str:
    """How a message names an item: the user's own token, or only where it came from (a file's
    content is never echoed: `--cities @/etc/passwd` must not print a line of it)."""
    source = getattr(item, "source", None)
    return repr(str(item)) if source is None else f"the item on {source}"


def _split_list(values, option: str) -> list[ListItem]:
    """Comma (or newline) separated items from one or more option values; '@FILE' reads FILE."""
    items = []
    for value in values:
        if value.startswith("@"):
            path = value[1:]
            try:
                text = safe_read.read_text(path)
            except safe_read.UserFileError as e:
                raise UserError(f"{option}: {e}") from None
            for n, line in enumerate(text.splitlines(), 1):
                items += [_item(x.strip(), f"{path} line {n}") for x in _uncommented(line).split(",") if x.strip()]
            continue
        items += [_item(x.strip(), None) for line in value.split("\n") for x in _uncommented(line).split(",")
                  if x.strip()]
    return items


def _uncommented(line: str) -> str:
    """A line without its '#' comment (which may hold commas: '# Venetia, Transpadana')."""
    return line.split("#", 1)[0]


def _resolve_item(item: ListItem, options: list[str], what: str, option: str) -> str:
    """`resolve` for a list item; for an item read from a file, a message that does not quote it."""
    try:
        return resolve(item, options, what)
    except NotationError as e:
        close = did_you_mean(item, options)
        if getattr(item, "source", None) is None:
            raise UserError(f"{option}: {e}" if not close else
                            f"{option}: {str(item)!r} is no {what}; did you mean {' or '.join(close)}?") from None
        if close:     # quoted only when it is close to a name of the board: a misspelling, not a line of a secret
            raise UserError(f"{option}: {str(item)!r} on {item.source} is no {what}; did you mean "
                            f"{' or '.join(close)}?") from None
        raise UserError(f"{option}: {quoted(item)} is no {what} (or is ambiguous); valid: {', '.join(options)}") \
            from None


def _parse_cities(values, board: vocabulary.CompiledBoard, goods) -> dict[str, str]:
    """--cities CITY=GOOD,...: every city of the board with its good, checked against the city tokens."""
    cities = [c for c, letter in zip(board.cities, board.city_letter) if letter >= 0]
    out: dict[str, str] = {}
    for item in _split_list(values, "--cities"):
        if item.count("=") != 1:
            raise UserError(f"--cities: {quoted(item)} is not CITY=GOOD (e.g. {cities[0]}={goods[0]})")
        name, good = (_item(x.strip(), item.source) for x in item.split("="))
        city = _resolve_item(name, cities, f"city of {board.source.name.title()}", "--cities")
        good = _resolve_item(good, list(goods), "good", "--cities")
        if city in out and out[city] != good:
            raise UserError(f"--cities: {_city_label(board, city)} is given twice ({out[city]} and {good})")
        out[city] = good
    try:        # every city once, each letter's goods its tokens: the check Game.from_table (and the page) makes
        return layout.cities(board, out)
    except layout.LayoutError as e:
        raise UserError(f"--{e}") from None


def _city_label(board: vocabulary.CompiledBoard, city: str) -> str:
    return layout.city_label(board, city)


def _parse_names(names: str | None, players: int | None) -> tuple[list[str] | None, int]:
    if names is None:
        return None, players or 4
    try:        # the check of Game.from_table and of the board's start page (engine/layout.py)
        return layout.names(names.split(","), players, typed=names)
    except layout.LayoutError as e:
        raise UserError(f"--{e}") from None


def _board_name(name: str) -> str:
    key = name.strip().lower()
    if key not in BOARD_NAMES:
        raise UserError(f"--map: unknown map {name!r}; valid: {', '.join(BOARD_NAMES)}")
    return key



class Bounded(click.ParamType):
    """A click option type for a number inside a `limits.Bound` (refuses inf, NaN and 30-digit budgets)."""

    def __init__(self, bound: limits.Bound):
        self.bound = bound
        self.name = "integer" if bound.integer else "number"

    def convert(self, value, param, ctx):
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            text = value
        else:
            text = str(value)
        try:
            return self.bound.check(text)
        except limits.LimitError as e:
            self.fail(str(e), param, ctx)
