"""The search budget of hint, play --suggested and review: their options, and one helper (table/budget.py,
shared with the board), so shared bounds hook in once."""
from __future__ import annotations

import click

from ..engine import limits
from ..table import budget
from ..table.budget import DEFAULT_SECONDS
from .app import UserError
from .common import Bounded


def budget_options(fn):
    """--time, --iterations and --jobs, as hint, play --suggested and review take them."""
    fn = click.option("--jobs", type=Bounded(limits.SEARCH_JOBS), default=None, metavar="J",
                      help="Root parallelism: J independent searches in threads, merged (default: every "
                           "core for a time budget, 1 for an iteration budget).")(fn)
    fn = click.option("--iterations", type=Bounded(limits.ITERATIONS), default=None, metavar="N",
                      help="Search budget in iterations per search thread (reproducible on any machine).")(fn)
    fn = click.option("--time", "seconds", type=Bounded(limits.SECONDS), default=None, metavar="SECONDS",
                      help=f"Search budget in CPU seconds of each search thread; the threads run at once, "
                           f"so this is also about the wall time (default {DEFAULT_SECONDS:g} s on every core).")(fn)
    return fn


def search_budget(seconds: float | None, iterations: int | None, jobs: int | None, options: dict | None = None,
                  default_seconds: float = DEFAULT_SECONDS, default_jobs: int | None = None) -> tuple[dict, str]:
    """The search options for a budget, and a sentence that says what it is: table/budget.py's, which the
    board's hint and review share (see there), with the options named as this command line names them."""
    try:
        return budget.search_budget(seconds, iterations, jobs, options, default_seconds, default_jobs,
                                    budget.CLI_NAMES)
    except budget.BudgetError as e:
        raise UserError(str(e)) from None
