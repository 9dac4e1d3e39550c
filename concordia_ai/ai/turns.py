"""Whole turns: a player's run of sub-decisions until their turn ends, as people think of a move.

A turn ends when the turn counter moves on, another seat (or chance: a card revealed into the display)
decides, or the game ends. This module reads turns from text, from a game's history and from a search
(concordia_ai.ai.search.TurnCandidate), and judges an intended turn against the search's best.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..engine import step_order
from ..engine.errors import GameError, NotationError
from ..engine.game import CHANCE, Game
from . import search as _search
from .search import SearchResult, TurnCandidate, _cached_key, settled, turn_end_key

MAX_OWN_TURNS = 3    # a principal variation shows at most this many turns of the player to move


def turn_over(game: Game, seat: int, turn: int) -> bool:
    """Has `seat`'s run of decisions that began at turn counter `turn` ended?"""
    return game.is_over or game.decider != seat or game.state.turns != turn


def parse_turn(game: Game, text: str) -> list[int]:
    """The moves of one whole turn typed as 'play Architect; move ...; build ...; done'.

    Raises NotationError naming the bad step, a turn that stops early, or moves past the turn's end."""
    parts = [p.strip() for p in text.split(";") if p.strip()] if isinstance(text, str) else []
    if not parts:
        raise NotationError("--move: give a whole turn, its moves separated by ';' "
                            "(e.g. \"play Prefect; produce Italia\")")
    if game.decider is None or game.decider == CHANCE:
        raise NotationError("--move: no player decides now")
    seat, turn = game.decider, game.state.turns
    g = game.clone()
    g.state.set_chance(False, True)     # stop before any reveal: those are not the player's
    try:
        # steps typed in another order (builds, trades, colonist moves) become the engine's canonical order
        _, steps = step_order.place(g, parts, finish=False)
        parts = [st.text for st in steps]
    except (GameError, NotationError):
        pass                            # the step-by-step pass below names the step that does not fit
    codes = []
    for i, part in enumerate(parts):
        if turn_over(g, seat, turn):
            raise NotationError(f"--move: the turn ends after {parts[i - 1]!r} (move {i} of {len(parts)}); "
                                f"{part!r} and what follows belong to the next decision")
        try:
            code = g.parse(part)
        except (GameError, NotationError) as e:
            raise NotationError(f"--move: move {i + 1} of {len(parts)} {part!r}: {e}") from None
        codes.append(code)
        g.state.apply(code)
    if not turn_over(g, seat, turn):
        legal = ", ".join(g.text(m) for m in g.legal_moves())
        raise NotationError(f"--move: the turn is not finished after {parts[-1]!r}: {game.names[seat]} still "
                            f"decides ({g.phase}); continue with one of: {legal}")
    return codes


# ---------------------------------------------------------------- history

@dataclass
class RecordedTurn:
    """One player's recorded run of decisions: moves[start:end] of the game file."""
    index: int               # 0-based among the recorded turns
    start: int
    end: int
    seat: int
    turn: int                # the turn counter when it began (0-based)
    texts: list[str]
    forced: bool             # every step had a single legal move: nothing to judge


def recorded_turns(initial: Game, moves: list[str]) -> list[RecordedTurn]:
    """Split a game file's moves into turns (reveals entered at a real table belong to none).

    A turn left unfinished at the end of the file is not included."""
    g = initial.clone()
    out: list[RecordedTurn] = []
    cur = None
    for i, text in enumerate(moves):
        if g.decider == CHANCE:
            g.apply(text)
            continue
        if cur is None:
            cur = dict(start=i, seat=g.decider, turn=g.state.turns, texts=[], forced=True)
        if len(g.legal_moves()) > 1:
            cur["forced"] = False
        code = g.parse(text)
        cur["texts"].append(g.text(code))
        g.apply(code)
        if turn_over(g, cur["seat"], cur["turn"]):
            out.append(RecordedTurn(len(out), cur["start"], i + 1, cur["seat"], cur["turn"], cur["texts"],
                                    cur["forced"]))
            cur = None
    return out


