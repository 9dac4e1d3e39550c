#!/usr/bin/env bash
# Issue 24, session of 2026-12-04 (3rd): as run-record.sh, with the growing PUCT weight (c_puct_log 0.45, base 500)
# since 2026-12-04: select=puct, policy=1, c_puct=0.25; focus 0.25 as the hint), every seed's whole turns
# recorded with their slopes, so that stability_replay.py fits between_sd for the PUCT refit of the
# final-result model and replays other final picks. Planned: 52 positions x 5 seeds x 3 s = 780 CPU s of
# search plus setting up, about 8-10 minutes of wall time on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/../.."
nice -n 10 ${PY:-.venv/bin/python} scripts/stability.py --positions 52 --seeds 5 --budgets 3 --bot ismcts:focus=0.25,c_puct_log=0.45 \
    --tie-rounds 99 --record --jobs 2 --out results/stability-puct/record_log045.json \
    > results/stability-puct/record_log045.txt 2>&1
