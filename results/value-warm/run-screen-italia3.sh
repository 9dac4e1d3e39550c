#!/usr/bin/env bash
# The warm-started value model in 3-player Italia at equal time (issue 25; session of 2026-12-04, 7th): an SPRT
# of the fair 33.3 % against 43.3 % that stops when decided, at most 201 games (deals from 81000 x 3 seats), 30 ms
# a move, the candidate with results/value-warm/weights against two copies of the shipped model. It replaces
# run-confirm.sh's fixed italia3 row (201 games, about 27 CPU minutes), dropped for the session's CPU: the
# 4-player row was confirmed at fixed size. Planned: about 8 CPU s a game, 5-15 minutes. The log resumes.
# Since the warm model is installed, the incumbent names the round-1 set it played with (then the shipped one).
set -euo pipefail
cd "$(dirname "$0")/../.."
nice -n 10 ${PY:-.venv/bin/python} scripts/gate.py --candidate-value results/value-warm/weights \
    --incumbent-value results/value-warm/round1-weights \
    --board italia --players 3 --games 201 --seed-start 81000 --seconds 0.03 --jobs 2 \
    --log results/value-warm/screen-italia3.jsonl > results/value-warm/screen-italia3.json \
    2> results/value-warm/screen-italia3.log
