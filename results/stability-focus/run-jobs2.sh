#!/usr/bin/env bash
# Issue 24, stability as a player meets it: the hint's default is 3 s on every core, two independent searches
# merged on this machine (cli/budget.py), so the same 52 positions x 5 seeds with jobs=2 in the bot. Planned
# (session of 2026-12-04): 52 x 5 x 2 x 3 s = 1,560 CPU s of search, about 14 minutes of wall time on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/../.."
nice -n 10 ${PY:-.venv/bin/python} scripts/stability.py --positions 52 --seeds 5 --budgets 3 \
    --bot ismcts:focus=0.25,jobs=2 --tie-rounds 99 --record --jobs 1 --out results/stability-focus/record_jobs2.json \
    > results/stability-focus/record_jobs2.txt 2>&1
