"""Force or forbid one card purchase: a wrapper around the treated seat's bot.

The treatment begins at the treated seat's first turn in which a card of the chosen kind is
affordable (see afford.py), counting from the seat's `from_round`-th turn (default: its first).
Until then the wrapper only passes the decisions on, so both arms of an experiment play the very
same game up to that turn.

- FORCE: in that turn the seat plays the Senator or Consul (or the Diplomat copying one) and buys the
  card, then the bot finishes the turn (a Senator's second purchase, or `done`) and plays the rest of
  the game as it likes (it may buy more copies later). When several routes reach the card, the one
  that pays least at market prices is taken (the Consul pays no position surcharge); on a tie, the
  Senator before the Consul before a Diplomat's copy, then the leftmost display position.
- FORBID: from then on the seat never buys a card of that kind. A Diplomat's copy of a Senator or
  Consul that could buy only such cards counts as buying one: a copied card offers no `done` before its
  first decision (that outcome is the Diplomat's own `done`). In a turn where one is affordable:
  - search bots (ismcts, flatmc) search the real position, and when their best move buys the card,
    the best-ranked allowed move is taken instead. Lookahead bias: the search's tree and playouts still
    let the seat buy the card later, so it values its future a little too highly, and it may play a
    Senator for the card and then have to spend it on something else;
  - the other bots (heuristic, greedy, random) choose in a copy of the position whose display slots
    holding the card are empty, so their whole-turn plan never counts on it. The copy's refill at the
    end of the turn differs from the real one, which the heuristic's evaluation does not look at.
"""
from __future__ import annotations

from ...ai.bots import Bot, FlatMCBot, IsmctsBot
from ...engine.game import Game
from ...engine import vocabulary
from ... import core
from ...engine.vocabulary import ActionType
from .afford import card_kind, routes, turn_starts

FORCE, FORBID = "force", "forbid"
ARMS = (FORCE, FORBID)
VIA_ORDER = ("Senator", "Consul", "Diplomat>Senator", "Diplomat>Consul")


class Intervention(Bot):
    """The treated seat's bot: `inner` with a card kind forced (arm FORCE) or forbidden (arm FORBID)."""
    kind = "intervention"

    def __init__(self, inner: Bot, card: int, arm: str, from_round: int = 1):
        if arm not in ARMS:
            raise ValueError(f"arm {arm!r}; valid: {', '.join(ARMS)}")
        super().__init__(inner.seed)
        self.inner, self.card, self.arm, self.from_round = inner, card, arm, from_round
        self.trigger: dict | None = None      # the first turn the card was affordable: turn, round
        self.forced: dict | None = None       # the forced purchase: card, slot, via, paid
        self.rounds = 0
        self._plan: list[int] = []
        self._affordable = False              # a card of the kind is affordable in the current turn

    def __repr__(self):
        return f"{self.arm}({vocabulary.rules().kinds[self.card].label}, {self.inner!r})"

    # ------------------------------------------------------------ decisions
    def choose(self, game) -> int:
        if turn_starts(game.state):
            self._new_turn(game.state)
        if self._plan:
            return self._plan.pop(0)
        if self.arm == FORBID and self._affordable:
            return self._choose_without(game)
        return self.inner.choose(game)

    def _new_turn(self, state) -> None:
        self.rounds += 1
        if self.rounds < self.from_round:     # before the treatment window: the bot alone
            self._affordable = False
            return
        hits = [(r, slot, moves) for r in routes(state) for slot, moves in r.buys.items()
                if card_kind(state.display_card(slot)) == self.card]
        self._affordable = bool(hits)
        if not hits or self.trigger is not None:
            return
        self.trigger = dict(turn=state.turns, round=self.rounds)
        if self.arm == FORCE:
            paid, route, slot, move = min(
                ((_payment(state, r.prelude, m), r, slot, m) for r, slot, moves in hits for m in moves),
                key=lambda x: (_coins(x[0]), VIA_ORDER.index(x[1].via), x[2]))
            self._plan = list(route.prelude) + [move]
            self.forced = dict(card=state.display_card(slot), slot=slot, via=route.via, paid=paid,
                               coins=_coins(paid))

    def _buys_it(self, state, move: int) -> bool:
        t, slot, _ = core.decode(move)
        return t == ActionType.CARD and card_kind(state.display_card(slot)) == self.card

    def _banned(self, game) -> set[int]:
        """The purchases of the kind, and a Diplomat's copy of a Senator or Consul that leaves only such
        purchases: a copied card has no `done` before its first decision (the Diplomat's own `done` is
        that outcome), so after that copy the card would have to be bought."""
        out = set()
        for m in game.legal_moves():
            t, _, _ = core.decode(m)
            if self._buys_it(game.state, m):
                out.add(m)
            elif t == ActionType.COPY:
                after = game.state.copy()
                after.apply(m)
                if after.turns == game.state.turns and after.decider == game.state.decider:
                    then = after.legal_actions()
                    if then and all(self._buys_it(after, x) for x in then):
                        out.add(m)
        return out

    def _choose_without(self, game) -> int:
        banned = self._banned(game)
        if not banned:
            return self.inner.choose(game)
        allowed = [m for m in game.legal_moves() if m not in banned]
        if len(allowed) == 1:
            return allowed[0]
        if isinstance(self.inner, (IsmctsBot, FlatMCBot)):
            return next((m for m in _ranked(self.inner, game) if m not in banned), allowed[0])
        move = self.inner.choose(_masked(game, self.card))
        return move if move in allowed else allowed[0]


def _ranked(bot: Bot, game) -> list[int]:
    """A search bot's moves, best first (the order its own choice takes the first of)."""
    from ...ai.search import SearchConfig, search
    if isinstance(bot, IsmctsBot):
        return [c.move for c in search(game, SearchConfig(**bot.options, seed=bot.next_seed())).candidates]
    cfg = SearchConfig(**bot.options, seed=bot.next_seed())
    stats, _ = core.flat_monte_carlo(game.state, cfg.core_dict(players=game.n_players))
    legal = game.legal_moves()
    return [s[0] for s in sorted(stats, key=lambda s: (-s[2], legal.index(s[0])))]


def _masked(game, card_kind_index: int):
    """A copy of the game whose display slots holding a card of the kind are empty."""
    data = game.state.export()
    data["display"] = [c if c < 0 or card_kind(c) != card_kind_index else -1 for c in data["display"]]
    return Game(core.CoreState.load(data), game.names)


def _payment(state, prelude, move) -> list[int]:
    """The goods a purchase costs (by good), read off a copy of the state."""
    s = state.copy()
    for m in prelude:
        s.apply(m)
    seat = state.turn_player
    before = s.export()["players"][seat]["goods"]
    s.apply(move)
    after = s.export()["players"][seat]["goods"]
    return [b - a for b, a in zip(before, after)]


def _coins(paid: list[int]) -> int:
    return sum(n * p for n, p in zip(paid, vocabulary.rules().price))
