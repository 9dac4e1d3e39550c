#!/usr/bin/env bash
# Session of 2026-12-04: rerun with every turn's slope recorded (for the seed-to-seed spread, stability_replay.py between);: the stability sweep at 3 s with every seed's whole turns recorded, so that
# other final picks (tie margins, a standard error scaled to the seed-to-seed spread) replay offline
# (scripts/stability_replay.py). Planned: 52 positions x 5 seeds x 3 s = 780 CPU s of search plus setting up
# the positions, about 8-10 minutes of wall time on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/../.."
nice -n 10 ${PY:-.venv/bin/python} scripts/stability.py --positions 52 --seeds 5 --budgets 3 --bot ismcts:focus=0.25 \
    --tie-rounds 99 --record --jobs 2 --out results/stability-focus/record2_tie99.json \
    > results/stability-focus/record2_tie99.txt 2>&1
