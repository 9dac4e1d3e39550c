"""Random full games through the Cython core, driven from Python, with the core's invariants checked.

Every game here is played to the end from Python with `random.Random(seed)` choices and calls
`invariant_errors()` after EVERY step (full checks on every game: the whole module runs in a few
seconds on a 2-core machine, so no sampling of the checks is needed). A step cap is only a safety
net: reaching it fails the test (random games take roughly 400-1300 steps).
"""

import os
import random
import subprocess
import sys

import pytest

from concordia_ai.engine import vocabulary
from concordia_ai import core

BOARDS = ("imperium", "italia")
PLAYERS = (2, 3, 4, 5)
GAMES_PER_CASE = 250            # 2 boards x 4 player counts x 250 = 2,000 full games
STEP_CAP = 20_000               # safety net: a random game that reaches this fails
CONCORDIA_VP = vocabulary.rules().raw.concordia_vp


def _board_id(name):
    return vocabulary.board(name).id


def _where(board, n, seed, history):
    return f"board={board} players={n} seed={seed} step={len(history)} actions={history}"


def play_python(board, n, seed, check_every=1):
    """Play one full game with random.Random(seed) choices; check invariants every `check_every` steps."""
    s = core.CoreState.new(_board_id(board), n, seed)
    rng = random.Random(seed)
    history = []
    assert s.invariant_errors() == [], _where(board, n, seed, history)
    while not s.is_over:
        assert len(history) < STEP_CAP, "step cap reached: " + _where(board, n, seed, history[-50:])
        legal = s.legal_actions()
        assert legal, "dead end (no legal action): " + _where(board, n, seed, history)
        d = s.decider
        assert d == core.CHANCE or 0 <= d < n, f"decider {d}: " + _where(board, n, seed, history)
        a = rng.choice(legal)
        s.apply(a)
        history.append(a)
        if len(history) % check_every == 0:
            errs = s.invariant_errors()
            assert errs == [], f"{errs}: " + _where(board, n, seed, history)
    assert s.invariant_errors() == []
    return s, history


def check_final(s, n, where):
    assert s.is_over and s.phase_name == "over", where
    assert s.decider == core.NOBODY, where
    assert s.legal_actions() == [], where
    scores = s.scores()
    assert len(scores) == n
    for row in scores:
        assert len(row) == core.N_SCORE_COLUMNS == 9
        assert row[8] == sum(row[:8]), f"total column {row}: {where}"
        assert all(v >= 0 for v in row), f"negative score {row}: {where}"
    holders = [p for p in range(n) if scores[p][6] != 0]
    assert len(holders) == 1, f"Concordia card holders {holders}: {where}"
    assert scores[holders[0]][6] == CONCORDIA_VP
    assert s.export()["end_player"] == holders[0]
    order = s.ranking()
    assert sorted(order) == list(range(n)), f"ranking {order}: {where}"
    totals = [scores[p][8] for p in order]
    assert totals == sorted(totals, reverse=True), f"ranking {order} vs totals {totals}: {where}"


@pytest.mark.parametrize("n", PLAYERS)
@pytest.mark.parametrize("board", BOARDS)
def test_random_full_games(board, n):
    steps = []
    for g in range(GAMES_PER_CASE):
        seed = 1000 * n + g + (0 if board == "imperium" else 500_000)
        s, history = play_python(board, n, seed)
        check_final(s, n, f"board={board} players={n} seed={seed}")
        with pytest.raises(ValueError):
            s.apply(history[-1])            # nothing is legal once the game is over
        steps.append(len(history))
    assert min(steps) > 50                  # games are real games, not an early stop


