#!/usr/bin/env bash
# The hint's stability with the warm-started value model installed (session of 2026-12-04, 7th;
# results/value-warm/): the sweep of run-threads2c.sh (the same 52 positions, 5 seeds, 3 s, two threads a hint,
# every seed's whole turns recorded) on a checkout whose concordia_ai/data/value/ holds the warm weights and the
# final-result model refitted for them (results/outcome/warm-log/). Two purposes: the stability target, and
# the seed-to-seed spread (`between`) measured on this value model's searches. Planned: about 26 CPU minutes,
# 15-30 minutes of wall time on 2 cores; the log resumes.
set -euo pipefail
cd "$(dirname "$0")/../.."
nice -n 10 ${PY:-.venv/bin/python} scripts/stability.py --positions 52 --seeds 5 --budgets 3 \
    --bot ismcts:focus=0.25,c_puct_log=0.45,jobs=2 --tie-rounds 99 --record --jobs 1 \
    --out results/stability-puct/record_warm.json > results/stability-puct/record_warm.txt 2>&1
