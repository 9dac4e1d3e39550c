"""Tracking a game at the table: new, show, moves, play, undo, score."""
from __future__ import annotations

import os
import re
import secrets

import click

from ..engine import vocabulary, costs, limits
from .. import core
from ..table import history, played, render
from ..engine.content import BOARD_NAMES
from ..engine.game import CHANCE, Game, GameError
from ..table.game_file import FORMAT as GAME_FORMAT
from ..table.game_file import GameFile, GameFileError, locked
from .app import UserError, main
from .budget import budget_options
from .common import (GAME_FILE, GAME_OR_POSITION, Bounded, _board_name, _echo_json, _load, _parse_cities,
                     _parse_names, _file_format, _resolve_item, _split_list, load_any, load_position)

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
@click.option("--position", "position_file", metavar="POS.json", default=None,
              help="Start from this mid-game position (a position file, or a game file's current position).")
@click.option("--force", is_flag=True, help="Replace GAME_FILE if it exists.")
@click.pass_context
def new(ctx, game_file, board, players, seed, names, cities, display, wine_variant, intermediate_scoring,
        position_file, force):
    """Start tracking a game in GAME_FILE: a simulated one from --seed, a real table's layout, or a
    position.

    A simulation draws the city goods, the display and the order of the stack from the seed (the
    engine knows the stack order; `show` never shows it). For a real table give both --cities and
    --display; cards turned up later are entered as moves (`concordia play GAME reveal Mason/I`).
    With --position the game starts from a position file (`concordia position template` writes
    one to fill in): `undo` cannot go back before it and `log` starts there.

    \b
    Examples:
      concordia new game.json --map italia --players 4 --seed 7
      concordia new table.json --players 3 --names Ann,Bob,Cid \\
          --cities "Isca Dumnoniorum=tool,Londinium=food,..." \\
          --display Architect/I,Prefect/I,Mercator/I,Colonist/I,Diplomat/I,Mason/I,Farmer/I
      concordia new late.json --position table-now.json
    """
    if position_file is not None:
        given = [opt for name, opt in _SET_BY_POSITION.items()
                 if ctx.get_parameter_source(name) == click.core.ParameterSource.COMMANDLINE]
        if given:
            raise UserError(f"--position: the position gives the board, players, layout and options; "
                            f"drop {', '.join(given)}")
        return _new_from_position(game_file, position_file, force)
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
            b = vocabulary.board(board)
            city_goods = _parse_cities(cities, b, vocabulary.rules().goods)
            # the opening display holds deck I cards only, so a card's name alone means its deck I card
            opening = {m.name: m.label for m in vocabulary.rules().market if m.deck == 0}
            market = [m.label for m in vocabulary.rules().market] + list(opening)
            cards = [opening.get(label, label) for label in
                     (_resolve_item(c, market, "market card", "--display") for c in _split_list([display], "--display"))]
            # checked as on the board's start page: engine/layout.py, then the strict position check
            game = Game.from_table(board, players, city_goods, cards, name_list, wine_variant, intermediate_scoring)
            origin = "real table"
        else:
            if seed is None:
                seed = secrets.randbelow(2 ** 31)
            game = Game.new(board, players, seed, name_list, wine_variant, intermediate_scoring)
            origin = f"simulation, seed {seed}"
    except GameError as e:
        raise UserError(f"--{e}" if re.match(r"(cities|display|names|players)\b", str(e)) else str(e)) from None
    gf = GameFile.create(game_file, game)
    with locked(game_file):    # --force: not under a play or undo that is writing this file
        gf.save(overwrite=force)
    click.echo(f"created {game_file}: {game.board.source.name.title()}, {game.n_players} players "
               f"({', '.join(game.names)}), {origin}")
    lo, hi = game.board.source.recommended_players
    if not lo <= game.n_players <= hi:
        # allowed, but the rule book recommends another board for this many players
        click.echo(f"note: the rules recommend {game.board.source.name.title()} for {lo} to {hi} players",
                   err=True)
    click.echo(render.next_line(game, game_file))


