"""One bound for every number a user can give, and the check that refuses the rest.

Every command line option, bot spec, tournament file and analysis query that takes a number goes
through a `Bound` here, so a value is either inside a range the program can honour (the core counts
iterations in 32 bits, a search longer than a day is a typo) or refused with one line that names the
value's field and the valid range. Booleans are not numbers (TOML `games = true` is refused), and
NaN or infinity is never a valid budget.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from .errors import ConcordiaError


class LimitError(ConcordiaError):
    """A number outside its bound; `field` names the option, spec key or query field."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field


def _fmt(x) -> str:
    if isinstance(x, float) and x.is_integer():
        x = int(x)
    return f"{x:,}" if isinstance(x, int) else f"{x:g}"


@dataclass(frozen=True)
class Bound:
    """The valid range of one kind of number: integers or finite floats in low..high."""
    what: str                  # what the number counts, for messages ("search iterations")
    low: float
    high: float
    integer: bool = True

    @property
    def valid(self) -> str:
        return f"{'an integer' if self.integer else 'a number'} in {_fmt(self.low)}..{_fmt(self.high)}"

    def check(self, value, field: str | None = None, strings: bool = True):
        """`value` as an int (or float) inside the bound; LimitError naming `field` otherwise.

        Accepts ints, floats with an integral value for integer bounds, and strings of either (for
        spec strings; strings=False refuses them, for JSON, where "100" is not a number); refuses
        booleans, NaN, infinity and anything else."""
        label = f"{field}: " if field else ""
        text = shown(value)
        if isinstance(value, str) and not strings:
            raise LimitError(f"{label}{text} is a string, not a number; give {self.valid}", field)
        number = _number(value)
        if number is None:
            raise LimitError(f"{label}{text} is not a number; give {self.valid}", field)
        if isinstance(number, float) and not math.isfinite(number):
            raise LimitError(f"{label}{text} is not a finite number; give {self.valid}", field)
        if self.integer:
            if isinstance(number, float):
                if not number.is_integer():
                    raise LimitError(f"{label}{text} is not an integer; give {self.valid}", field)
                number = int(number)
        else:
            number = float(number)
        if not self.low <= number <= self.high:
            raise LimitError(f"{label}{text} is out of range for {self.what}; give {self.valid}", field)
        return number


def _number(value):
    """An int or float from a JSON/TOML number or a spec string; None when it is neither."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, str):
        text = value.strip().replace("_", "")
        if len(text) > MAX_NUMBER_CHARS:
            return float("inf")
        try:
            return int(text)
        except ValueError:
            pass
        try:
            return float(text)
        except ValueError:
            return None
    return None


SHOWN_CHARS = 40           # a value quoted in a message: a number, a name, a field
SHOWN_PATH_CHARS = 200     # a file name, a Host or Origin header: long enough for a real path


def shown(value, width: int = SHOWN_CHARS) -> str:
    """The value for a message: strings quoted, at most `width` characters, never a 5,000-digit echo
    (a value from a user, a file or a request may be long or hostile). The one helper for every message
    that quotes a value: SHOWN_PATH_CHARS for file names and headers, the default for the rest."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10 ** 24:
        return f"a {len(str(abs(value)))}-digit number"
    text = repr(value) if isinstance(value, str) else str(value).lower() if isinstance(value, bool) else str(value)
    return text if len(text) <= width else text[:width - 3] + "..."


MAX_NUMBER_CHARS = 64                  # longer number strings are out of every range (no 4,300-digit parse)
INT32_MAX = 2 ** 31 - 1
SEED_MAX = 2 ** 63 - 1
DAY = 86400.0

ITERATIONS = Bound("search iterations", 1, INT32_MAX)     # the core counts in int32
SECONDS = Bound("search seconds", 0.001, DAY, integer=False)
ROLLOUT_TURNS = Bound("rollout turns", 0, 10_000)                    # a real game lasts under 100 turns
SEARCH_JOBS = Bound("search jobs", 1, 256)
SEED = Bound("seeds", 0, SEED_MAX)
TOP_K = Bound("candidate moves", 1, 1000)
REPORT_EVERY = Bound("seconds between partial reports", 0.05, DAY, integer=False)
TOURNAMENT_GAMES = Bound("tournament games", 1, 1_000_000)
TOURNAMENT_JOBS = Bound("parallel games", 1, 1024)
BOOTSTRAP = Bound("bootstrap resamples", 0, 100_000)
RESEARCH_BOOTSTRAP = Bound("bootstrap resamples", 0, 10_000)     # default 1,000; a resample row per figure
RESEARCH_GAMES = Bound("research games", 1, 100_000)             # a run's tasks are built at once (~1 kB each)
REVIEW_JOBS = Bound("turns searched at once", 1, 1024)
ELO = Bound("Elo differences", -2000, 2000, integer=False)
UNDO_STEPS = Bound("moves to undo", 1, 1_000_000)
NAME_CHARS = 40                        # a player's name: printed in a column of every table
TURN_NUMBER = Bound("turn numbers", 1, 100_000)                  # `play --turn N`: turn N as `show` numbers it

# reading user files (see io/safe_read.py)
JSON_DEPTH = 64                        # a game file nests 6 deep; 100,000 deep would exhaust the stack
INT_DIGITS = 40                        # 2^64 has 20 digits; Python refuses to parse past 4,300
FILE_BYTES = 8 * 2 ** 20               # a game file, a list, a .toml: a long game file is ~100 kB
LOG_BYTES = 4 * 2 ** 30                # a tournament log: about 5 kB per game
REVIEW_LOG_BYTES = 64 * 2 ** 20        # a review log: about 600 bytes per graded turn
QUERY_BYTES = 8 * 2 ** 20              # one line of `concordia analyze` (an inline position is ~10 kB)
REQUEST_BYTES = 2 ** 20                # one request to `concordia serve` (a move list or a table layout: a few kB)

# the tournament logs `concordia serve` lists under its folder (web/replays.find_logs)
LOG_SEARCH_DEPTH = 4                   # folders below the served one (runs/NAME/games.jsonl is 2)
LOG_SEARCH_FOLDERS = 1000              # folders looked into: a served home folder holds far more
LOG_SEARCH_NAMES = 100_000             # names read in them, all folders together (one folder may hold millions)
LOGS_LISTED = 50                       # logs listed, nearest first
