"""What may be a player's name, checked at every way a name comes in: `Game.new` (and so `concordia new
--names`), position files and game files (both through `position.load`).

A name is printed in tables, logs and prompts: a newline or a terminal escape in it could forge a line
of output ("Ann\nnext: Bob wins"), a right-to-left override could reorder what is shown after it, and a
100,000-character name would flood every table. So a name is printable text of at most
limits.NAME_CHARS characters; emptiness, duplicates and reserved words are checked by the callers.
"""
from __future__ import annotations

import unicodedata

from . import limits

# controls (\n, NUL, ESC), format characters (right-to-left overrides, zero-width joiners), line and
# paragraph separators, surrogates, private-use and unassigned code points
_NOT_TEXT = {"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"}


def name_problem(name: str) -> str | None:
    """Why `name` cannot be a player's name (completing '<name> ...'), or None when it can."""
    if len(name) > limits.NAME_CHARS:
        return f"is {len(name):,} characters long; a name has at most {limits.NAME_CHARS}"
    for ch in name:
        if unicodedata.category(ch) in _NOT_TEXT:
            return (f"holds the character U+{ord(ch):04X} (a control or formatting character); a name is "
                    f"printable text: letters, digits, spaces and punctuation")
    return None