# the options of `new` that a position file already answers (parameter name -> option)
_SET_BY_POSITION = {"board": "--map", "players": "--players", "seed": "--seed", "names": "--names",
                    "cities": "--cities", "display": "--display", "wine_variant": "--wine-variant",
                    "intermediate_scoring": "--intermediate-scoring"}


def _new_from_position(game_file: str, position_file: str, force: bool) -> None:
    """`new --position`: a game file whose initial state is the position (checked strictly: every card
    accounted for, as at a real table)."""
    if not force and os.path.lexists(game_file):
        raise UserError(f"{game_file} already exists; choose another name or pass --force to replace it")
    if os.path.abspath(game_file) == os.path.abspath(position_file):
        raise UserError(f"--position: {position_file} is also GAME_FILE; write the game to another file")
    if _file_format(position_file) == GAME_FORMAT:
        game = GameFile.load(position_file).game
    else:
        game = load_position(position_file, strict=True)
    gf = GameFile.create(game_file, game)
    gf.save(overwrite=force)
    click.echo(f"created {game_file}: {game.board.source.name.title()}, {game.n_players} players "
               f"({', '.join(game.names)}), from the position in {position_file} at "
               f"{render.turn_label(game.n_players, game.state.turns)}")
    pos = game.to_json()
    if pos["chance"] == "sample" and pos["stack_order"] is None and pos["unseen"]:
        click.echo('note: the position has "chance": "sample": the engine draws the cards turned up; at a real '
                   'table set "chance": "external" to enter them as reveal moves', err=True)
    click.echo(render.next_line(game, game_file))


@main.command()
@GAME_OR_POSITION
@click.option("--json", "as_json", is_flag=True, help="Print the position as JSON (the stack order hidden).")
def show(game_file, as_json):
    """Show the game: board, players, display with prices, whose turn and who decides now.

    FILE is a game file or a position file (docs/position-format.md).

    \b
    Examples:
      concordia show game.json
      concordia show game.json --json
      concordia show position.json
    """
    game, gf = load_any(game_file)
    if as_json:
        _echo_json(render.hidden_position(game))
    else:
        click.echo(render.show(game, len(gf.moves) if gf else None))


@main.command()
@GAME_FILE
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list.")
def moves(game_file, as_json):
    """List the legal moves now, in notation, one per line (nothing when the game is over).

    Each line shows what the move costs: a house's coins and goods, a card's price with the display
    surcharge, an Architect move's steps (and the steps left above the list), a trade's coins.

    \b
    Examples:
      concordia moves game.json
      concordia moves game.json --json
    """
    g, _ = load_any(game_file)
    pos = g.to_json()
    rows = []
    for m in g.legal_moves():
        row = {"move": g.text(m), **costs.move_cost(g, pos, m)}
        if costs.steps_left(pos) is not None:
            row["steps_left"] = costs.steps_left(pos)
        rows.append(row)
    if as_json:
        _echo_json(rows)
        return
    if not rows:
        return
    if costs.steps_left(pos) is not None:
        click.echo(f"steps left: {costs.steps_left(pos)}")
    width = max(len(r["move"]) for r in rows)
    for r in rows:
        cost = costs.cost_text(r)
        click.echo(f"{r['move']:<{width}}  ({cost})" if cost else r["move"])


@main.command()
@GAME_FILE
@click.argument("move", nargs=-1)
@click.option("--suggested", type=click.IntRange(1), is_flag=False, flag_value=1, default=None, metavar="[N]",
              help="Play candidate N (default 1) of the whole-turn hint for the player to move, and only that "
                   "turn: the hint just shown when it was for this position with the same budget and seed "
                   "(GAME.hint.json), else a fresh one; takes hint's budget options.")
@budget_options
@click.option("--seed", type=click.IntRange(0, 2 ** 63 - 1), default=0, show_default=True,
              help="Search seed (with --suggested).")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar on stderr (with --suggested).")
