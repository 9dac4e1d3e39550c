"""Looking things up at the table: board (a map's cities, routes and tokens) and log (a game's history)."""
from __future__ import annotations

import click

from ..engine import vocabulary
from ..table import history, render
from ..engine.content import BOARD_NAMES
from ..engine.game import Game
from ..engine.notation import NotationError, resolve
from .app import UserError, main
from .common import GAME_FILE, _echo_json, _load


@main.command()
@click.argument("map_name", metavar="MAP")
@click.option("--json", "as_json", is_flag=True, help="Print the board as JSON.")
def board(map_name, as_json):
    """List a board: every city with its letter, province and neighbours by land and by sea, the
    special squares, and the city tokens per letter (what `new --cities` is checked against).

    \b
    Examples:
      concordia board italia
      concordia board aegyptus --json
    """
    from ..table.board_info import board_info

    key = map_name.strip().lower()
    if key not in BOARD_NAMES:
        raise UserError(f"unknown map {map_name!r}; valid: {', '.join(BOARD_NAMES)}")
    info = board_info(vocabulary.board(key))
    if as_json:
        _echo_json(info)
    else:
        click.echo(render.board_text(info))


@main.command()
@GAME_FILE
@click.option("--player", metavar="NAME", default=None, help="Only the turns of this player.")
@click.option("--json", "as_json", is_flag=True, help="Print the turns as JSON.")
def log(game_file, player, as_json):
    """The history of a game file by turn: the turn, the player, the card played and every step.

    The moves are numbered as in the file, so `concordia undo GAME_FILE --steps K` can take back
    the last K of them; `undo --turn` takes back a whole turn. A game started from a position
    (`new --position`) begins there.

    \b
    Examples:
      concordia log game.json
      concordia log game.json --player Ann
      concordia log game.json --json
    """
    gf = _load(game_file)
    initial = Game.from_json(gf.initial)
    turns = history.turns(initial, gf.moves)
    if player is not None:
        try:
            player = resolve(player, gf.game.names, "player")
        except NotationError as e:
            raise UserError(f"--player: {e}") from None
        turns = [t for t in turns if t.player == player]
    start = initial.state.turns
    if as_json:
        _echo_json({"file": game_file, "players": gf.game.names, "moves": len(gf.moves),
                    "start": {"turn": start + 1, "round": start // initial.n_players + 1,
                              "phase": initial.phase},
                    "turns": [history.turn_json(t) for t in turns]})
        return
    click.echo(render.log_table(gf.game, turns, len(gf.moves), start, player))


