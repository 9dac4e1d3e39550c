"""Whatever Python hands the core's entry points, it answers with an exception, never a crash."""
import subprocess
import sys
import textwrap


def test_core_entry_points_refuse_junk_without_crashing():
    code = textwrap.dedent("""
        from concordia_ai import compiled, core
        compiled.board("imperium")
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
