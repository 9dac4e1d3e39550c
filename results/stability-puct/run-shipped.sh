#!/usr/bin/env bash
# Issue 24, session of 2026-12-04 (3rd): the stability sweep of the hint as shipped after the move to PUCT with
# the growing weight (search.TABLE_SEARCH) and the final-result model fitted on that search (its halving and
# its last pick read the model's figures, so the sweep of run-log045.sh, made under the UCB models, is run
# again). Planned: 52 positions x 5 seeds x 3 s, about 7-9 minutes of wall time on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/../.."
nice -n 10 ${PY:-.venv/bin/python} scripts/stability.py --positions 52 --seeds 5 --budgets 3 \
    --bot ismcts:focus=0.25,c_puct_log=0.45 --tie-rounds 99 --record --jobs 2 \
    --out results/stability-puct/record_shipped.json > results/stability-puct/record_shipped.txt 2>&1