@click.option("--as", "as_player", metavar="NAME", default=None,
              help="Refuse unless NAME is the player to move (a check against recording a turn for the wrong player).")
@click.option("--turn", "as_turn", type=Bounded(limits.TURN_NUMBER), default=None, metavar="N",
              help="Refuse unless turn N (as `show` numbers it) is the turn in play.")
def play(game_file, move, suggested, seconds, iterations, jobs, seed, quiet, as_player, as_turn):
    """Apply one or more MOVEs, all or nothing.

    Quote each move that has spaces, or separate several moves in one argument with ';'.
    Words may be shortened to any unique prefix ("pl arch"). The steps of a turn may come in any
    order ("sell 3 wine" then "sell 1 tool", a build before the last move), also over several calls:
    they are recorded in the engine's canonical order. A card turned up from the stack at a real
    table is entered as `reveal CARD/DECK`; when only one card is possible it is revealed by itself.
    If a move cannot be placed, nothing is recorded and the error says why. Each `played:` line
    names the player and the turn it was recorded for; --as NAME and --turn N refuse when that
    player or turn is not the one to move.

    \b
    Examples:
      concordia play game.json "play Architect"
      concordia play game.json "move land Roma > Novaria-Roma" "build Novaria" done
      concordia play game.json "play Senator; buy Mason/I; done"
      concordia play table.json "reveal Weaver/II"
      concordia play game.json --as Bob --turn 5 "play Prefect; produce Italia"
      concordia play game.json --suggested          (the hint's top turn; --suggested 2 the second)
    """
    if suggested is not None and (as_player is not None or as_turn is not None):
        raise UserError("--as and --turn check moves typed in; --suggested plays the hint for the player to move")
    if suggested is not None:
        from .turns import play_suggested
        return play_suggested(game_file, suggested, move, seconds, iterations, jobs, seed, quiet)
    if seconds is not None or iterations is not None or jobs is not None:
        raise UserError("--time, --iterations and --jobs are the budget of --suggested; without it they are not used")
    texts = [part.strip() for m in move for part in m.split(";") if part.strip()]
    if not texts:
        raise UserError("no move given; e.g. concordia play GAME_FILE 'play Architect' (or --suggested: the hint's top turn)")
    with locked(game_file):    # from load to save: a concurrent play waits instead of losing a move
        gf = _load(game_file)
        _check_mover(gf.game, as_player, as_turn)
        before, first_new = gf.game.clone(), len(gf.moves)
        try:
            applied = gf.apply(texts)
        except GameFileError as e:
            if len(move) > 1 and all(" " not in m for m in move) and texts[0].lower() in (
                    "play", "copy", "colonist", "move", "build", "produce", "keep", "sell", "buy", "place", "reveal",
                    "enter"):
                raise UserError(f"{e} (quote each move: concordia play {game_file} \"{' '.join(move[:2])}\")") from None
            raise
        gf.save()
    if gf.replaced:
        click.echo(f"this turn's {gf.replaced} earlier step{'s' if gf.replaced > 1 else ''} and the new ones, "
                   "recorded in the canonical order:")
    if gf.replaced:    # the turn's earlier steps are listed again, from the turn's start
        before = gf.replay(gf.moves[:len(gf.moves) - len(applied)])
    for line in played.lines(before, applied):
        click.echo(line)
    warning = played.repeated_turn(Game.from_json(gf.initial), gf.moves, first_new - gf.replaced)
    if warning:
        click.echo(warning, err=True)
    click.echo(render.next_line(gf.game, game_file))


