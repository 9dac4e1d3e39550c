"""The `concordia` command line.

Error policy for every command: a user error prints one line on stderr naming the bad input and
what would be valid, and exits with code 2 (no traceback). The policy lives in one place,
`ConcordiaGroup.main`: commands just raise (UserError, GameError, NotationError, PositionError,
GameFileError or a click error) and never print errors themselves.

Adding a command: write one function decorated with `@main.command(...)` (its docstring is the
--help text and must end with an example); load a game with `_load(path)` and save with `gf.save()`.
"""
from __future__ import annotations

import json
import os
import re
import secrets
import sys
from collections import Counter

import click

from concordia_ai import __version__

from . import compiled, core, render
from .content import BOARD_NAMES
from .game import Game, GameError
from .gamefile import GameFile, GameFileError
from .notation import NotationError, resolve
from .position import PositionError

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 100}
USAGE_EXIT = 2


class UserError(click.ClickException):
    """A bad input from the user: printed as one line `error: ...`, exit code 2."""
    exit_code = USAGE_EXIT


USER_ERRORS = (UserError, GameError, NotationError, PositionError, GameFileError)


def _one_line(text: str) -> str:
    return re.sub(r"\s*\n\s*", " ", str(text)).strip()


def _fail(message: str, code: int = USAGE_EXIT) -> None:
    click.echo(f"error: {_one_line(message)}", err=True)
    sys.exit(code)


class ConcordiaGroup(click.Group):
    """The command group, with the single error-handling wrapper of the CLI."""

    def main(self, *args, standalone_mode: bool = True, **kwargs):
        if not standalone_mode:
            return super().main(*args, standalone_mode=False, **kwargs)
        try:
            rv = super().main(*args, standalone_mode=False, **kwargs)
        except USER_ERRORS as e:
            _fail(e.format_message() if isinstance(e, click.ClickException) else str(e))
        except click.UsageError as e:
            hint = ""
            if e.ctx is not None:
                hint = f" (usage: {e.ctx.command_path} {' '.join(e.ctx.command.collect_usage_pieces(e.ctx))};" \
                       f" see '{e.ctx.command_path} --help')"
            _fail(e.format_message() + hint, e.exit_code)
        except click.ClickException as e:
            _fail(e.format_message(), e.exit_code)
        except click.Abort:
            _fail("aborted", 1)
        except KeyboardInterrupt:
            _fail("interrupted", 130)
        except BrokenPipeError:
            sys.exit(0)
        except Exception as e:  # a bug: keep the promise of one line, unless debugging
            if os.environ.get("CONCORDIA_DEBUG"):
                raise
            _fail(f"internal error (please report; set CONCORDIA_DEBUG=1 for a traceback): "
                  f"{type(e).__name__}: {e}", 1)
        sys.exit(rv if isinstance(rv, int) else 0)


@click.group(cls=ConcordiaGroup, context_settings=CONTEXT_SETTINGS)
@click.version_option(__version__, "-V", "--version", prog_name="concordia")
def main() -> None:
    """Play, analyse and study the board game Concordia.

    Track a real game and ask for move hints, run tournaments between bots, and answer research
    questions with thousands of simulated games. Boards: Imperium, Italia, Creta, Aegyptus.

    \b
    Tracking a game:
      concordia new game.json --map imperium --players 3 --seed 7
      concordia show game.json
      concordia moves game.json
      concordia play game.json "play Architect" "move land Roma > Novaria-Roma" "build Novaria" done
      concordia undo game.json
      concordia score game.json

    \b
    Examples:
      concordia --version
      concordia COMMAND --help
    """


# ---------------------------------------------------------------- shared helpers

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


# ---------------------------------------------------------------- commands

@main.command()
@GAME_FILE
@click.option("--map", "board", default="imperium", show_default=True, metavar="MAP",
              help=f"The board: {', '.join(BOARD_NAMES)}.")
@click.option("--players", type=click.IntRange(2, core.MAX_PLAYERS), default=None,
              help="Number of players, 2 to 5 (default: the number of --names, else 4).")
@click.option("--seed", type=click.IntRange(0, 2 ** 63 - 1), default=None,
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
            cards = _split_list([display], "--display")
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
@click.option("--steps", type=int, default=1, show_default=True, metavar="K",
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


if __name__ == "__main__":  # pragma: no cover
    main()
