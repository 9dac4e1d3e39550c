"""Tracking a game at the table: new, show, moves, play, undo, score."""
from __future__ import annotations

import os
import re
import secrets

import click

from .. import compiled, core, limits, render
from ..content import BOARD_NAMES
from ..game import Game, GameError
from ..gamefile import GameFile, GameFileError
from .app import UserError, main
from .common import (GAME_FILE, Bounded, _board_name, _echo_json, _load, _parse_cities, _parse_names, _resolve_item,
                     _split_list)

@main.command()
@GAME_FILE
@click.option("--map", "board", default="imperium", show_default=True, metavar="MAP",
              help=f"The board: {', '.join(BOARD_NAMES)}.")
@click.option("--players", type=click.IntRange(2, core.MAX_PLAYERS), default=None,
              help="Number of players, 2 to 5 (default: the number of --names, else 4).")
@click.option("--seed", type=Bounded(limits.SEED), default=None,
              help="Seed of a simulated game (same seed, same game); default: a random seed, printed.")
@click.option("--names", metavar="A,B,..", help="Player names in seat order, first player first (default P1..PN).")
@click.option("--cities", multiple=True, metavar="CITY=GOOD,..",
              help="Real table: every city's good (repeatable; '@FILE' reads the list from FILE).")
@click.option("--display", metavar="CARD,..", help="Real table: the 7 display cards left to right, e.g. Architect/I.")
@click.option("--wine-variant", is_flag=True, help="Use the wine surcharge variant of the display.")
@click.option("--intermediate-scoring", is_flag=True, help="Use the intermediate scoring variant.")
@click.option("--force", is_flag=True, help="Replace GAME_FILE if it exists.")
def new(game_file, board, players, seed, names, cities, display, wine_variant, intermediate_scoring, force):
    """Start tracking a game in GAME_FILE: a simulated one from --seed, or a real table's layout.

    A simulation draws the city goods, the display and the order of the stack from the seed (the
    engine knows the stack order; `show` never shows it). For a real table give both --cities and
    --display; cards turned up later are entered as moves (`concordia play GAME reveal Mason/I`).

    \b
    Examples:
      concordia new game.json --map italia --players 4 --seed 7
      concordia new table.json --players 3 --names Ann,Bob,Cid \\
          --cities "Isca Dumnoniorum=tool,Londinium=food,..." \\
          --display Architect/I,Prefect/I,Mercator/I,Colonist/I,Diplomat/I,Mason/I,Farmer/I
    """
    board = _board_name(board)
    name_list, players = _parse_names(names, players)
    if not force and os.path.lexists(game_file):
        raise UserError(f"{game_file} already exists; choose another name or pass --force to replace it")
    real = bool(cities) or display is not None
    try:
        if real:
            if not cities or display is None:
                raise UserError("a real table needs both --cities (every city's good) and --display "
                                f"(the 7 display cards); {'--display' if cities else '--cities'} is missing")
            if seed is not None:
                raise UserError("--seed is for a simulated game; a real table (--cities/--display) has no seed")
            b = compiled.board(board)
            city_goods = _parse_cities(cities, b, compiled.rules().goods)
            market = [m.label for m in compiled.rules().market]
            cards = [_resolve_item(c, market, "market card", "--display") for c in _split_list([display], "--display")]
            game = Game.from_table(board, players, city_goods, cards, name_list, wine_variant, intermediate_scoring)
            late = [c for c in game.to_json()["display"] if not c.endswith("/I")]
            if late:
                raise UserError(f"--display: at the start the display holds deck I cards only; {late[0]} is not "
                                "from deck I")
            origin = "real table"
        else:
            if seed is None:
                seed = secrets.randbelow(2 ** 31)
            game = Game.new(board, players, seed, name_list, wine_variant, intermediate_scoring)
            origin = f"simulation, seed {seed}"
    except GameError as e:
        raise UserError(f"--{e}" if re.match(r"(cities|display|names|players)\b", str(e)) else str(e)) from None
    gf = GameFile.create(game_file, game)
    gf.save(overwrite=force)
    click.echo(f"created {game_file}: {game.board.source.name.title()}, {game.n_players} players "
               f"({', '.join(game.names)}), {origin}")
    lo, hi = game.board.source.recommended_players
    if not lo <= game.n_players <= hi:
        # allowed, but the rule book recommends another board for this many players
        click.echo(f"note: the rules recommend {game.board.source.name.title()} for {lo} to {hi} players",
                   err=True)
    click.echo(render.next_line(game, game_file))


