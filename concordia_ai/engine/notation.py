"""Move notation: one short, typable line per legal sub-decision (see docs/notation.md).

    play Architect · copy Prefect · done · colonist land (Tribune)
    move land Roma > Novaria-Roma · build Novaria
    produce Italia · produce Brown cloth (a variable bonus) · cash · keep wine
    sell 2 wine · buy 1 cloth · buy Weaver/II · buy Architect/I paying tool
    place sea Roma (Colonist card) · reveal Mason/I (a card turned up from the stack)
    enter Berenice-FRANKINCENSE (Aegyptus: which line's colonist goes onto the square)

Parsing is case-insensitive; each word may be shortened to any prefix that leaves one legal move
("pl arch", "mo l roma > nov-roma", "m s ro > cart"); a word typed in full beats a longer word it is a
prefix of ("arch/I" is Architect/I, not Architect/II). A route may be named from either end, a card
without its deck where only one deck is possible ("reveal Mason"), a Diplomat by its god
("play Diplomat/Mars": the card really laid down, which then lies on the pile).
"""
from __future__ import annotations

import difflib

from .. import core
from .vocabulary import ActionType, Phase, action_type
from . import refusals
from .words import word_matches as _word_matches
from .errors import NotationError
from .position import location_name, route_name

KINDS = ("land", "sea")


def move_text(game, code: int) -> str:
    """The canonical text of a move (legal or not) in `game`'s current state."""
    return _texts(game, code)[0]


def played_card(game, code: int) -> str:
    """The card a `play` move names in its canonical text: the kind's label, or just `Diplomat` for the
    Diplomat the engine offers (the others are named by their god, `Diplomat/Mars`)."""
    kind = game.rules.kinds[core.decode(code)[1]]
    if kind.name == "Diplomat" and code in game.legal_moves():
        return "Diplomat"
    return kind.label


def _texts(game, code: int) -> list[str]:
    """The canonical text first, then accepted aliases (routes named from the other end)."""
    R, B = game.rules, game.board
    t, x, y = core.decode(code)
    atype = action_type(t)
    if atype == ActionType.PLAY:
        kind = R.kinds[x]
        card = played_card(game, code)
        return [f"play {card}"] if card == kind.label else [f"play {card}", f"play {kind.label}"]
    if atype == ActionType.COPY:
        return [f"copy {R.kinds[x].label}"]
    if atype == ActionType.DONE:
        return ["done"]
    if atype == ActionType.TRIBUNE_COLONIST:
        return [f"colonist {KINDS[x]}"]
    if atype == ActionType.MOVE:
        frm = location_name(B, game.state.colonist_location(game.state.turn_player, x))
        kind = KINDS[1 if x >= 3 else 0]
        a, b, _, _ = B.routes[y]
        fwd, back = route_name(B, y), f"{B.cities[b]}-{B.cities[a]}"
        texts = [f"move {kind} {frm} > {fwd}", f"move {kind} {frm} > {back}"]
        if "-" in frm:
            fa, fb = frm.split("-", 1)
            texts += [f"move {kind} {fb}-{fa} > {fwd}", f"move {kind} {fb}-{fa} > {back}"]
        return texts
    if atype == ActionType.BUILD:
        return [f"build {B.cities[x]}"]
    if atype == ActionType.PRODUCE:
        if y < 5:
            return [f"produce {B.provinces[x]} {R.goods[y]}"]
        return [f"produce {B.provinces[x]}"]
    if atype in (ActionType.CASH, ActionType.COLONIST_CASH):
        return ["cash"]
    if atype == ActionType.KEEP:
        return [f"keep {R.goods[x]}"]
    if atype in (ActionType.SELL, ActionType.BUY):
        return [f"{atype.word} {y} {R.goods[x]}"]
    if atype == ActionType.CARD:
        card = game.state.display_card(x) if 0 <= x < 7 else -1
        label = R.market[card].label if card >= 0 else f"slot{x + 1}"
        paying = f" paying {R.goods[y]}" if y < 5 else ""
        texts = [f"buy {label}{paying}"]
        if card >= 0:
            texts.append(f"buy {R.market[card].name}{paying}")   # without the deck: one Mason in the display is enough
        return texts
    if atype == ActionType.PLACE:
        return [f"place {KINDS[x]} {B.cities[y]}"]
    if atype == ActionType.REVEAL:
        # reveals come from the top deck only, so the card's name alone is enough
        return [f"reveal {R.market[x].label}", f"reveal {R.market[x].name}"]
    if atype == ActionType.ENTER:
        a, b, _, _ = B.routes[x]
        return [f"enter {route_name(B, x)}", f"enter {B.cities[b]}-{B.cities[a]}"]
    return [f"?{code}"]


