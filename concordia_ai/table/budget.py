"""The search budget of a hint, a suggested turn and a review, for the command line (cli/budget.py: --time,
--iterations, --jobs) and the board (web/jobs.py: the request fields seconds, iterations, jobs): one helper,
so the two take the same bounds, the same defaults and say the same sentence."""
from __future__ import annotations

import os

from ..ai.search import TABLE_SEARCH
from ..engine import limits
from ..engine.errors import ConcordiaError

DEFAULT_SECONDS = 3.0      # `concordia hint` and the board's hint
CLI_NAMES = {"seconds": "--time", "iterations": "--iterations", "jobs": "--jobs"}
JSON_NAMES = {"seconds": "seconds", "iterations": "iterations", "jobs": "jobs"}


class BudgetError(ConcordiaError):
    """A budget that cannot be run; `field` names the option or request field at fault."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field


def search_budget(seconds, iterations, jobs, options: dict | None = None, default_seconds: float = DEFAULT_SECONDS,
                  default_jobs: int | None = None, names: dict = CLI_NAMES) -> tuple[dict, str]:
    """The search options for a budget, and a sentence that says what it is.

    `seconds` of CPU time in each search thread or `iterations` in each (not both), and `jobs` threads
    merged at the root, each inside its bound (engine/limits.py: SECONDS, ITERATIONS, SEARCH_JOBS). A
    value that is not a number (the JSON string "100", true) is refused, as `concordia analyze` refuses
    it; `names` name the fields in the one-line BudgetError (CLI_NAMES or JSON_NAMES).
    `options` are a bot spec's (their own budget counts when neither seconds nor iterations is given).
    Without any budget: `default_seconds` of CPU time in each of `default_jobs` search threads (every
    core); an iteration budget runs one thread unless `jobs` says otherwise."""
    opts = dict(options or {})
    for key, value in TABLE_SEARCH.items():   # hint, play --suggested and review: the final choice over whole
        opts.setdefault(key, value)           # turns, on the search the figures were fitted on
    if seconds is not None and iterations is not None:
        raise BudgetError(f"give one budget: {names['seconds']} or {names['iterations']}, not both",
                          names["seconds"])
    try:
        if seconds is not None:
            opts.update(seconds=limits.SECONDS.check(seconds, names["seconds"], strings=False), iterations=0)
        elif iterations is not None:
            opts.update(iterations=limits.ITERATIONS.check(iterations, names["iterations"], strings=False),
                        seconds=0.0)
        elif "iterations" not in opts and "seconds" not in opts:
            opts.update(seconds=default_seconds, iterations=0)
        if jobs is not None:
            jobs = limits.SEARCH_JOBS.check(jobs, names["jobs"], strings=False)
    except limits.LimitError as e:
        raise BudgetError(str(e), e.field) from None
    timed = bool(opts.get("seconds")) and not opts.get("iterations")
    if jobs is not None:
        opts["jobs"] = jobs
    elif "jobs" not in opts:
        opts["jobs"] = (default_jobs or os.cpu_count() or 1) if timed else 1
    n = opts["jobs"]
    threads = f"{n} search thread{'s' if n > 1 else ''}"
    if timed:
        text = f"{opts['seconds']:g} s of CPU time in each of {threads} (they run at once: about " \
               f"{opts['seconds']:g} s of wall time when {n} core{'s are' if n > 1 else ' is'} free)"
    elif opts.get("seconds"):
        text = f"{opts['iterations']} iterations or {opts['seconds']:g} CPU seconds, the first reached, in each of {threads}"
    else:
        text = f"{opts['iterations']} iterations in each of {threads}"
    return opts, text


def busy_cores_note(seconds: float | None, iterations: int | None, wall: float | None) -> str | None:
    """The note of a time budget's search that took far longer than its budget (more than 2 x its CPU
    seconds + 2 s of wall time): the cores were busy with other work. `concordia hint` and the board's
    hint give it in these words; None when there is nothing to say (an iteration budget has no clock)."""
    if not seconds or iterations or wall is None or wall <= 2 * seconds + 2:
        return None
    return (f"The search took {wall:.1f} s of wall time for its {seconds:g} s of CPU time per process: the cores "
            f"were busy with other work.")
