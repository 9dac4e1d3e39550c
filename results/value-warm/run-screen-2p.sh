#!/usr/bin/env bash
# The installed (warm-started) value model with 2 players (issue 24, deliverable 2; session of 2026-12-04, 7th):
# 2-player searches evaluate with the hand formula (eval auto); the candidate evaluates with the value model
# (eval=net), the incumbent is the default. 2-player Italia at 30 ms a move, deals from 84000 x 2 seats, an SPRT
# of 50 % against 60 % that stops when decided, at most 200 games. Planned: about 4 CPU s a game; 5-15 minutes of
# wall time on 2 cores. The log resumes.
set -euo pipefail
cd "$(dirname "$0")/../.."
nice -n 10 ${PY:-.venv/bin/python} scripts/gate.py --candidate eval=net --board italia --players 2 --seconds 0.03 \
    --games 200 --seed-start 84000 --jobs 2 --log results/value-warm/screen-2p.jsonl \
    > results/value-warm/screen-2p.json 2> results/value-warm/screen-2p.log
