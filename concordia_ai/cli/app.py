"""The command group and the CLI's single error path.

Error policy for every command: a user error prints one line on stderr naming the bad input and
what would be valid, and exits with code 2 (no traceback). The policy lives in one place,
`ConcordiaGroup.main`: commands just raise (UserError, GameError, NotationError, PositionError,
GameFileError or a click error) and never print errors themselves.
"""
from __future__ import annotations

import os
import re
import sys

import click

from concordia_ai import __version__

from ..engine.errors import ConcordiaError
from ..engine.game import GameError
from ..table.game_file import GameFileError
from ..engine.notation import NotationError
from ..engine.position import PositionError

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 100}
USAGE_EXIT = 2


class UserError(click.ClickException):
    """A bad input from the user: printed as one line `error: ...`, exit code 2."""
    exit_code = USAGE_EXIT


USER_ERRORS = (UserError, ConcordiaError, GameError, NotationError, PositionError, GameFileError)


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
        except ValueError as e:
            if "integer string conversion" not in str(e):   # Python's 4,300-digit limit: bad input
                _internal(e)
            _fail("a number in the input has thousands of digits; no field takes a number that long")
        except Exception as e:  # a bug: keep the promise of one line, unless debugging
            _internal(e)
        sys.exit(rv if isinstance(rv, int) else 0)


def _internal(e: Exception) -> None:
    if os.environ.get("CONCORDIA_DEBUG"):
        raise e
    _fail(f"internal error (please report; set CONCORDIA_DEBUG=1 for a traceback): {type(e).__name__}: {e}", 1)


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
      concordia undo game.json --turn
      concordia log game.json
      concordia score game.json
      concordia board imperium
      concordia position template --map italia --players 3 --out now.json
      concordia new late.json --position now.json

    \b
    Hints, analysis and bots:
      concordia hint game.json --time 2 --top 5
      concordia analyze < queries.jsonl
      concordia tournament                      (a default tournament, about a minute on 2 cores)
      concordia tournament --bot mcts=ismcts:iterations=2000 --bot heur=heuristic --players 2 --games 40
      concordia rate results/tournament-x/games.jsonl
      concordia bots

    \b
    Examples:
      concordia --version
      concordia COMMAND --help
    """


