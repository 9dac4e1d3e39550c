"""The Python face of one game: create, list legal moves, apply moves (codes or notation), score, save.

    >>> g = Game.new("imperium", players=4, seed=1)
    >>> g.apply("play architect")            # notation, case-insensitive, prefixes accepted
    >>> [g.text(m) for m in g.legal_moves()][:3]
    >>> g.scores()[0]["total"]               # 'if the game ended now'

Moves are the core's integer codes; `text()` and `parse()` translate them (concordia_ai.engine.notation).
"""
from __future__ import annotations

import json
from typing import Any

from . import layout, limits, vocabulary, notation, position
from .player_names import name_problem
from .. import core
from .vocabulary import GODS
from .content import BOARD_NAMES
from .errors import GameError, NotationError  # noqa: F401  (re-exported)

CHANCE = core.CHANCE
SCORE_COLUMNS = GODS + ("Concordia", "Squares", "total")


class Game:
    def __init__(self, state: core.CoreState, names: list[str]):
        self.state = state
        self.names = list(names)
        self.board = vocabulary.board_by_id(state.board_id)
        self.rules = vocabulary.rules()

    # ---------------------------------------------------------------- creation
    @classmethod
    def new(cls, board: str = "imperium", players: int = 4, seed: int = 0, names: list[str] | None = None,
            wine_variant: bool = False, intermediate_scoring: bool = False) -> "Game":
        """A simulated game: layout and stack order drawn from `seed` (same seed, same game)."""
        b = _board(board)
        if not isinstance(players, int) or not 2 <= players <= core.MAX_PLAYERS:
            raise GameError(f"players: {players!r}; a game has 2 to {core.MAX_PLAYERS} players")
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2 ** 64:
            raise GameError(f"seed: {seed!r}; a seed is an integer in 0..2^64-1")
        names = _names(names, players)
        options = (core.OPTION_WINE_VARIANT if wine_variant else 0) | \
                  (core.OPTION_INTERMEDIATE if intermediate_scoring else 0)
        return cls(core.CoreState.new(b.id, players, seed, options), names)

    @classmethod
    def from_table(cls, board: str, players: int, cities: dict[str, str], display: list[str],
                   names: list[str] | None = None, wine_variant: bool = False,
                   intermediate_scoring: bool = False) -> "Game":
        """A real table's layout: every city's good and the seven display cards as seen, checked by
        engine/layout.py (a LayoutError names the field at fault) and then as `position check` checks.

        The order of the stack is unknown: each card revealed later is entered as a chance move."""
        b = _board(board)
        if not isinstance(players, int) or not 2 <= players <= core.MAX_PLAYERS:
            raise GameError(f"players: {players!r}; a game has 2 to {core.MAX_PLAYERS} players")
        if names is not None:
            names, _ = layout.names(names, players)
        cities = layout.cities(b, cities)
        g = cls.new(board, players, 0, names, wine_variant, intermediate_scoring)
        chosen = layout.display(players, display)
        pos = g.to_json()
        pos["cities"] = cities
        pos["provinces"] = _markers(g.board, cities, g.rules.goods)
        used = set(vocabulary.NUMERALS[:players])
        unseen: dict[str, list[str]] = {}
        for m in g.rules.market:
            if m.numeral not in used:
                continue
            if m.label not in chosen:
                unseen.setdefault(m.numeral, []).append(m.name)
        pos["display"] = chosen
        pos["unseen"] = unseen
        pos["stack_order"] = None
        pos["chance"] = "external"
        try:      # then the strict check of `concordia position check`
            return cls.from_json(pos, strict=True)
        except position.PositionError as e:
            field = layout.field_of(e.path)
            if field:
                raise layout.LayoutError(field, f"{e.path.replace('$.', '')}: {e.message}") from None
            raise GameError(f"{e.path.replace('$.', '')}: {e.message}") from None

    @classmethod
    def from_json(cls, data: Any, strict: bool = False) -> "Game":
        """A game from a position (dict or JSON text); `strict` demands every card be accounted for.

        Bad input of any kind raises GameError (PositionError, naming the JSON path, for a bad field)."""
        if isinstance(data, (str, bytes, bytearray)):
            try:
                data = json.loads(data)
            except json.JSONDecodeError as e:
                raise GameError(f"the position is not valid JSON (line {e.lineno}, column {e.colno}: "
                                f"{e.msg})") from None
            except ValueError:          # bytes that are not UTF-8
                raise GameError("the position is not valid JSON (not UTF-8 text)") from None
            except RecursionError:
                raise GameError("the position is nested too deeply to be a position") from None
        state, names = position.load(data, strict)
        return cls(state, names)

    def to_json(self) -> dict:
        return position.dump(self.state, self.names)

    def clone(self) -> "Game":
        return Game(self.state.copy(), self.names)

    # ---------------------------------------------------------------- queries
    @property
    def n_players(self) -> int:
        return self.state.n_players

    @property
    def decider(self) -> int | None:
        """Seat that decides now, CHANCE for a card revealed from the stack, None when the game is over."""
        d = self.state.decider
        return None if d == core.NOBODY else d

    @property
    def decider_name(self) -> str:
        d = self.decider
        return "nobody (game over)" if d is None else ("chance" if d == CHANCE else self.names[d])

    @property
    def phase(self) -> str:
        return self.state.phase_name

    @property
    def is_over(self) -> bool:
        return self.state.is_over

    def legal_moves(self) -> list[int]:
        return self.state.legal_actions()

    def text(self, move: int) -> str:
        """The notation of a move code (legal or not in the current state); GameError for a non-move."""
        if not _is_code(move):
            raise GameError(f"move code {move!r} is not a move code (an integer from legal_moves())")
        try:
            return notation.move_text(self, move)
        except (IndexError, KeyError, ValueError):
            raise GameError(f"move code {move} is not a move of this game") from None

    def parse(self, text: str) -> int:
        if not isinstance(text, str):
            raise NotationError(f"a move is text in notation such as 'play Architect', not {text!r}")
        return notation.parse_move(self, text)

    def apply(self, move: int | str) -> int:
        """Apply a move given as a code or in notation; GameError names the reason and the legal moves."""
        code = self.parse(move) if isinstance(move, str) else move
        if not _is_code(code) or not self.state.is_legal(code):
            legal = ", ".join(self.text(m) for m in self.legal_moves())
            raise GameError(f"illegal move {move!r}; legal now: {legal}")
        self.state.apply(code)
        return code

    def scores(self) -> list[dict[str, int]]:
        """Per player, VP by god plus Concordia, special squares and total, as if the game ended now."""
        return [dict(zip(SCORE_COLUMNS, row)) for row in self.state.scores()]

    def ranking(self) -> list[int]:
        """Seats best first, ties broken by the Praefectus Magnus order."""
        return self.state.ranking()

    def __repr__(self) -> str:
        return f"<Game {self.board.name} {self.n_players}p turn {self.state.turns} {self.phase} {self.decider_name}>"


