"""How a typed word names a word of the notation: a prefix, part by part for route and card names."""
from __future__ import annotations

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


def did_you_mean(typed: str, options) -> list[str]:
    """The options close to a misspelt word (case ignored), closest first; at most two."""
    import difflib
    by_key = {o.lower(): o for o in options}
    return [by_key[k] for k in difflib.get_close_matches(typed.strip().lower(), list(by_key), n=2, cutoff=0.75)]
