#!/usr/bin/env bash
# A third sweep of run-threads2.sh (session of 2026-12-04, 6th): the hint as shipped after the refit on 200
# 4-player games of mixed opponents (results/outcome/README.md), the same 52 positions and 5 seeds, each hint two
# threads (jobs=2), every seed's whole turns recorded. Two purposes: the shipped hint's stability, and fresh
# searches on which to check the tie rules the replays of the first two sweeps favoured. Planned: about 26 CPU
# minutes, 15-30 minutes of wall time on 2 cores shared with another run; the log resumes.
set -euo pipefail
cd "$(dirname "$0")/../.."
nice -n 10 ${PY:-.venv/bin/python} scripts/stability.py --positions 52 --seeds 5 --budgets 3 \
    --bot ismcts:focus=0.25,c_puct_log=0.45,jobs=2 --tie-rounds 99 --record --jobs 1 \
    --out results/stability-puct/record_threads2c.json > results/stability-puct/record_threads2c.txt 2>&1
