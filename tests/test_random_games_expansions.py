"""Random full games on the expansion boards Creta and Aegyptus, and the wine-variant option on every board.

Every game is played to the end from Python with `random.Random(seed)` choices; after EVERY step the core's
`invariant_errors()` and the expansion invariants below are checked. Random mid-game states go through the
position JSON (Game.to_json / Game.from_json) and must come back identical and play on identically.
"""

import random

import pytest

from concordia_ai.engine import vocabulary
from concordia_ai import core
from concordia_ai.engine.content import BOARD_NAMES
from concordia_ai.engine.game import Game

BOARDS = ("creta", "aegyptus")
PLAYERS = (2, 3, 4, 5)
GAMES_PER_CASE = 80             # 2 boards x 4 player counts x 80 = 640 full games (+ wine-variant games)
STEP_CAP = 20_000
RED_SEA = {"Aila", "Leuke Kome", "Berenice", "Myos Hormos", "Klysma", "Rhaithou", "FRANKINCENSE"}


def _where(board, n, seed, history):
    return f"board={board} players={n} seed={seed} step={len(history)} actions={history[-30:]}"


class Expansion:
    """Expansion invariants over an exported state; counts how often the special rules came into play."""

    def __init__(self, board):
        self.b = vocabulary.board(board)
        self.name = board
        self.seen = dict(squares=0, gavdos_produced=0, red_sea_colonist=0, nile_moved=0, frank_paid=0)
        b = self.b
        self.red_routes = {r for r, (a, e, sea, cap) in enumerate(b.routes) if sea and b.cities[a] in RED_SEA}
        self.red_cities = {b.cities.index(c) for c in RED_SEA if c in b.cities}
        self.square_count = None

    def check(self, s, prev=None):
        e = s.export()
        b = self.b
        errs = []
        on_squares = []
        for p, pl in enumerate(e["players"]):
            cols = pl["colonists"]
            sq = [c for c in cols if 0 <= c < core.ROUTE_OFFSET and c in b.squares]
            on_squares.append(len(sq))
            if any(c in b.squares for c in cols[:3]):
                errs.append(f"player {p}: a land colonist on a special square")
            if len(set(sq)) != len(sq):
                errs.append(f"player {p}: two colonists on one square")
            red = [c for c in cols[3:] if (c >= core.ROUTE_OFFSET and c - core.ROUTE_OFFSET in self.red_routes)
                   or (0 <= c < core.ROUTE_OFFSET and c in self.red_cities)]
            if red:
                self.seen["red_sea_colonist"] += 1
                if not self.red_cities & set(pl["houses"]):
                    errs.append(f"player {p}: a sea colonist in the Red Sea without a house there")
        scores = s.scores()
        vp = 7 if self.name == "aegyptus" else 0
        for p in range(len(scores)):
            if scores[p][7] != vp * on_squares[p]:
                errs.append(f"player {p}: Squares {scores[p][7]} for {on_squares[p]} colonists on squares")
        if self.square_count is not None:
            for p in range(len(scores)):
                if on_squares[p] < self.square_count[p]:
                    errs.append(f"player {p}: a colonist left a special square")
        self.square_count = on_squares
        if sum(on_squares):
            self.seen["squares"] += 1
        if b.variable_province >= 0:
            v = b.variable_province
            if e["marker_coin"][v] == 0 and e["marker_good"][v] != -1:
                errs.append("Gavdos: a marker on its goods side")
            if e["marker_coin"][v] == 1:
                if e["marker_good"][v] < 0:
                    errs.append("Gavdos: coin side without a marker")
                if prev is not None and prev["marker_coin"][v] == 0:
                    self.seen["gavdos_produced"] += 1
        if b.nile and prev is not None:
            if e["nile_pos"] != prev["nile_pos"]:
                self.seen["nile_moved"] += 1
                if e["nile_pos"] != (prev["nile_pos"] + 1) % len(b.nile):
                    errs.append("Nile marker did not move one province downstream")
        if b.frank_provinces and prev is not None:
            for p in range(len(scores)):
                gain = e["players"][p]["coins"] - prev["players"][p]["coins"]
                if p != e["turn_player"] and gain == 5 and on_squares[p]:
                    self.seen["frank_paid"] += 1
        return errs, e

    def reset(self):
        self.square_count = None


def play(board, n, seed, wine_variant=False, watcher=None):
    options = core.OPTION_WINE_VARIANT if wine_variant else 0
    s = core.CoreState.new(vocabulary.board(board).id, n, seed, options)
    rng = random.Random(seed)
    history = []
    watcher = watcher or Expansion(board)
    watcher.reset()
    errs, prev = watcher.check(s)
    assert errs == [] and s.invariant_errors() == []
    while not s.is_over:
        assert len(history) < STEP_CAP, "step cap reached: " + _where(board, n, seed, history)
        legal = s.legal_actions()
        assert legal, "dead end: " + _where(board, n, seed, history)
        a = rng.choice(legal)
        s.apply(a)
        history.append(a)
        errs = s.invariant_errors()
        assert errs == [], f"{errs}: " + _where(board, n, seed, history)
        errs, prev = watcher.check(s, prev)
        assert errs == [], f"{errs}: " + _where(board, n, seed, history)
    return s, history