def _words(text: str) -> list[str]:
    return text.lower().replace(">", " > ").split()


def _singular(game, words: list[str]) -> list[str]:
    """Goods typed in the plural ("sell 2 bricks") as the notation names them."""
    plural = {g + "s": g for g in game.rules.goods}
    return [plural.get(w, w) for w in words]


def _matches(typed: list[str], full: list[str]) -> bool:
    return len(typed) == len(full) and all(_word_matches(w, f) for w, f in zip(typed, full))


def _exact_words(typed: list[str], full: list[str]) -> int:
    """How many words are typed in full: an exact word beats a prefix of a longer one."""
    return sum(w == f for w, f in zip(typed, full))


def _best(typed: list[str], candidates: list[tuple[object, list[list[str]]]]) -> list:
    """The candidates (value, word lists) that `typed` names: an exact text first, else the prefix matches
    with the most words typed in full."""
    exact, scored = [], {}
    for value, texts in candidates:
        for words in texts:
            if words == typed:
                exact.append(value)
                break
        else:
            score = max((_exact_words(typed, w) for w in texts if _matches(typed, w)), default=-1)
            if score >= 0:
                scored[value] = score
    if exact:
        return list(dict.fromkeys(exact))
    top = max(scored.values(), default=-1)
    return [v for v, sc in scored.items() if sc == top]


def _only_payment(game, typed: list[str]) -> list[int]:
    """`buy Prefect/I` for a card whose place adds any one good, when only one good can pay it: that purchase
    (with two or more, the player says which, and the refusal names them)."""
    if "paying" in typed:
        return []
    payings = [(m, _words(t.split(" paying ")[0])) for m in game.legal_moves() for t in _texts(game, m)[:1]
               if " paying " in t]
    found = _best(typed, [(m, [words]) for m, words in payings])
    return found if len(found) == 1 else []


def _aliases(game) -> list[int]:
    """Codes the state accepts beyond its legal moves: `play` of a Diplomat kind the engine folds into one."""
    if game.state.phase != Phase.PLAY or game.decider is None or game.decider < 0:
        return []
    hand = game.to_json()["players"][game.state.turn_player]["hand"]
    out = []
    for k, kind in enumerate(game.rules.kinds):
        code = core.encode(ActionType.PLAY, k)
        if kind.name == "Diplomat" and hand.get(kind.label) and code not in game.legal_moves():
            out.append(code)
    return out


def parse_move(game, text: str) -> int:
    """The legal move that `text` names; NotationError says why not and lists the legal moves."""
    if not isinstance(text, str) or not text.strip():
        raise NotationError(f"empty move; legal now: {_legal_list(game)}")
    typed = _singular(game, _words(text))
    found = _best(typed, [(m, [_words(t) for t in _texts(game, m)]) for m in game.legal_moves()])
    if not found:
        found = _best(typed, [(m, [_words(t) for t in _texts(game, m)]) for m in _aliases(game)])
    if not found:
        found = _only_payment(game, typed)
    if len(found) == 1:
        return found[0]
    if found:
        options = "; ".join(move_text(game, m) for m in found)
        raise NotationError(f"ambiguous move {text!r}: could be {options}")
    if game.is_over:
        raise NotationError(f"the game is over; no move is legal ({text!r})")
    unknown = _unknown_name(game, typed)
    if unknown:
        raise NotationError(unknown)
    why, reasoned = _why_not(game, typed, text)
    legal = game.legal_moves()
    if reasoned and len(legal) > SHORT_LIST:      # the reason says what to change; a long list would bury it
        raise NotationError(f"{why} ({len(legal)} legal moves now)")
    raise NotationError(f"{why}; legal now: {_legal_list(game)}")


