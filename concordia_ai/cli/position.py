"""Position files: `position template` writes one to fill in at the table, `position check` checks it."""
from __future__ import annotations

import json
import os

import click

from .. import core
from ..io import atomic_write
from ..table import position_template, render
from ..engine.game import Game
from .app import UserError, main
from .common import _board_name, _parse_names, _read_json


@main.group("position")
def position_group() -> None:
    """Position files (docs/position-format.md): write a template to fill in, check one.

    A position file holds a whole game state; `show`, `moves`, `score` and `hint` read it like a
    game file, and `concordia new GAME_FILE --position FILE` starts tracking from it.

    \b
    Examples:
      concordia position template --map italia --players 4 --out table.json
      concordia position check table.json
    """


@position_group.command()
@click.option("--map", "board", required=True, metavar="MAP", help="The board: imperium, italia, creta, aegyptus.")
@click.option("--players", type=click.IntRange(2, core.MAX_PLAYERS), default=None,
              help="Number of players, 2 to 5 (default: the number of --names, else 4).")
@click.option("--names", metavar="A,B,..", help="Player names in seat order, first player first (default P1..PN).")
@click.option("--out", "out", metavar="FILE", default=None, help="Write to FILE (default: print it).")
@click.option("--force", is_flag=True, help="Replace FILE if it exists.")
def template(board, players, names, out, force):
    """Write a position with every field, to enter a table as it stands.

    It holds only what can be seen at the table: the opening position of the board (coins,
    goods, colonists and hands of the start, whose turn) with "?" where only the table can tell:
    each city's good, each bonus marker and the 7 display cards. Edit the rest to match the table
    (coins, goods, colonists, houses, hands, discard piles, whose turn), then
    `concordia position check FILE --fill` writes in what follows from the rest (the bonus
    markers from the cities' goods, the unseen cards from the display and the hands) and says
    what is left to fill in or inconsistent.

    \b
    Examples:
      concordia position template --map italia --players 3 --names Ann,Bob,Cid --out table.json
      concordia position template --map imperium --players 4 > table.json
    """
    board = _board_name(board)
    name_list, players = _parse_names(names, players)
    text = json.dumps(position_template.template(board, players, name_list), indent=2) + "\n"
    if out is None:
        click.echo(text, nl=False)
        return
    if os.path.isdir(out):
        raise UserError(f"--out: {out} is a folder; give a file name such as {os.path.join(out, 'table.json')}")
    if os.path.lexists(out) and not force:
        raise UserError(f"--out: {out} already exists; choose another name or pass --force to replace it")
    try:
        atomic_write.write_atomic(out, text)
    except OSError as e:
        raise UserError(f"--out: cannot write {out}: {e.strerror or e}") from None
    click.echo(f"wrote {out}: {board.title()}, {players} players; fill in every \"?\", edit the rest to match the "
               f"table, then: concordia position check {out}")


@position_group.command()
@click.argument("position_file", metavar="FILE")
@click.option("--json", "as_json", is_flag=True, help="Print the problems as a JSON list of {path, message}.")
@click.option("--fill", is_flag=True,
              help="First write into FILE what follows from the rest: each bonus marker left \"?\" from its "
                   "cities' goods, the unseen cards from the display and the hands.")
def check(position_file, as_json, fill):
    """Check a position file strictly and list every problem with its JSON path.

    Reports each "?" left to fill in (and the unseen cards, which follow from the display and
    the hands); once none is left, every inconsistency the strict check finds (cards not
    accounted for, bonus markers that do not match the cities) and the first field that cannot
    be read. With --fill it first writes the fields that follow from the rest into FILE (in one
    step: the file is replaced whole) and says what it wrote. Exit code 0 when the position is
    sound, 2 otherwise.

    \b
    Examples:
      concordia position check table.json
      concordia position check table.json --fill
      concordia position check table.json --json
    """
    data = _read_json(position_file, "position file")
    if fill and isinstance(data, dict):
        filled = position_template.fill(data)
        if filled:
            try:
                atomic_write.write_atomic(position_file, json.dumps(data, indent=2) + "\n", follow_link=True)
            except OSError as e:
                raise UserError(f"--fill: cannot write {position_file}: {e.strerror or e}") from None
            if not as_json:
                for path, value, source in filled:
                    click.echo(f"filled: {path}: {json.dumps(value)} (from {source})")
    found = position_template.problems(data)
    if as_json:
        click.echo(json.dumps([{"path": e.path, "message": e.message} for e in found], indent=2))
    else:
        for e in found:
            click.echo(f"{e.path}: {e.message}")
    if found:
        left = sum(e.message.startswith("to fill in") for e in found)
        what = f"{left} field{'s' if left != 1 else ''} to fill in" if left else \
            f"{len(found)} problem{'s' if len(found) != 1 else ''}"
        raise UserError(f"{position_file}: {what} (listed on stdout)")
    game = Game.from_json(data, strict=True)
    if not as_json:
        click.echo(f"{position_file}: a sound position: {game.board.source.name.title()}, {game.n_players} players; "
                   f"{render.status_line(game)}")
