"""`concordia play GAME --suggested [N]`: play candidate N of the hint just shown (or of a fresh one), and only
that turn."""
from __future__ import annotations

from dataclasses import asdict

import click

from ..table import hint_cache, played, render
from ..table.game_file import locked
from .app import UserError
from .budget import search_budget
from .common import _load
from .search import _check_decider, make_config, run_search


def play_suggested(game_file: str, n: int, moves, seconds, iterations, jobs, seed: int, quiet: bool) -> None:
    """Record the N-th whole turn of the player to move (all or nothing): of the hint just shown when it was
    for this position and configuration (hint_cache), else of a new search.

    The turn stops at the next decision of someone else: at a simulated table the engine reveals new
    display cards by itself; at a real table the next step is entering the card seen."""
    if moves:
        raise UserError("give moves or --suggested, not both (e.g. concordia play GAME --suggested 2)")
    opts, described = search_budget(seconds, iterations, jobs)
    config = make_config(opts, seed)
    gf = _load(game_file)
    game = gf.game
    _check_decider(game, game_file)
    player = game.names[game.decider]
    turns = hint_cache.load(game_file, game, asdict(config))
    source = "the list of the hint just shown (same position, budget and seed; no new search)"
    if turns is None:
        turns = run_search(game, config, f"ismcts for {player}", quiet).turns
        source = "a new search"
    if not 1 <= n <= len(turns):
        raise UserError(f"--suggested: {n} is not a candidate; the search found {len(turns)} whole "
                        f"turn{'s' if len(turns) != 1 else ''} (give 1 to {len(turns)})")
    turn = turns[n - 1]
    # the search ran without the lock (it takes seconds); record only if nobody changed the game meanwhile
    with locked(game_file):
        current = _load(game_file)
        if current.moves != gf.moves:
            raise UserError(f"{game_file} changed during the search (another command recorded a move); "
                            "ask again")
        before = current.game.clone()
        applied = current.apply(turn.texts)
        current.save()
    gf = current
    click.echo(f"suggested turn {n} for {player} (win {100 * turn.win:.1f} ± {100 * turn.win_se:.1f} %, "
               f"{turn.visits} visits; budget: {described}; from {source})")
    for line in played.lines(before, applied):
        click.echo(line)
    click.echo(render.next_line(gf.game, game_file))