SHORT_LIST = 8     # a refusal with its reason lists the legal moves only when there are this few


# words of the notation that name no thing on the board
KEYWORDS = ("land", "sea", "paying", ">")


def _names(game) -> dict[str, str]:
    """Every word of the names a move may use (cities, provinces, goods, cards, gods), lower case, with the
    name it belongs to."""
    R, B = game.rules, game.board
    names = list(B.cities) + list(B.provinces) + list(R.goods) + sorted({m.name for m in R.market}) + \
        [p for k in R.kinds for p in k.label.split("/") if not p.isdigit()]
    out: dict[str, str] = {}
    for name in names:
        for word in name.lower().split():
            out.setdefault(word, name)
    return out


def _unknown_name(game, typed: list[str]) -> str | None:
    """'corsika' is no name ...; did you mean Corsica?' for the first word that names nothing (route ends
    and card names checked part by part) and is close to a name; None when every word is known."""
    names = _names(game)
    for word in typed[1:]:
        if word in KEYWORDS or word.isdigit():
            continue
        parts = word.split("/")[:1] if "/" in word else word.split("-")
        for part in parts:
            if not part or any(n.startswith(part) for n in names):
                continue
            close = difflib.get_close_matches(part, list(names), n=2, cutoff=0.75)
            if close:
                guesses = " or ".join(dict.fromkeys(names[c] for c in close))
                return f"{part!r} is no city, province, card or good of {game.board.source.name.title()}; " \
                       f"did you mean {guesses}?"
    return None


def _why_not(game, typed: list[str], text: str) -> tuple[str, bool]:
    """Why `text` is no legal move, and whether that names the rule it breaks (not only the phase)."""
    verbs = {"play", "copy", "done", "colonist", "move", "build", "produce", "cash", "keep", "sell", "buy",
             "place", "reveal", "enter"}
    if not any(v.startswith(typed[0]) for v in verbs):
        return f"unknown move {text!r} (moves start with one of: {', '.join(sorted(verbs))})", False
    verb = [v for v in verbs if v.startswith(typed[0])]
    because = refusals.reason(game, typed, verb[0]) if len(verb) == 1 else None
    if because:
        rule = game.phase in refusals.STEP_OF.get(verb[0], ((game.phase,), ""))[0]   # not only "wrong moment"
        return f"{text!r} is not a legal move for {game.decider_name}: {because}", rule
    return f"{text!r} is not a legal move for {game.decider_name} in phase {game.phase}", False


def _legal_list(game) -> str:
    return ", ".join(move_text(game, m) for m in game.legal_moves()) or "none"


def resolve(text: str, options: list[str], what: str) -> str:
    """One of `options` named by `text` (case-insensitive; a unique word-wise prefix is enough)."""
    if not isinstance(text, str):
        raise NotationError(f"{text!r} is not a {what}; valid: {', '.join(options)}")
    key = text.strip().lower()
    typed = key.replace("/", " / ").split()
    found = _best(typed, [(o, [o.lower().replace("/", " / ").split()]) for o in options])
    if len(found) == 1:
        return found[0]
    if found:
        raise NotationError(f"ambiguous {what} {text!r}: could be {', '.join(found)}")
    raise NotationError(f"unknown {what} {text!r}; valid: {', '.join(options)}")