def check_final(s, n, where):
    assert s.is_over and s.decider == core.NOBODY and s.legal_actions() == [], where
    scores = s.scores()
    for row in scores:
        assert row[8] == sum(row[:8]) and all(v >= 0 for v in row), where
    assert sum(1 for row in scores if row[6]) == 1, where
    order = s.ranking()
    assert sorted(order) == list(range(n))
    totals = [scores[p][8] for p in order]
    assert totals == sorted(totals, reverse=True), where


@pytest.mark.parametrize("board", BOARDS)
def test_random_full_games(board):
    watcher = Expansion(board)
    steps = []
    for n in PLAYERS:
        for g in range(GAMES_PER_CASE):
            seed = 700_000 + 1000 * n + g + (0 if board == "creta" else 50_000)
            s, history = play(board, n, seed, watcher=watcher)
            check_final(s, n, f"board={board} players={n} seed={seed}")
            with pytest.raises(ValueError):
                s.apply(history[-1])
            steps.append(len(history))
    assert min(steps) > 50
    # the special rules really came into play
    if board == "creta":
        assert watcher.seen["gavdos_produced"] > 100
    else:
        for key in ("squares", "red_sea_colonist", "nile_moved", "frank_paid"):
            assert watcher.seen[key] > 10, (key, watcher.seen)


@pytest.mark.parametrize("board", BOARD_NAMES)
def test_random_games_with_the_wine_variant(board):
    for n in PLAYERS:
        for g in range(10):
            seed = 900_000 + 100 * n + g
            s, _ = play(board, n, seed, wine_variant=True)
            check_final(s, n, f"wine variant board={board} players={n} seed={seed}")
            assert s.export()["options"] & core.OPTION_WINE_VARIANT


@pytest.mark.parametrize("board", BOARD_NAMES)
def test_wine_variant_surcharges_on_every_board(board):
    """Display position 4 (index 3) costs an extra cloth in the standard game and an extra wine in the
    wine variant; position 7 costs cloth+cloth vs wine+cloth."""
    rules = vocabulary.rules()
    for wine in (False, True):
        pos = Game.new(board, 3, seed=5, wine_variant=wine).to_json()
        assert pos["options"]["wine_variant"] is wine
        pos["players"][0]["goods"] = {"brick": 0, "food": 0, "tool": 0, "wine": 0, "cloth": 0}
        g = Game.from_json(pos)
        g.apply("play Senator")
        display = g.to_json()["display"]
        for slot in (3, 6):
            label = display[slot]
            card = next(m for m in rules.market if m.label == label)
            need = {good: card.cost[i] for i, good in enumerate(rules.goods)}
            extra = rules.surcharge["wine_variant" if wine else "standard"][slot]
            assert extra == (("wine",) if wine else ("cloth",)) if slot == 3 else \
                (("wine", "cloth") if wine else ("cloth", "cloth"))
            for x in extra:
                need[x] += 1
            pos2 = g.to_json()
            pos2["players"][0]["goods"] = need
            g2 = Game.from_json(pos2)
            assert f"buy {label}" in [g2.text(m) for m in g2.legal_moves()], (board, wine, slot)
            g2.apply(f"buy {label}")
            assert g2.to_json()["players"][0]["goods"] == {k: 0 for k in need}
            # one good short of the surcharge: not buyable
            short = dict(need)
            short[extra[0]] -= 1
            pos2["players"][0]["goods"] = short
            g3 = Game.from_json(pos2)
            assert f"buy {label}" not in [g3.text(m) for m in g3.legal_moves()], (board, wine, slot)


def _midgame_games(count, seed):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        board = rng.choice(BOARDS)
        n = rng.choice(PLAYERS)
        g = Game.new(board, n, seed=rng.getrandbits(40), wine_variant=rng.random() < 0.3,
                     intermediate_scoring=rng.random() < 0.3)
        stop = rng.randrange(1, 1000)
        for _ in range(stop):
            if g.is_over:
                break
            g.apply(rng.choice(g.legal_moves()))
        out.append((g, board, n))
    return out


def test_json_round_trip_of_random_midgame_states():
    phases, boards, on_squares = set(), set(), 0
    for i, (g, board, n) in enumerate(_midgame_games(300, 3)):
        pos = g.to_json()
        h = Game.from_json(pos)
        assert h.to_json() == pos, f"state {i} ({board}, {n})"
        assert h.state.export() == g.state.export(), f"state {i} ({board}, {n})"
        assert h.legal_moves() == g.legal_moves()
        assert h.state.invariant_errors() == []
        assert h.scores() == g.scores()
        phases.add(g.phase)
        boards.add(board)
        on_squares += sum(1 for p in pos["players"] for c in p["colonists"]["sea"] if c in ("GOLD", "FRANKINCENSE"))
        rng = random.Random(i)
        for _ in range(60):
            if g.is_over:
                break
            m = rng.choice(g.legal_moves())
            g.apply(m)
            h.apply(m)
        assert h.state.export() == g.state.export()
    assert boards == set(BOARDS)
    assert len(phases) >= 6, phases
    assert on_squares > 3


def test_c_playouts_end_on_the_expansion_boards():
    for board in BOARDS:
        for n in PLAYERS:
            for seed in range(30):
                s = core.CoreState.new(vocabulary.board(board).id, n, seed)
                steps = s.random_playout(seed, 100_000)
                assert 0 < steps < 100_000
                assert s.invariant_errors() == []
                check_final(s, n, f"C playout {board} {n} seed={seed}")
