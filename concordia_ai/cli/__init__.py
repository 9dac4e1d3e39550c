"""The `concordia` command line: one module per command group.

- `app`: the command group and the single error path (every refusal is one line on stderr, exit 2);
- `common`: helpers shared by the commands (loading game and position files, list options, names, maps);
- `track`: tracking a game at the table (new, show, moves, play, undo, score);
- `table`: looking things up at the table (board, log);
- `position`: position files (position template, position check);
- `search`: hints and the analysis engine (hint, analyze);
- `lab`: bots, tournaments and ratings (bots, tournament, rate);
- `research`: card, seat and intervention research (research cards, seats, intervene, report).
- `serve`: the web board (concordia_ai.web).
- `review`: grading every recorded turn of a game (review); `turns`: play --suggested; `budget`: the
  search budget options of hint, play --suggested and review.

Adding a command: write one function decorated with `@main.command(...)` in the module of its group
(its docstring is the --help text and must end with an example); load a game file with `_load(path)`
(or `load_any(path)` where a position file will do too) and save with `gf.save()`. Commands raise
(UserError, GameError, ...) and never print errors themselves.
"""
from .app import UserError, main  # noqa: F401
from . import lab, position, research, review, search, serve, table, track  # noqa: F401,E402  (registers the commands)

__all__ = ["main", "UserError"]
