"""The search budget of hint, play --suggested and review: one helper, so shared bounds hook in once."""
from __future__ import annotations

import os

import click

from ..ai.search import TABLE_FOCUS
from ..engine import limits
from .app import UserError
from .common import Bounded

DEFAULT_SECONDS = 3.0


def budget_options(fn):
    """--time, --iterations and --jobs, as hint, play --suggested and review take them."""
    fn = click.option("--jobs", type=Bounded(limits.SEARCH_JOBS), default=None, metavar="J",
                      help="Root parallelism: J independent searches in processes, merged (default: every "
                           "core for a time budget, 1 for an iteration budget).")(fn)
    fn = click.option("--iterations", type=Bounded(limits.ITERATIONS), default=None, metavar="N",
                      help="Search budget in iterations per search process (reproducible on any machine).")(fn)
    fn = click.option("--time", "seconds", type=Bounded(limits.SECONDS), default=None, metavar="SECONDS",
                      help=f"Search budget in CPU seconds of each search process; the processes run at once, "
                           f"so this is also about the wall time (default {DEFAULT_SECONDS:g} s on every core).")(fn)
    return fn


def search_budget(seconds: float | None, iterations: int | None, jobs: int | None, options: dict | None = None,
                  default_seconds: float = DEFAULT_SECONDS, default_jobs: int | None = None) -> tuple[dict, str]:
    """The search options for a budget, and a sentence that says what it is.

    `options` are a bot spec's (their own budget counts when neither --time nor --iterations is given).
    Without any budget: `default_seconds` of CPU time in each of `default_jobs` processes (every core)."""
    opts = dict(options or {})
    opts.setdefault("focus", TABLE_FOCUS)    # hint, play --suggested and review: the final choice over whole turns
    if seconds is not None and iterations is not None:
        raise UserError("give one budget: --time SECONDS or --iterations N, not both")
    if seconds is not None and not 0 < seconds < float("inf"):
        raise UserError(f"--time: {seconds} must be a positive number of seconds")
    if iterations is not None and iterations < 1:
        raise UserError(f"--iterations: {iterations} must be a positive number of iterations")
    if seconds is not None:
        opts.update(seconds=seconds, iterations=0)
    elif iterations is not None:
        opts.update(iterations=iterations, seconds=0.0)
    elif "iterations" not in opts and "seconds" not in opts:
        opts.update(seconds=default_seconds, iterations=0)
    timed = bool(opts.get("seconds")) and not opts.get("iterations")
    if jobs is not None:
        opts["jobs"] = jobs
    elif "jobs" not in opts:
        opts["jobs"] = (default_jobs or os.cpu_count() or 1) if timed else 1
    n = opts["jobs"]
    procs = f"{n} search process{'es' if n > 1 else ''}"
    if timed:
        text = f"{opts['seconds']:g} s of CPU time in each of {procs} (they run at once: about " \
               f"{opts['seconds']:g} s of wall time when {n} core{'s are' if n > 1 else ' is'} free)"
    elif opts.get("seconds"):
        text = f"{opts['iterations']} iterations or {opts['seconds']:g} CPU seconds, the first reached, in each of {procs}"
    else:
        text = f"{opts['iterations']} iterations in each of {procs}"
    return opts, text
