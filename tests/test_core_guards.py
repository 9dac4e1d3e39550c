"""Whatever Python hands the core's entry points, it answers with an exception, never a crash."""
import subprocess
import sys
import textwrap


def test_core_entry_points_refuse_junk_without_crashing():
    code = textwrap.dedent("""
        from concordia_ai import core
        from concordia_ai.engine import vocabulary
        vocabulary.board("imperium")
        calls = [
            lambda: core.search(None, {}),
            lambda: core.search(core.CoreState(), {"iterations": 10}),
            lambda: core.search(core.CoreState.new(0, 2, 1), None),
            lambda: core.search(core.CoreState.new(0, 2, 1), {"iterations": "x"}),
            lambda: core.search(core.CoreState.new(0, 2, 1), {"reward": "nope", "iterations": 5}),
            lambda: core.search(core.CoreState.new(0, 2, 1), {}),
            lambda: core.flat_monte_carlo(None, {}),
            lambda: core.flat_monte_carlo(core.CoreState(), {"iterations": 5}),
            lambda: core.choose_greedy(None, 1),
            lambda: core.choose_greedy(core.CoreState(), 1),
            lambda: core.evaluate_state(core.CoreState()),
            lambda: core.board_distances(99),
            lambda: core.board_distances(-1),
            lambda: core.board_distances(7),
            lambda: core.bench_copy(99, 4, 10),
            lambda: core.bench_copy(0, 9, 10),
            lambda: core.bench_random_games(-3, 4, 1, 0),
            lambda: core.bench_random_games(0, 1, 1, 0),
            lambda: core.CoreState.new(5, 4, 1),
            lambda: core.CoreState.new(0, 6, 1),
            lambda: core.CoreState().apply(257),
            lambda: core.CoreState.new(0, 3, 1).apply(-1),
            lambda: core.CoreState.new(0, 3, 1).apply(2 ** 31 - 1),
            lambda: core.CoreState.load(None),
            lambda: core.CoreState.load({"board": 0}),
        ]
        refused = 0
        for call in calls:
            try:
                call()
            except (ValueError, TypeError, KeyError, OverflowError):
                refused += 1
        empty = core.CoreState()
        assert empty.legal_actions() == [] and empty.scores() == [] and empty.random_playout(1) == -1
        print("refused", refused, "of", len(calls))
    """)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "refused 25 of 25", r.stdout + r.stderr


def test_search_budgets_and_boards_past_their_bounds_are_refused():
    """Issue 11: NaN seconds hung the search, an oversized Nile list wrote past its array, values past
    int32 wrapped. The core refuses each itself (defence in depth behind SearchConfig)."""
    code = textwrap.dedent("""
        from concordia_ai import core
        from concordia_ai.ai.search import SearchConfig
        base = SearchConfig(eval="hand").core_dict(players=2)
        captured = {}
        register = core.register_board
        core.register_board = lambda i, d: captured.update(i=i, d=d) or register(i, d)
        from concordia_ai.engine import vocabulary
        vocabulary.board("aegyptus")
        core.register_board = register
        vocabulary.board("imperium")
        st = core.CoreState.new(0, 2, 1)
        searches = [dict(seconds=float("nan")), dict(seconds=float("inf")), dict(seconds=-1.0),
                    dict(seconds=86401.0), dict(iterations=2 ** 31), dict(iterations=-1),
                    dict(iterations=10, rollout_turns=10 ** 12), dict(iterations=10, c=float("nan")),
                    dict(iterations=10, mix=float("inf")), dict(iterations=True), dict(iterations=10, seed=-1),
                    dict(iterations=10, seed=2 ** 64), dict(iterations=10.5), dict(iterations=10, pw_k=float("nan"))]
        messages = []
        for cfg in searches:
            for run in (core.search, core.flat_monte_carlo):
                try:
                    run(st, dict(base, **cfg))
                except (ValueError, TypeError) as e:
                    messages.append(str(e).split(":")[0])
        boards = []
        d, i = captured["d"], captured["i"]
        for key, value in [("nile", list(range(5)) * 20), ("nile", [99]), ("nile", [-1]),
                           ("routes", [(0, 200, 0, 1)]), ("routes", [(0, 1, 0)]), ("city_province", [50] * 40),
                           ("frank_provinces", [40]), ("frank_square", 99), ("start_city", -3),
                           ("variable_province", 77), ("city_letter", [9] * 40)]:
            try:
                register(i, {**d, key: value})
            except ValueError as e:
                boards.append(key)
        # the refused boards left the registered one intact
        g = core.CoreState.new(i, 3, 5)
        assert g.random_playout(1) >= 0
        print(len(messages), "of", 2 * len(searches), sorted(set(messages)), len(boards))
    """)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() [:3] == ["28", "of", "28"], r.stdout
    assert r.stdout.strip().endswith(" 11"), r.stdout
    for key in ("seconds", "iterations", "rollout_turns", "c", "mix", "seed", "pw_k"):
        assert f"'{key}'" in r.stdout, r.stdout
