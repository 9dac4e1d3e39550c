"""Steps of a turn entered in any order, placed into the engine's canonical order.

At the table a player says `sell 3 wine` and then `sell 1 tool`, or builds before naming the last move.
The engine offers each turn's outcome through one canonical order of sub-decisions (docs/engine.md), so a
text that is not legal now may become legal after a later one. `place` searches for an order of the given
texts that the engine accepts:

* the texts are tried in the order given, and one is moved earlier only when the ones before it do not fit;
* a text moves only within its own turn: the move that ends a turn must come after every text given
  before it, so no step slides into another player's turn;
* after every step, a reveal with only one possible card (the last card of the top deck) is applied by
  itself and reported;
* Architect moves that chain through an own colonist's route, or swap two colonists (legal at the table,
  ruling 35), are recorded as the engine's one sequence with the same end places (`_direct_moves`).

The steps come back in the order applied: the canonical order, which is what a game file records.
"""
from __future__ import annotations

from dataclasses import dataclass

from .. import core
from .errors import GameError, NotationError
from .vocabulary import ActionType, move_type

WINDOW = 12       # a step moves at most this many places earlier (a turn has fewer sub-decisions)
BUDGET = 4000     # texts tried in all before giving up (every failing order is tried once)


@dataclass(frozen=True)
class Step:
    text: str            # canonical notation, as recorded
    turn: int            # the turn number it was played in
    note: str = ""       # why it was applied without being typed (a forced reveal), else ""


class EntryError(GameError):
    """No order of the texts fits: names the text (its index in the input) that could not be placed."""

    def __init__(self, index: int, text: str, reason: str, placed: int):
        super().__init__(reason)
        self.index, self.text, self.reason, self.placed = index, text, reason, placed


@dataclass
class _Node:
    game: object
    pending: tuple[int, ...]      # input indices not yet applied, in input order
    steps: list[Step]
    tried: int = 0                # how many of pending's first candidates were tried from here


def forced_reveals(game) -> list[Step]:
    """Apply reveals that have one possible card; returns them as steps."""
    out = []
    while game.decider == core.CHANCE:
        legal = game.legal_moves()
        if len(legal) != 1:
            break
        text = game.text(legal[0])
        deck = text.rsplit("/", 1)[-1]
        turn = game.state.turns
        game.apply(legal[0])
        out.append(Step(text, turn, f"the only card left in deck {deck}"))
    return out


def _apply_text(game, text: str) -> list[Step]:
    """Apply one text; a forced reveal waiting before it is applied first unless the text names it."""
    before = []
    try:
        code = game.parse(text)
    except NotationError:
        before = forced_reveals(game)
        if not before:
            raise
        code = game.parse(text)
    turn = game.state.turns
    step = Step(game.text(code), turn)
    game.apply(code)
    return before + [step]


def place(game, texts: list[str], finish: bool = True, _direct: bool = True):
    """(game after the texts, the steps applied in order) for the first order of `texts` that fits.

    With `finish`, forced reveals after the last text are applied too (a replay of recorded moves leaves
    them, as they were recorded whenever they happened). `game` is not changed. Raises EntryError for the
    text that could not be placed where the search got furthest, with the engine's reason there."""
    root = _Node(game.clone(), tuple(range(len(texts))), [])
    stack = [root]
    best = root
    seen: set = set()             # (texts left, state): a second way there leads nowhere new
    budget = BUDGET
    while stack:
        node = stack[-1]
        if not node.pending:
            return node.game, node.steps + (forced_reveals(node.game) if finish else [])
        if node.tried >= min(WINDOW, len(node.pending)) or budget <= 0:
            stack.pop()
            continue
        i = node.pending[node.tried]
        node.tried += 1
        budget -= 1
        g = node.game.clone()
        turn = g.state.turns
        try:
            steps = _apply_text(g, texts[i])
        except (GameError, NotationError):
            continue
        rest = tuple(j for j in node.pending if j != i)
        if (g.state.turns != turn or g.is_over) and rest and rest[0] < i:
            continue      # the turn would end with an earlier text still unplaced
        key = (rest, _key(g))
        if key in seen:
            continue
        seen.add(key)
        child = _Node(g, rest, node.steps + steps)
        stack.append(child)
        if len(child.pending) < len(best.pending):
            best = child
    direct = _direct_moves(game, texts) if _direct else None
    if direct is not None:
        try:
            return place(game, direct, finish, _direct=False)
        except EntryError:
            pass
    # report the first text refused in the state the search got furthest in
    for i in best.pending:
        try:
            _apply_text(best.game.clone(), texts[i])
        except (GameError, NotationError) as e:
            raise EntryError(i, texts[i], _as_typed(game, texts, i) or str(e), len(best.steps)) from None
    i = best.pending[0]
    raise EntryError(i, texts[i], f"{texts[i]!r} would come after the end of the turn it was given in",
                     len(best.steps))


def _as_typed(game, texts: list[str], i: int) -> str | None:
    """Why text i is refused after the texts typed before it, in the order typed: the coins and goods the
    player saw (`buy 5 tool` then `buy 1 food`: the coins before the food was bought, though the food is
    bought first in the canonical order). None when those texts do not fit or text i fits after them."""
    if i == 0:
        return None
    try:
        g, _ = place(game, texts[:i], finish=False, _direct=False)
        _apply_text(g, texts[i])
    except EntryError:
        return None
    except (GameError, NotationError) as e:
        return str(e)
    return None


def _is_move(text: str) -> bool:
    words = text.split()
    return len(words) > 1 and "move".startswith(words[0].lower())


def _places(state, seat: int) -> tuple:
    locs = [state.colonist_location(seat, i) for i in range(6)]
    return tuple(sorted(locs[:3])), tuple(sorted(locs[3:]))


def _direct_moves(game, texts: list[str]) -> list[str] | None:
    """The texts with an Architect's given moves replaced by the canonical sequence to the same end places,
    or None. The moves (from the first move text to the next `done`) are applied in the order given under
    the rules' any-order reading (`core.set_all_orders`: chains and swaps allowed, occupancy judged at the
    end); the engine's movement tree has one sequence to those places."""
    moves = [i for i, t in enumerate(texts) if _is_move(t)]
    if not moves:
        return None
    first = moves[0]
    end = next((i for i in range(first, len(texts)) if texts[i].strip().lower() == "done"), len(texts))
    moves = [i for i in moves if i < end]
    try:
        g, _ = place(game, texts[:first], finish=False, _direct=False)
    except EntryError:
        return None
    if g.phase != "architect-move":
        return None
    seat = g.state.turn_player
    free = g.clone()
    core.set_all_orders(True)
    try:
        for i in moves:
            free.apply(texts[i])
    except (GameError, NotationError):
        return None
    finally:
        core.set_all_orders(False)
    target = _places(free.state, seat)
    stack = [(g.state.copy(), [])]
    while stack:     # the canonical movement tree: one sequence per set of end places
        s, path = stack.pop()
        if _places(s, seat) == target:
            break
        for a in s.legal_actions():
            if move_type(a) == ActionType.MOVE:
                text = type(g)(s, g.names).text(a)
                t = s.copy()
                t.apply(a)
                stack.append((t, path + [text]))
    else:
        return None
    return texts[:first] + path + [t for i, t in enumerate(texts) if i > first and i not in moves]


def _key(game) -> bytes:
    return game.state.key()
