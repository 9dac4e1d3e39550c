#!/usr/bin/env bash
# The hint's stability as installed at the end of the session of 2026-12-05 (9th): as run-installed8.sh (the same
# 52 positions, 5 seeds, 3 s, two threads a hint), once the final-result model was refitted with the 2-player
# opening's self-play data (results/outcome/selfplay-open-2p/; the 2-player locations and sigma move a little,
# the first round gets open_d). The second fresh sweep of the installed rule (the first: 44 of 52). Planned: about
# 26 CPU minutes, 15-20 minutes of wall time on 2 cores; the log resumes.
set -euo pipefail
cd "$(dirname "$0")/../.."
cp concordia_ai/data/value/outcome.json results/stability-puct/sweep-models-installed9.json
nice -n 10 ${PY:-.venv/bin/python} scripts/stability.py --positions 52 --seeds 5 --budgets 3 \
    --bot ismcts:focus=0.25,c_puct_log=0.45,jobs=2 --tie-rounds 99 --record --jobs 1 \
    --out results/stability-puct/record_installed9.json > results/stability-puct/record_installed9.txt 2>&1