def game_before(initial: Game, moves: list[str], rt: RecordedTurn) -> Game:
    g = initial.clone()
    for text in moves[:rt.start]:
        g.apply(text)
    return g


# ---------------------------------------------------------------- what a turn does

def turn_effect(game: Game, moves: list[int]) -> dict:
    """The deciding player's coins, goods, houses and VP now before and after the turn's moves."""
    seat = game.decider
    g = game.clone()
    g.state.set_chance(False, True)
    before = _holdings(g, seat)
    for a in moves:
        g.state.apply(a)
    after = _holdings(g, seat)
    return {k: {"before": before[k], "after": after[k]} for k in before}


def _holdings(game: Game, seat: int) -> dict:
    p = game.to_json()["players"][seat]
    out = {"coins": p["coins"]}
    out.update({f"goods.{g}": n for g, n in p["goods"].items()})
    out["houses"] = len(p["houses"])
    out["vp_now"] = game.scores()[seat]["total"]
    return out


def line_after(game: Game, turn: TurnCandidate, own_turns: int = MAX_OWN_TURNS) -> list[dict]:
    """The most visited line after a candidate turn, cut into turns labelled by who decides:
    [{"who": "Bob", "turn": 2, "moves": [...]}, ...]; it stops before the player's own `own_turns`-th
    turn counting the candidate itself. Reveals show as moves of 'chance'."""
    seat = game.decider
    g = game.clone()
    g.state.set_chance(False, True)
    for a in turn.moves:
        g.state.apply(a)
    segments: list[dict] = []
    own, own_turn = 1, game.state.turns
    for a in turn.after:
        if not g.state.is_legal(a):
            break
        who = "chance" if g.decider == CHANCE else g.names[g.decider]
        number = g.state.turns + 1
        if g.state.turn_player == seat and g.state.turns != own_turn:
            own, own_turn = own + 1, g.state.turns
            if own > own_turns:
                break
        if not segments or segments[-1]["who"] != who or segments[-1]["turn"] != number:
            segments.append({"who": who, "turn": number, "moves": []})
        segments[-1]["moves"].append(g.text(a))
        g.state.apply(a)
    return segments


# ---------------------------------------------------------------- judging a turn

@dataclass
class Judgement:
    """An intended turn against the search's best, from the player's side."""
    best: TurnCandidate
    turn: TurnCandidate | None       # the intended turn's statistics (None: the search never tried it)
    rank: int | None                 # 1-based place in the search's list of whole turns
    in_list: bool                    # the turn is in the list (always, unless the search stopped first)
    candidates: int
    source: str                      # "candidates", or "not reached" (the search stopped first)
    notes: list[str] = field(default_factory=list)

    @property
    def loss_win(self) -> float | None:
        return None if self.turn is None else max(0.0, self.best.win - self.turn.win)

    @property
    def loss_vp(self) -> float | None:
        return None if self.turn is None else max(0.0, self.best.vp - self.turn.vp)


def judge_turn(game: Game, moves: list[int], result: SearchResult) -> Judgement:
    """Rank and loss of the intended turn `moves` in `result`, a search of `game` that named it
    (search(game, config, named=[moves])): the turn joined the final choice's candidates and was searched
    beside them in the same tree, so its rank and figures are the ones it has in the list (the way
    KataGo's allowMoves adds a move to the root). A turn reached in another order of the same steps is
    the same turn."""
    if not result.turns:
        raise GameError("the search found no whole turn (budget too small?)")
    best = result.turns[0]
    key = turn_end_key(game, moves)
    for i, t in enumerate(result.turns):
        if _cached_key(game, t) == key:
            return Judgement(best, t, i + 1, True, len(result.turns), "candidates")
    return Judgement(best, None, None, False, len(result.turns), "not reached",
                     notes=["the search stopped before it reached the turn (stopped early, or out of memory)"])


# ---------------------------------------------------------------- how firm a hint is