@main.command()
@GAME_FILE
@click.option("--json", "as_json", is_flag=True, help="Print the position as JSON (the stack order hidden).")
def show(game_file, as_json):
    """Show the game: board, players, display with prices, whose turn and who decides now.

    \b
    Examples:
      concordia show game.json
      concordia show game.json --json
    """
    gf = _load(game_file)
    if as_json:
        _echo_json(render.hidden_position(gf.game))
    else:
        click.echo(render.show(gf.game, len(gf.moves)))


@main.command()
@GAME_FILE
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list.")
def moves(game_file, as_json):
    """List the legal moves now, in notation, one per line (nothing when the game is over).

    \b
    Examples:
      concordia moves game.json
      concordia moves game.json --json
    """
    g = _load(game_file).game
    texts = [g.text(m) for m in g.legal_moves()]
    if as_json:
        _echo_json(texts)
    elif texts:
        click.echo("\n".join(texts))


@main.command()
@GAME_FILE
@click.argument("move", nargs=-1, required=True)
def play(game_file, move):
    """Apply one or more MOVEs in order, all or nothing.

    Quote each move that has spaces, or separate several moves in one argument with ';'.
    Words may be shortened to any unique prefix ("pl arch"). A card turned up from the stack at a
    real table is entered as `reveal CARD/DECK`. If a move is illegal, unknown or ambiguous, nothing
    is recorded and the error names the legal moves.

    \b
    Examples:
      concordia play game.json "play Architect"
      concordia play game.json "move land Roma > Novaria-Roma" "build Novaria" done
      concordia play game.json "play Senator; buy Mason/I; done"
      concordia play table.json "reveal Weaver/II"
    """
    texts = [part.strip() for m in move for part in m.split(";") if part.strip()]
    if not texts:
        raise UserError("no move given; e.g. concordia play GAME_FILE 'play Architect'")
    gf = _load(game_file)
    try:
        applied = gf.apply(texts)
    except GameFileError as e:
        if len(move) > 1 and all(" " not in m for m in move) and texts[0].lower() in (
                "play", "copy", "colonist", "move", "build", "produce", "keep", "sell", "buy", "place", "reveal"):
            raise UserError(f"{e} (quote each move: concordia play {game_file} \"{' '.join(move[:2])}\")") from None
        raise
    gf.save()
    for text in applied:
        click.echo(f"played: {text}")
    click.echo(render.next_line(gf.game, game_file))


@main.command()
@GAME_FILE
@click.option("--steps", type=Bounded(limits.UNDO_STEPS), default=1, show_default=True, metavar="K",
              help="How many moves (sub-decisions, reveals included) to take back.")
def undo(game_file, steps):
    """Take back the last K moves (replayed from the start; the file keeps the rest).

    \b
    Examples:
      concordia undo game.json
      concordia undo game.json --steps 3
    """
    gf = _load(game_file)
    dropped = gf.undo(steps)
    gf.save()
    for text in reversed(dropped):
        click.echo(f"undone: {text}")
    click.echo(render.next_line(gf.game, game_file))


@main.command()
@GAME_FILE
@click.option("--json", "as_json", is_flag=True, help="Print the scores and ranking as JSON.")
def score(game_file, as_json):
    """Score per player and god as if the game ended now (the final score once it is over), and the ranking.

    \b
    Examples:
      concordia score game.json
      concordia score game.json --json
    """
    g = _load(game_file).game
    if as_json:
        rows = render.score_rows(g)
        _echo_json({"final": g.is_over, "columns": list(rows[0].keys())[1:], "players": rows,
                    "ranking": [g.names[s] for s in g.ranking()]})
    else:
        click.echo(render.score_table(g))

