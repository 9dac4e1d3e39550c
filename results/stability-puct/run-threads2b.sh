#!/usr/bin/env bash
# A second sweep of run-threads2.sh (same positions, seeds and search; time budgets make each sweep its own draw), to check on fresh searches the tie rule the replay of the first picked (TIE_Z 6: 42 of 52 there, 38 with today's). The first sweep's header:
# Stability of the hint as a player runs it on a 2-core machine: `concordia hint` without --jobs searches with
# one thread per core (table/budget.py), so on 2 cores a 3 s hint merges two searches of 3 s each. Every earlier
# sweep measured one thread. The same 52 positions and 5 seeds, the hint's search and final pick, each hint two
# threads (jobs=2 in the spec; positions one at a time, --jobs 1). Planned (session of 2026-12-04, 5th): about
# 26 CPU minutes, 15-40 minutes of wall time on 2 cores shared with other runs; the log resumes.
set -euo pipefail
cd "$(dirname "$0")/../.."
nice -n 10 ${PY:-.venv/bin/python} scripts/stability.py --positions 52 --seeds 5 --budgets 3 \
    --bot ismcts:focus=0.25,c_puct_log=0.45,jobs=2 --tie-rounds 99 --record --jobs 1 \
    --out results/stability-puct/record_threads2b.json > results/stability-puct/record_threads2b.txt 2>&1