MIN_VISITS = 200     # fewer visits on the top turn: say that the answer is thin


def distinct_pcts(x: float, y: float) -> tuple[str, str]:
    """Two win shares as percentages with as many decimals as it takes (1 to 3) for them to read apart, so a
    sentence that says one is higher never shows two equal numbers."""
    for places in (1, 2, 3):
        a, b = f"{100 * x:.{places}f}", f"{100 * y:.{places}f}"
        if a != b:
            break
    return a, b


def hint_warnings(turns: list[TurnCandidate], searches: int = 1, min_visits: int = MIN_VISITS) -> list[str]:
    """Sentences that say when the search's answer is thin or unstable (empty when it is firm)."""
    if not turns:
        return ["The search found no whole turn: give it more time (--time) or iterations."]
    top = turns[0]
    out = []
    if 0 < top.visits < min_visits:
        out.append(f"Few visits: the top turn has only {top.visits} (under {min_visits}); its numbers are "
                   f"rough. Give the search more time (--time) for a firmer answer.")
    if settled(turns):
        side = "cannot lose" if top.win >= 0.5 else "cannot win"
        out.append(f"Settled: by this search the player {side} (win % {100 * top.win:.1f}); the turns are ranked "
                   f"by expected VP instead.")
    elif len(turns) > 1:
        second = turns[1]
        pct = lambda x: f"{100 * x:.1f}"  # noqa: E731
        gap = top.win - second.win
        noise = math.hypot(top.win_se, second.win_se)
        z = _search.TIE_Z               # read at call time: the final pick's own tie rule (search.final_pick)
        margin = _search.tie_margin(top, second)
        tied = abs(gap) <= margin
        # the margin the pick used: z standard errors (noise), or the rule's floor where that is wider (not noise:
        # a width the final choice treats as a tie, so that its pick holds from seed to seed)
        if z * noise >= margin:
            within = f"within noise of each other ({z:g} standard errors of the difference: {pct(margin)} points"
        else:
            within = (f"within the final choice's tie floor of {pct(margin)} points (wider here than {z:g} standard "
                      f"errors of the difference")
        if top.chosen and gap < 0:
            if tied:
                why = (f"the two are {within}), and between such turns the final choice keeps the one whose end "
                       f"position the search's evaluation rates higher")
            else:
                why = (f"#2 dropped out of the final choice in an earlier round, and its figure rests on fewer "
                       f"visits ({second.visits} against {top.visits})")
            a, b = distinct_pcts(second.win, top.win)
            out.append(f"#1 is the final choice's turn although #2 shows a higher win % ({a} against {b}): {why}.")
        elif tied:
            # the final pick's tie rule (search.final_pick): the shown errors are smaller than the spread between
            # searches, so a gap inside it is one another search may reverse
            out.append(f"Close: the top two turns differ by {pct(abs(gap))} win % points, {within}, the final "
                       f"choice's tie); by this search either is about as good.")
    if searches > 1 and top.tops < searches and not settled(turns):
        out.append(f"The {searches} independent searches did not all choose this turn ({top.tops} of them did); "
                   f"their statistics are pooled and the choice is made on the pooled figures, but more time "
                   f"may change it.")
    if top.partial:
        out.append(f"The search explored only the first {top.tree_moves} of the top turn's {len(top.moves)} "
                   f"moves; the rest is the greedy continuation.")
    n = len(top.seats)
    if n > 2 and top.win >= 1 / n and top.margin < 0 and not settled(turns):
        # a favourite with a negative margin reads as a contradiction; it is not (the best of the others is a
        # maximum of uncertain scores, far above any one seat's expectation when the spread is wide)
        out.append(f"The margin is over the best of the {n - 1} others, whoever that turns out to be. While the "
                   f"final scores are this uncertain, the best of them is likely to end ahead, so even a favourite "
                   f"(win % {100 * top.win:.1f}, against a fair {100 / n:.1f}) expects a negative margin. Compare "
                   f"turns by win %.")
    return out
