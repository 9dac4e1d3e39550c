"""Move notation: one short, typable line per legal sub-decision (see docs/notation.md).

    play Architect · copy Prefect · done · colonist land (Tribune)
    move land Roma > Novaria-Roma · build Novaria
    produce Italia · produce Brown cloth (a variable bonus) · cash · keep wine
    sell 2 wine · buy 1 cloth · buy Weaver/II · buy Architect/I paying tool
    place sea Roma (Colonist card) · reveal Mason/I (a card turned up from the stack)

Parsing is case-insensitive; each word may be shortened to any prefix that leaves one legal move
("pl arch", "mo l roma > nov-roma", "m s ro > cart"). A route may be named from either end.
"""
from __future__ import annotations

from . import core
from .errors import NotationError
from .position import location_name, route_name

KINDS = ("land", "sea")


def move_text(game, code: int) -> str:
    """The canonical text of a move (legal or not) in `game`'s current state."""
    return _texts(game, code)[0]


def _texts(game, code: int) -> list[str]:
    """The canonical text first, then accepted aliases (routes named from the other end)."""
    R, B = game.rules, game.board
    t, x, y = core.decode(code)
    name = core.ACTION_TYPES.get(t)
    if name == "play":
        kind = R.kinds[x]
        return [f"play {kind.name if kind.name == 'Diplomat' else kind.label}"]
    if name == "copy":
        return [f"copy {R.kinds[x].label}"]
    if name == "done":
        return ["done"]
    if name == "tribune-colonist":
        return [f"colonist {KINDS[x]}"]
    if name == "move":
        frm = location_name(B, game.state.colonist_location(game.state.turn_player, x))
        kind = KINDS[1 if x >= 3 else 0]
        a, b, _, _ = B.routes[y]
        fwd, back = route_name(B, y), f"{B.cities[b]}-{B.cities[a]}"
        texts = [f"move {kind} {frm} > {fwd}", f"move {kind} {frm} > {back}"]
        if "-" in frm:
            fa, fb = frm.split("-", 1)
            texts += [f"move {kind} {fb}-{fa} > {fwd}", f"move {kind} {fb}-{fa} > {back}"]
        return texts
    if name == "build":
        return [f"build {B.cities[x]}"]
    if name == "produce":
        if y < 5:
            return [f"produce {B.provinces[x]} {R.goods[y]}"]
        return [f"produce {B.provinces[x]}"]
    if name in ("cash", "colonist-cash"):
        return ["cash"]
    if name == "keep":
        return [f"keep {R.goods[x]}"]
    if name in ("sell", "buy"):
        return [f"{name} {y} {R.goods[x]}"]
    if name == "card":
        card = game.state.display_card(x) if 0 <= x < 7 else -1
        label = R.market[card].label if card >= 0 else f"slot{x + 1}"
        return [f"buy {label}" + (f" paying {R.goods[y]}" if y < 5 else "")]
    if name == "place":
        return [f"place {KINDS[x]} {B.cities[y]}"]
    if name == "reveal":
        return [f"reveal {R.market[x].label}"]
    return [f"?{code}"]


def _words(text: str) -> list[str]:
    return text.lower().replace(">", " > ").split()


def _word_matches(typed: str, full: str) -> bool:
    """A prefix of the word, or of each part of a route name: "nov-roma" for "novaria-roma"."""
    if full.startswith(typed):
        return True
    tp, fp = typed.split("-"), full.split("-")
    return len(tp) == len(fp) and all(f.startswith(t) for t, f in zip(tp, fp))


def _matches(typed: list[str], full: list[str]) -> bool:
    return len(typed) == len(full) and all(_word_matches(w, f) for w, f in zip(typed, full))


def parse_move(game, text: str) -> int:
    """The legal move that `text` names; NotationError says why not and lists the legal moves."""
    if not isinstance(text, str) or not text.strip():
        raise NotationError(f"empty move; legal now: {_legal_list(game)}")
    typed = _words(text)
    legal = game.legal_moves()
    exact, prefix = [], []
    for m in legal:
        for t in _texts(game, m):
            words = _words(t)
            if words == typed:
                exact.append(m)
                break
            if _matches(typed, words):
                prefix.append(m)
                break
    found = exact or prefix
    if len(set(found)) == 1:
        return found[0]
    if found:
        options = "; ".join(move_text(game, m) for m in dict.fromkeys(found))
        raise NotationError(f"ambiguous move {text!r}: could be {options}")
    if game.is_over:
        raise NotationError(f"the game is over; no move is legal ({text!r})")
    raise NotationError(f"{_why_not(game, typed, text)}; legal now: {_legal_list(game)}")


def _why_not(game, typed: list[str], text: str) -> str:
    verbs = {"play", "copy", "done", "colonist", "move", "build", "produce", "cash", "keep", "sell", "buy",
             "place", "reveal"}
    if not any(v.startswith(typed[0]) for v in verbs):
        return f"unknown move {text!r} (moves start with one of: {', '.join(sorted(verbs))})"
    return f"{text!r} is not a legal move for {game.decider_name} in phase {game.phase}"


def _legal_list(game) -> str:
    return ", ".join(move_text(game, m) for m in game.legal_moves()) or "none"


def resolve(text: str, options: list[str], what: str) -> str:
    """One of `options` named by `text` (case-insensitive; a unique word-wise prefix is enough)."""
    if not isinstance(text, str):
        raise NotationError(f"{text!r} is not a {what}; valid: {', '.join(options)}")
    key = text.strip().lower()
    exact = [o for o in options if o.lower() == key]
    if exact:
        return exact[0]
    typed = key.replace("/", " / ").split()
    found = [o for o in options if _matches(typed, o.lower().replace("/", " / ").split())]
    if len(found) == 1:
        return found[0]
    if found:
        raise NotationError(f"ambiguous {what} {text!r}: could be {', '.join(found)}")
    raise NotationError(f"unknown {what} {text!r}; valid: {', '.join(options)}")