def _is_code(move) -> bool:
    """An integer the core can take as a move code (a bool is not a move)."""
    return isinstance(move, int) and not isinstance(move, bool) and 0 <= move < 2 ** 31


def _board(name: str) -> vocabulary.CompiledBoard:
    if not isinstance(name, str) or name.strip().lower() not in BOARD_NAMES:
        raise GameError(f"unknown board {name!r}; valid: {', '.join(BOARD_NAMES)}")
    return vocabulary.board(name.strip().lower())


def _names(names, players):
    if names is None:
        return [f"P{i + 1}" for i in range(players)]
    names = [str(n).strip() for n in names]
    for n in names:
        problem = name_problem(n)
        if problem:
            raise GameError(f"names: {limits.shown(n)} {problem}")
    if len(names) != players or len(set(n.lower() for n in names)) != players or not all(names):
        raise GameError(f"names: give {players} distinct, non-empty player names")
    return names


def _markers(board: vocabulary.CompiledBoard, cities: dict[str, str], goods) -> dict:
    """Each province's marker is its most valuable city good (goods side up)."""
    out = {}
    lower = {k.lower(): v for k, v in cities.items()}
    for v, pname in enumerate(board.provinces):
        best = None
        if v != board.variable_province:
            for c, cname in enumerate(board.cities):
                if board.city_province[c] == v:
                    g = str(lower.get(cname.lower(), "")).lower()
                    if g in goods and (best is None or goods.index(g) > goods.index(best)):
                        best = g
        out[pname] = {"marker": best, "side": "goods"}
    return out
