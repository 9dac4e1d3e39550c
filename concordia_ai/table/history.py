"""The moves of a tracked game grouped into turns: who played which card, and every step after it.

A turn is every move made while the position's turn counter (`turn.number`) stays the same: the card
played, its steps, `done`, the cards revealed into the display afterwards and other players' storehouse
choices. `log` prints these turns and `undo --turn` takes back the last one.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..engine.game import CHANCE, Game
from ..engine.notation import played_card
from ..engine.vocabulary import ActionType, Phase, move_type


@dataclass(frozen=True)
class Step:
    index: int          # 0-based index of the move in the game file's list of moves
    text: str
    decider: str        # the player who chose it, or "chance" for a card revealed from the stack
    type: ActionType | None = None    # the kind of move (from its code, never from the text)

    @property
    def reveal(self) -> bool:
        return self.decider == "chance"


@dataclass
class Turn:
    number: int                 # turns completed before this one (the position's turn.number)
    round: int                  # 1-based round (number // players + 1)
    player: str                 # whose turn it is
    card: str | None            # the card played ("Architect", "Diplomat"); None if not played yet
    steps: list[Step] = field(default_factory=list)   # every move of the turn, the card's "play" included
    begun_before: bool = False  # the game file starts inside this turn (a mid-turn starting position)
    complete: bool = True       # the turn ended within the recorded moves

    @property
    def first_move(self) -> int:
        return self.steps[0].index


def turns(initial: Game, moves: list[str]) -> list[Turn]:
    """The turns of `moves` played from `initial` (moves already checked by loading the game file)."""
    g = initial.clone()
    out: list[Turn] = []
    card = _card_in_progress(g)
    for i, text in enumerate(moves):
        number = g.state.turns
        if not out or out[-1].number != number:
            begun_before = i == 0 and g.phase != "play"
            out.append(Turn(number, number // g.n_players + 1, g.names[g.state.turn_player],
                            card if begun_before else None, begun_before=begun_before))
        turn = out[-1]
        decider = "chance" if g.decider == CHANCE else g.names[g.decider]
        phase = g.state.phase
        code = g.parse(text)
        if phase == Phase.PLAY and move_type(code) == ActionType.PLAY:
            turn.card = played_card(g, code)
        turn.steps.append(Step(i, text, decider, move_type(code)))
        g.apply(code)
    if out and not g.is_over and g.state.turns == out[-1].number:
        out[-1].complete = False
    return out


def turn_json(t: Turn) -> dict:
    """A turn as `concordia log --json` prints it (and the board's /api/history serves it): moves numbered
    from 1 as in the file."""
    return {"turn": t.number + 1, "round": t.round, "player": t.player, "card": t.card,
            "first_move": t.first_move + 1, "complete": t.complete, "begun_before": t.begun_before,
            "steps": [{"move": s.index + 1, "text": s.text, "decider": s.decider, "reveal": s.reveal}
                      for s in t.steps]}


def _card_in_progress(g: Game) -> str | None:
    """The card being resolved in a position that starts inside a turn (the copied card after a Diplomat)."""
    return g.to_json()["turn"]["card"] if g.phase not in ("play", "over") else None
