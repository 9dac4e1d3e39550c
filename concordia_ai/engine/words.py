"""How a typed word names a word of the notation: a prefix, part by part for route and card names."""
from __future__ import annotations

import difflib
import re

DECKS = ("i", "ii", "iii", "iv", "v")      # deck numerals: typed in full ("consul/i" is not Consul/II)


def word_matches(typed: str, full: str) -> bool:
    """A prefix of the word; a word with parts ("nov-roma", "merc/5") is a prefix of each part of a route
    or card name ("novaria-roma", "mercator/5"), its deck numeral in full or not at all ("consul/") (both
    lower case)."""
    if "-" not in typed and "/" not in typed:
        return full.startswith(typed)
    tp, fp = re.split(r"([-/])", typed), re.split(r"([-/])", full)
    return len(tp) == len(fp) and all(t in (f, "") if f in DECKS or f in "-/" else f.startswith(t) for t, f in zip(tp, fp))


def did_you_mean(typed: str, options) -> str:
    """' did you mean 'x'?' for the option closest to a mistyped word ('' when none is close)."""
    close = difflib.get_close_matches(str(typed).lower(), [str(o).lower() for o in options], n=1, cutoff=0.6)
    if not close:
        return ""
    exact = next(o for o in options if str(o).lower() == close[0])
    return f" did you mean {exact!r}?"