def _check_mover(game: Game, as_player: str | None, as_turn: int | None) -> None:
    """--as NAME / --turn N: refuse unless that player is to move (the decider; for a card turned up, the
    player whose turn it is) and that turn is in play."""
    if as_player is None and as_turn is None:
        return
    number = game.state.turns
    label = render.turn_label(game.n_players, number)
    if game.is_over:
        raise UserError(f"--as/--turn: the game is over ({label} would come next); nothing is to move")
    player = game.names[game.state.turn_player]
    mover = player if game.decider == CHANCE else game.names[game.decider]
    who = f"{label} is {player}'s turn and {mover} is to move" if mover != player else f"{label}: {mover} is to move"
    if as_player is not None:
        name = _resolve_item(as_player, list(game.names), "player", "--as")
        if name not in (mover,):
            raise UserError(f"--as {name}: {name} is not to move; {who}")
    if as_turn is not None and as_turn != number + 1:
        raise UserError(f"--turn {as_turn}: turn {as_turn} is not in play; {who}")


@main.command()
@GAME_FILE
@click.option("--steps", type=Bounded(limits.UNDO_STEPS), default=None, metavar="K",
              help="How many moves (sub-decisions, reveals included) to take back (default 1).")
@click.option("--turn", "whole_turn", is_flag=True,
              help="Take back a whole turn: the turn in progress, else the last turn played.")
def undo(game_file, steps, whole_turn):
    """Take back the last K moves, or a whole turn (replayed from the start; the file keeps the rest).

    With --turn: if the current turn has begun, its moves so far are taken back; otherwise the
    whole last turn is. `concordia log GAME_FILE` shows the turns and their moves. A game started
    from a position (`new --position`) cannot be taken back past that position.

    \b
    Examples:
      concordia undo game.json
      concordia undo game.json --steps 3
      concordia undo game.json --turn
    """
    if whole_turn and steps is not None:
        raise UserError("give one of --steps K or --turn, not both")
    with locked(game_file):
        gf = _load(game_file)
        if whole_turn:
            turns = history.turns(Game.from_json(gf.initial), gf.moves)
            if not turns:
                raise UserError(f"--turn: nothing to undo; {game_file} has no moves since its start")
            last = turns[-1]
            dropped = gf.undo(len(last.steps))
            gf.save()
            what = "the turn in progress, " if not last.complete else ""
            moves = f"{len(dropped)} move{'s' if len(dropped) != 1 else ''}"
            click.echo(f"undone: {what}{render.turn_label(gf.game.n_players, last.number)}, {last.player}"
                       f"{' (' + last.card + ')' if last.card else ''}, {moves}: {'; '.join(dropped)}"
                       f"{' (back to the starting position, inside this turn)' if last.begun_before else ''}")
        else:
            dropped = gf.undo(1 if steps is None else steps)
            gf.save()
            for text in reversed(dropped):
                click.echo(f"undone: {text}")
    click.echo(render.next_line(gf.game, game_file))


@main.command()
@GAME_FILE
def redo(game_file):
    """Play again what the last undo took back (one move, K moves or a whole turn, as it was undone).

    Several undos are redone one by one, the last first. Recording a new move with `play` ends what
    can be redone: the game has then gone another way.

    \b
    Examples:
      concordia undo game.json --turn
      concordia redo game.json
    """
    with locked(game_file):
        gf = _load(game_file)
        before = gf.game.clone()
        steps = gf.redo_last()
        gf.save()
    for line in played.lines(before, steps, verb="redone"):
        click.echo(line)
    if gf.redo:
        n = len(gf.redo[-1])
        click.echo(f"redo again: {n} more move{'s' if n != 1 else ''} undone before (concordia redo {game_file})")
    click.echo(render.next_line(gf.game, game_file))


@main.command()
@GAME_OR_POSITION
@click.option("--json", "as_json", is_flag=True, help="Print the scores and ranking as JSON.")
def score(game_file, as_json):
    """Score per player and god as if the game ended now (the final score once it is over), and the ranking.

    FILE is a game file or a position file (docs/position-format.md).

    \b
    Examples:
      concordia score game.json
      concordia score game.json --json
    """
    g, _ = load_any(game_file)
    if as_json:
        rows = render.score_rows(g)
        _echo_json({"final": g.is_over, "columns": list(rows[0].keys())[1:], "players": rows,
                    "ranking": [g.names[s] for s in g.ranking()]})
    else:
        click.echo(render.score_table(g))