def _midgame_states(count, seed):
    """(state, board, n) snapshots taken at random steps of random games, chance phases included."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        board = rng.choice(BOARDS)
        n = rng.choice(PLAYERS)
        s = core.CoreState.new(_board_id(board), n, rng.getrandbits(63))
        stop = rng.randrange(1, 900)
        for _ in range(stop):
            if s.is_over:
                break
            s.apply(rng.choice(s.legal_actions()))
            if rng.random() < 0.01:
                out.append((s.copy(), board, n))
        out.append((s, board, n))
    return out[:count]


def test_export_load_round_trip():
    states = _midgame_states(400, 7)
    phases = set()
    for i, (s, board, n) in enumerate(states):
        e = s.export()
        t = core.CoreState.load(e)
        assert t.export() == e, f"state {i} ({board}, {n})"
        assert t == s
        assert t.legal_actions() == s.legal_actions()
        assert t.invariant_errors() == []
        assert t.scores() == s.scores()
        phases.add(s.phase_name)
        # both continue identically (the RNG is part of the exported state)
        rng = random.Random(i)
        for _ in range(40):
            if s.is_over:
                break
            a = rng.choice(s.legal_actions())
            s.apply(a)
            t.apply(a)
        assert t.export() == s.export()
    assert len(phases) >= 6, phases


def test_c_playout_and_python_game_both_end():
    for board in BOARDS:
        for n in PLAYERS:
            for seed in range(25):
                s = core.CoreState.new(_board_id(board), n, seed)
                c = s.copy()
                steps = c.random_playout(seed, 100_000)
                assert 0 < steps < 100_000, f"C playout {board} {n} seed={seed}: {steps}"
                assert c.is_over and c.invariant_errors() == []
                check_final(c, n, f"C playout {board} {n} seed={seed}")
                p, _ = play_python(board, n, seed, check_every=10)
                check_final(p, n, f"python {board} {n} seed={seed}")
    # playouts from mid-game states end too, and leave the source state untouched
    for i, (s, board, n) in enumerate(_midgame_states(200, 11)):
        before = s.export()
        c = s.copy()
        steps = c.random_playout(i, 100_000)
        assert steps >= 0, f"dead end in a C playout from state {i}: {before}"
        assert c.is_over and c.invariant_errors() == []
        assert s.export() == before


def test_random_playout_respects_max_steps():
    s = core.CoreState.new(_board_id("imperium"), 4, 3)
    assert s.random_playout(1, 10) == 10
    assert not s.is_over
    assert s.invariant_errors() == []


# ---------------------------------------------------------------- load() rejects garbage

# keys load() fills with a default when they are missing
OPTIONAL_KEYS = {"rng", "arch_from", "pick_last"}   # the last two: positions from before them load
OPTIONAL_PLAYER_KEYS = {"top", "inter_done", "inter_vp"}

GARBAGE = [None, "x", 1.5, True, -1, 10**30, -(10**30), [], {}, [1, 2], {"a": 1}, b"\x00", 255, 127, -129]


def _fresh_export():
    return core.CoreState.new(_board_id("imperium"), 4, 5).export()


def _loads_or_value_error(d):
    """load(d) raises ValueError, or gives a state that can be used without errors."""
    try:
        t = core.CoreState.load(d)
    except ValueError:
        return None
    t.invariant_errors()
    t.legal_actions()
    t.scores()
    t.export()
    return t


def test_load_rejects_wrong_top_level_type():
    for bad in ([], "state", 3, 1.5):
        with pytest.raises((TypeError, ValueError)):
            core.CoreState.load(bad)
    with pytest.raises(ValueError):
        core.CoreState.load({})


def test_load_rejects_none():
    with pytest.raises(ValueError):
        core.CoreState.load(None)


def test_load_rejects_player_that_is_not_a_dict():
    d = _fresh_export()
    d["players"][0] = 5
    with pytest.raises(ValueError):
        core.CoreState.load(d)


def test_load_rejects_missing_keys():
    base = _fresh_export()
    for key in base:
        d = _fresh_export()
        del d[key]
        if key in OPTIONAL_KEYS:
            _loads_or_value_error(d)
        else:
            with pytest.raises(ValueError):
                core.CoreState.load(d)
    for key in base["players"][0]:
        d = _fresh_export()
        del d["players"][1][key]
        if key in OPTIONAL_PLAYER_KEYS:
            _loads_or_value_error(d)
        else:
            with pytest.raises(ValueError):
                core.CoreState.load(d)


def test_load_rejects_wrong_types_and_ranges():
    base = _fresh_export()
    for key, value in base.items():
        for bad in GARBAGE:
            if bad == value and type(bad) is type(value):
                continue
            d = _fresh_export()
            d[key] = bad
            if key in ("players",):
                with pytest.raises((ValueError, TypeError)):
                    core.CoreState.load(d)
            else:
                _loads_or_value_error(d)
    # scalar fields with a clearly impossible value are rejected
    for key, bad in [("board", 8), ("board", -1), ("n_players", 1), ("n_players", 6), ("phase", 0),
                     ("phase", 14), ("turn_player", 4), ("pm_holder", -1), ("decider", 4), ("decider", -3),
                     ("rng", 0), ("rng", 1 << 64), ("act_kind", 99), ("keep_player", 4), ("turns", -1),
                     ("board", "0"), ("n_players", 4.0), ("phase", True), ("display", [0] * 6),
                     ("display", [0] * 7), ("stack", [99]), ("stack", "abc"), ("city_good", [0] * 3),
                     ("pend", [[0] * 5] * 3), ("pend", [[0] * 4] * 4), ("pend", [[99] * 5] * 4)]:
        d = _fresh_export()
        d[key] = bad
        with pytest.raises(ValueError):
            core.CoreState.load(d)
    for key, bad in [("coins", -1), ("coins", "5"), ("goods", [0] * 4), ("goods", [13, 0, 0, 0, 0]),
                     ("goods", [-1, 0, 0, 0, 0]), ("colonists", [200] * 6), ("colonists", [63] * 6),
                     ("colonists", [-2] * 6), ("hand", [0]), ("hand", None), ("discard", [-1] * 40),
                     ("top", 99), ("top", 0), ("houses", list(range(20))), ("houses", [99]), ("houses", "1"),
                     ("houses", [30]), ("inter_done", 2)]:
        d = _fresh_export()
        d["players"][2][key] = bad
        with pytest.raises(ValueError):
            core.CoreState.load(d)


def _mutate(d, rng):
    """Change one random leaf of an exported dict to a random (often nearly valid) value."""
    path = []
    node = d
    while True:
        if isinstance(node, dict):
            key = rng.choice(list(node))
        elif isinstance(node, list) and node:
            key = rng.randrange(len(node))
        else:
            break
        child = node[key]
        if isinstance(child, (dict, list)) and child and rng.random() < 0.85:
            path.append((node, key))
            node = child
            continue
        path.append((node, key))
        break
    parent, key = path[-1]
    old = parent[key]
    r = rng.random()
    if r < 0.45 and isinstance(old, int):
        new = old + rng.choice([-1, 1, -2, 2, rng.randint(-70, 130)])
    elif r < 0.6:
        new = rng.choice(GARBAGE)
    elif r < 0.7 and isinstance(old, list):
        new = old[:-1] if rng.random() < 0.5 else old + old[:1]
    elif r < 0.8 and isinstance(parent, dict):
        del parent[key]
        return d
    else:
        new = rng.randint(-3, 100)
    parent[key] = new
    return d


FUZZ_SOURCE = '''
import copy, random, sys
sys.path.insert(0, {tests!r})
from test_random_games import _midgame_states, _mutate
from concordia_ai import core
rng = random.Random({seed})
states = _midgame_states({n_states}, {seed})
loaded = rejected = 0
for i in range({iters}):
    s = states[i % len(states)][0]
    d = s.export()
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        d = _mutate(d, rng)
    try:
        t = core.CoreState.load(d)
    except ValueError:
        rejected += 1
        continue
    except TypeError:   # a non-dict where a dict/list is typed
        rejected += 1
        continue
    loaded += 1
    t.invariant_errors(); t.scores(); t.ranking(); t.export()
    for _ in range(30):
        legal = t.legal_actions()
        if not legal:
            break
        t.apply(rng.choice(legal))
    t.copy().random_playout(i, 3000)
print("fuzz-ok", loaded, rejected)
'''


def _fuzz_code(seed, n_states, iters):
    return FUZZ_SOURCE.format(tests=os.path.dirname(os.path.abspath(__file__)), seed=seed,
                              n_states=n_states, iters=iters)


def test_load_fuzz_in_process():
    exec(compile(_fuzz_code(1, 60, 1500), "<fuzz>", "exec"), {})


def test_load_fuzz_in_subprocess_never_crashes():
    """The same fuzz with other seeds in a child interpreter: a segfault shows up as a failure."""
    proc = subprocess.run([sys.executable, "-c", _fuzz_code(2, 80, 3000)],
                          capture_output=True, text=True, timeout=300,
                          cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    assert proc.returncode == 0, f"exit {proc.returncode}\nstdout:{proc.stdout[-2000:]}\nstderr:{proc.stderr[-4000:]}"
    assert "fuzz-ok" in proc.stdout
