"""What `concordia play` prints for the steps it recorded: who each step was recorded for and in which
turn, and what the table should be told when it happens (the Concordia card, a new Praefectus Magnus,
intermediate scoring, the end of the game with the final scores).

At a table a step recorded for the wrong player goes unnoticed unless every line names the player;
an announcement is what a person would otherwise have to spot in `show`.
"""
from __future__ import annotations

from ..engine.game import CHANCE, Game
from . import history


def lines(before: Game, steps, verb: str = "played", results: bool = False) -> list[str]:
    """The output lines for `steps` (step_order.Step, in the order applied) played from `before`;
    `verb` starts each line ("redone" for `redo`). With `results` (the board's log), what a step gave that
    the table cannot see in the move's text (a Tribune's cards back and coins) follows it."""
    g = before.clone()
    out = []
    for step in steps:
        who = _who(g)
        old = g.to_json()
        g.apply(step.text)
        if step.note:
            out.append(f"revealed: {step.text.removeprefix('reveal ')} ({step.note}), {who}")
        else:
            out.append(f"{verb}: {step.text} ({who})")
        if results:
            out += [line for line in (tribune_result(old, g, step.text),) if line]
        out += announcements(old, g)
    return out


def tribune_result(old: dict, g: Game, text: str) -> str | None:
    """'announce: Ann's Tribune takes back 3 cards into hand (Architect, Prefect, Tribune) and 1 coin' after
    `play Tribune` (or a Diplomat's `copy Tribune`) from position `old`, else None."""
    verb, _, card = text.partition(" ")
    if verb not in ("play", "copy") or card.split("/")[0] != "Tribune":
        return None
    name = old["turn"]["player"]
    before = next(p for p in old["players"] if p["name"] == name)
    after = next(p for p in g.to_json()["players"] if p["name"] == name)
    held = dict(before["hand"])
    if verb == "play":                    # the Tribune left the hand and came back with the discard pile
        held[card] = held.get(card, 0) - 1
    back = [label for label, n in after["hand"].items() for _ in range(max(0, n - held.get(label, 0)))]
    coins = after["coins"] - before["coins"]
    return (f"announce: {name}'s Tribune takes back {len(back)} card{'s' if len(back) != 1 else ''} into hand "
            f"({', '.join(back) or 'none'}) and {coins} coin{'s' if coins != 1 else ''}")


def _who(g: Game) -> str:
    """'Ann, turn 3, round 1', or for a step of someone else in the turn: 'Bob, in Ann's turn 3, round 1'."""
    turn = f"turn {g.state.turns + 1}, round {g.state.turns // g.n_players + 1}"
    player = g.names[g.state.turn_player]
    if g.decider == CHANCE:
        return f"turned up in {player}'s {turn}"
    decider = g.names[g.decider]
    return f"{decider}, {turn}" if decider == player else f"{decider}, in {player}'s {turn}"


def announcements(old: dict, g: Game) -> list[str]:
    """Lines for what changed for the whole table between position `old` and the game `g` now."""
    new = g.to_json()
    out = []
    if old["end"]["concordia"] is None and new["end"]["concordia"] is not None:
        holder = new["end"]["concordia"]
        houses = len(next(p for p in new["players"] if p["name"] == holder)["houses"])
        why = (f"{holder} built a {houses}th house" if houses >= g.rules.raw.houses_per_player
               else f"{holder} took the last card of the display")
        left = "" if g.is_over else f"; final turns left: {new['end']['final_turns_left']}"
        out.append(f"announce: the Concordia card goes to {holder} ({why}){left}")
    if old["praefectus_magnus"] != new["praefectus_magnus"]:
        out.append(f"announce: the Praefectus Magnus passes from {old['praefectus_magnus']} to "
                   f"{new['praefectus_magnus']}")
    if not old["intermediate_paid"] and new["intermediate_paid"]:
        vp = ", ".join(f"{p['name']} {p['intermediate_vp']}" for p in new["players"])
        out.append(f"announce: intermediate scoring: {vp} VP")
    if g.is_over and old["turn"]["phase"] != "over":
        scores = g.scores()
        ranking = ", ".join(f"{g.names[s]} {scores[s]['total']}" for s in g.ranking())
        out.append(f"announce: the game is over; final scores: {ranking} VP")
    return out


def repeated_turn(initial: Game, moves: list[str], first_new: int) -> str | None:
    """A warning when the last whole turn, entered from move `first_new` on, is move for move the turn
    just recorded for the previous player (the same command typed twice), else None."""
    turns = [t for t in history.turns(initial, moves) if t.complete]
    if len(turns) < 2:
        return None
    prev, last = turns[-2], turns[-1]
    if last.first_move < first_new or prev.player == last.player or prev.number + 1 != last.number:
        return None
    chosen = lambda t: [s.text for s in t.steps if not s.reveal]  # noqa: E731
    if chosen(prev) != chosen(last):
        return None
    n = initial.n_players
    return (f"warning: {last.player}'s turn {last.number + 1} (round {last.number // n + 1}) repeats "
            f"{prev.player}'s turn {prev.number + 1} move for move ({'; '.join(chosen(last))}); if the "
            f"command was typed twice, take it back with: concordia undo --turn")
