#!/usr/bin/env bash
# The hint's stability after the refit with the 2-player first round's own base (open_p, open_m; session of
# 2026-12-05, 10th): as run-installed10.sh (the same 52 positions, 5 seeds, 3 s, two threads a hint). None of the 52
# is in the first round, but the 2-player later rounds' coefficients moved a little with the refit (the fit's
# second pass replays the picks), so the sweep is run again on the installed model. About 14 minutes of wall time
# on 2 cores; the log resumes.
set -euo pipefail
cd "$(dirname "$0")/../.."
cp concordia_ai/data/value/outcome.json results/stability-puct/sweep-models-installed11.json
nice -n 10 ${PY:-.venv/bin/python} scripts/stability.py --positions 52 --seeds 5 --budgets 3 \
    --bot ismcts:focus=0.25,c_puct_log=0.45,jobs=2 --tie-rounds 99 --record --jobs 1 \
    --out results/stability-puct/record_installed11.json > results/stability-puct/record_installed11.txt 2>&1
