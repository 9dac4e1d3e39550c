#!/usr/bin/env python3
"""Benchmark the Cython rules core: random full games, steps, state copies, legal-move generation,
and the Python-driven step loop for comparison. Prints human lines, then ONE JSON object on the last line.

    python3 scripts/bench_engine.py --games 2000 --players 4 --board imperium --seed 1 --reps 5

Every figure is the median of --reps repetitions, single-threaded (one core).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from machine_info import machine

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from concordia_ai.engine import vocabulary  # noqa: E402
from concordia_ai import core

BOARDS = ("imperium", "italia", "creta", "aegyptus")

MEMCPY_C = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
int main(int argc, char** argv) {
    size_t n = (size_t)atol(argv[1]); long reps = atol(argv[2]);
    char* a = malloc(n); char* b = malloc(n);
    memset(a, 1, n);
    struct timespec t0, t1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    for (long i = 0; i < reps; i++) {
        a[i % n] = (char)i;
        memcpy(b, a, n);
        __asm__ __volatile__("" : : "r"(b) : "memory");
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    printf("%.6f\n", (t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec));
    return b[0] == 42;
}
"""


def bench_games(board_id: int, players: int, games: int, seed: int, reps: int) -> dict:
    rows = [core.bench_random_games(board_id, players, games, seed + r) for r in range(reps)]
    gps = [games / t for _, _, t in rows]
    sps = [st / t for st, _, t in rows]
    return dict(
        games_per_sec=statistics.median(gps),
        steps_per_sec=statistics.median(sps),
        ns_per_step=statistics.median(t / st * 1e9 for st, _, t in rows),
        avg_steps_per_game=sum(st for st, _, _ in rows) / (games * reps),
        avg_turns_per_game=sum(tu for _, tu, _ in rows) / (games * reps),
    )


def c_memcpy_ns(nbytes: int, reps: int) -> float | None:
    """memcpy of one State (what CoreState.copy and MCTS do) timed by a tiny C harness."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if not cc:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        src, exe = os.path.join(tmp, "m.c"), os.path.join(tmp, "m")
        with open(src, "w") as f:
            f.write(MEMCPY_C)
        if subprocess.run([cc, "-O3", src, "-o", exe], capture_output=True).returncode:
            return None
        out = [float(subprocess.run([exe, str(nbytes), str(reps)], capture_output=True, text=True).stdout)
               for _ in range(3)]
    return statistics.median(out) / reps


def python_loop(board_id: int, players: int, games: int, seed: int) -> tuple[float, int]:
    """ns per step of a Python-driven legal_actions() + random choice + apply() loop."""
    rng = random.Random(seed)
    steps = 0
    t0 = time.process_time()
    for g in range(games):
        s = core.CoreState.new(board_id, players, seed + g)
        while not s.is_over:
            s.apply(rng.choice(s.legal_actions()))
            steps += 1
    return (time.process_time() - t0) / steps * 1e9, steps


def python_copy_ns(board_id: int, players: int, reps: int) -> float:
    s = core.CoreState.new(board_id, players, 1)
    copy = s.copy
    t0 = time.process_time()
    for _ in range(reps):
        copy()
    return (time.process_time() - t0) / reps * 1e9


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=2000, help="random games per repetition and board (C)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--board", default="imperium", help="main board for the headline figures")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--reps", type=int, default=5, help="repetitions; medians are reported")
    ap.add_argument("--python-games", type=int, default=100, help="games for the Python-driven loop")
    a = ap.parse_args(argv)

    m = machine()
    print(f"machine: nproc={m['nproc']} cpu={m['cpu']} python={m['python']}")
    print(f"command: {' '.join([os.path.basename(sys.argv[0])] + (argv if argv is not None else sys.argv[1:]))}")

    by_board = {}
    for name in dict.fromkeys([a.board, *BOARDS]):
        bid = vocabulary.board(name).id
        r = bench_games(bid, a.players, a.games, a.seed, a.reps)
        by_board[name] = r
        print(f"{name:9s} {a.players}p: {r['games_per_sec']:10.0f} games/s  {r['steps_per_sec'] / 1e6:6.2f} M steps/s"
              f"  {r['avg_steps_per_game']:.0f} steps/game  {r['avg_turns_per_game']:.0f} turns/game"
              f" ({r['avg_turns_per_game'] / a.players:.1f} per player)")
    main_board = by_board[a.board]
    bid = vocabulary.board(a.board).id

    copy_reps = 2_000_000
    bc = [core.bench_copy(bid, a.players, copy_reps) for _ in range(a.reps)]
    state_bytes = bc[0][3]
    core_copy_ns = statistics.median(x[0] for x in bc) / copy_reps * 1e9
    legal_ns = statistics.median(x[1] for x in bc) / copy_reps * 1e9
    memcpy_ns = c_memcpy_ns(state_bytes, 20_000_000)
    copy_ns = memcpy_ns if memcpy_ns is not None else core_copy_ns
    py_copy = statistics.median(python_copy_ns(bid, a.players, 200_000) for _ in range(a.reps))
    print(f"state: {state_bytes} bytes; copy {copy_ns:.1f} ns (memcpy of sizeof(State) in C); "
          f"core.bench_copy loop {core_copy_ns:.2f} ns (the compiler elides it when below ~1 ns); "
          f"CoreState.copy() from Python {py_copy:.0f} ns")
    print(f"legal-move generation at the opening (C): {legal_ns:.1f} ns")

    py = [python_loop(bid, a.players, a.python_games, a.seed + 7919 * r) for r in range(a.reps)]
    py_ns = statistics.median(x[0] for x in py)
    ratio = py_ns / main_board["ns_per_step"]
    print(f"python-driven legal_actions+apply: {py_ns:.0f} ns/step vs C {main_board['ns_per_step']:.0f} ns/step"
          f" -> C is {ratio:.1f}x faster")

    targets = dict(games_per_sec=5000, steps_per_sec=2_000_000, copy_ns=300)
    ok = dict(games_per_sec=main_board["games_per_sec"] >= 5000,
              steps_per_sec=main_board["steps_per_sec"] >= 2_000_000, copy_ns=copy_ns <= 300)
    print("targets: " + ", ".join(f"{k} {'met' if v else 'MISSED'}" for k, v in ok.items()))

    out = dict(
        board=a.board, players=a.players, games=a.games, reps=a.reps, seed=a.seed,
        games_per_sec=round(main_board["games_per_sec"], 1),
        steps_per_sec=round(main_board["steps_per_sec"]),
        ns_per_step_c=round(main_board["ns_per_step"], 2),
        copy_ns=round(copy_ns, 2),
        copy_ns_core_bench=round(core_copy_ns, 3),
        copy_ns_python=round(py_copy, 1),
        legal_moves_ns=round(legal_ns, 2),
        avg_steps_per_game=round(main_board["avg_steps_per_game"], 1),
        avg_turns_per_game=round(main_board["avg_turns_per_game"], 1),
        avg_turns_per_player=round(main_board["avg_turns_per_game"] / a.players, 1),
        state_bytes=state_bytes,
        games_per_sec_by_board={k: round(v["games_per_sec"], 1) for k, v in by_board.items()},
        steps_per_sec_by_board={k: round(v["steps_per_sec"]) for k, v in by_board.items()},
        python_apply_ns=round(py_ns, 1),
        c_over_python_speedup=round(ratio, 2),
        targets=targets, targets_met=ok,
        machine=m, date=time.strftime("%Y-%m-%d %H:%M:%S %Z"),
    )
    print(json.dumps(out, sort_keys=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
