#!/usr/bin/env bash
# The hint's stability as installed after the refit of the session of 2026-12-05 (10th): as run-installed9.sh (the
# same 52 positions, 5 seeds, 3 s, two threads a hint), once the final-result model was refitted with the 1,500
# held-out positions of results/outcome/margin-held/ and the first turns of all 1,000 two-player reference games
# (the search halves and picks under the model, so a refit can move a pick). Planned before its result: the third
# fresh sweep of the installed rule (the first two: 44 and 47 of 52). About 26 CPU minutes, 15-20 minutes of wall
# time on 2 cores; the log resumes.
set -euo pipefail
cd "$(dirname "$0")/../.."
cp concordia_ai/data/value/outcome.json results/stability-puct/sweep-models-installed10.json
nice -n 10 ${PY:-.venv/bin/python} scripts/stability.py --positions 52 --seeds 5 --budgets 3 \
    --bot ismcts:focus=0.25,c_puct_log=0.45,jobs=2 --tie-rounds 99 --record --jobs 1 \
    --out results/stability-puct/record_installed10.json > results/stability-puct/record_installed10.txt 2>&1
