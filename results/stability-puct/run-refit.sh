#!/usr/bin/env bash
# Stability of the hint as shipped after the refit of 2026-12-04 (4th session): the final-result model with the
# first round's spread, 743 two-player positions and between_sd pooled over both sweeps (3 players 1.36 VP
# instead of 0.52: a wider shown error ties more finalists, and ties go by a rule that does not depend on the
# seed). The same 52 positions, 5 seeds, 3 s of one thread. Planned: about 15 CPU minutes, 10-20 minutes of
# wall time on 2 cores shared with other runs.
set -euo pipefail
cd "$(dirname "$0")/../.."
nice -n 10 ${PY:-.venv/bin/python} scripts/stability.py --positions 52 --seeds 5 --budgets 3 \
    --bot ismcts:focus=0.25,c_puct_log=0.45 --tie-rounds 99 --record --jobs 2 \
    --out results/stability-puct/record_refit.json > results/stability-puct/record_refit.txt 2>&1
