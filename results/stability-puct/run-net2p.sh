#!/usr/bin/env bash
# The hint's stability and seed-to-seed spread with the value model as the evaluation with every player count
# (session of 2026-12-04, 8th; results/net-2p/): the sweep of run-warm.sh (the same 52 positions, 5 seeds, 3 s,
# two threads a hint, every seed's whole turns recorded) on a checkout with `eval` auto = net for 2 players and the
# final-result model refitted for it (results/outcome/net2p-log/). Run twice (NAME=net2p-a, NAME=net2p-b): the
# seed-to-seed spread `between` is pooled over the warm model's sweeps (2 players: these two only, since the
# earlier sweeps evaluated 2-player positions with the hand formula). Planned: about 26 CPU minutes a sweep,
# 15-20 minutes of wall time on 2 cores; the log resumes.
set -euo pipefail
cd "$(dirname "$0")/../.."
NAME=${NAME:?NAME=net2p-a or net2p-b}
cp concordia_ai/data/value/outcome.json "results/stability-puct/sweep-models-$NAME.json"
nice -n 10 ${PY:-.venv/bin/python} scripts/stability.py --positions 52 --seeds 5 --budgets 3 \
    --bot ismcts:focus=0.25,c_puct_log=0.45,jobs=2 --tie-rounds 99 --record --jobs 1 \
    --out "results/stability-puct/record_$NAME.json" > "results/stability-puct/record_$NAME.txt" 2>&1
