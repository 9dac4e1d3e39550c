#!/usr/bin/env bash
# Screens of SearchConfig.opponents (issue 25 target (c); session of 2026-12-04, 6th). Equal time first:
# the candidate (the bots' default with the other seats outside the tree) against three copies of the default,
# 30 ms a move, 4-player Imperium, seat-rotated, deals from 66000, an SPRT of 25 % against 35 % that stops when
# decided, at most 200 games. Planned: 4-8 minutes of wall time per 40 games on 2 cores alone; OPP picks the
# policy (random by default). The log resumes.
set -euo pipefail
cd "$(dirname "$0")/../.."
OPP=${OPP:-random}
nice -n 10 ${PY:-.venv/bin/python} scripts/gate.py --candidate "opponents=$OPP" --board imperium --players 4 \
    --seconds 0.03 --games 200 --seed-start 66000 --jobs 2 --log "results/opponents/screen-$OPP.jsonl" \
    > "results/opponents/screen-$OPP.json" 2> "results/opponents/screen-$OPP.log"
