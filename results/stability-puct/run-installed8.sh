#!/usr/bin/env bash
# The hint's stability as installed at the end of the session of 2026-12-04 (8th): the value model with 2-5
# players, the final-result model with between_sd per search (results/outcome/net2p-log/), and the final pick's
# tie key by the value model with TIE_WIN 0.02 and TIE_VISITS 0.1 (search.py; chosen on replays of recorded sweeps:
# 45, 45 and 42 of 52). This sweep measures it on fresh searches: the same 52 positions, 5 seeds, 3 s, two threads
# a hint. Planned: about 26 CPU minutes, 15-20 minutes of wall time on 2 cores; the log resumes.
set -euo pipefail
cd "$(dirname "$0")/../.."
cp concordia_ai/data/value/outcome.json results/stability-puct/sweep-models-installed8.json
nice -n 10 ${PY:-.venv/bin/python} scripts/stability.py --positions 52 --seeds 5 --budgets 3 \
    --bot ismcts:focus=0.25,c_puct_log=0.45,jobs=2 --tie-rounds 99 --record --jobs 1 \
    --out results/stability-puct/record_installed8.json > results/stability-puct/record_installed8.txt 2>&1
