#!/usr/bin/env bash
# A warm-started value model in search (issue 25, deliverable 3; session of 2026-12-04, 7th): the shipped
# weights trained on further, on generation 2's games with the search's estimates (LAMBDA 0.5, lr 3e-4, 4
# epochs; results/value-warm/README.md), against the shipped model; both sides the bots' default search
# otherwise, 4-player Imperium at 30 ms a move (equal time), the deals of results/value-d3/run-screen.sh, an
# SPRT of the fair share 25 % against 35 % that stops when decided, at most 200 games.
# Planned: about 12 CPU s a game; an SPRT decides in 40-120 games: 5-15 minutes of wall time on 2 cores. The
# log resumes.
# Since the warm model is installed, the incumbent names the round-1 set it played with (then the shipped one).
set -euo pipefail
cd "$(dirname "$0")/../.."
nice -n 10 ${PY:-.venv/bin/python} scripts/gate.py --candidate-value results/value-warm/weights \
    --incumbent-value results/value-warm/round1-weights \
    --board imperium --players 4 --seconds 0.03 --games 200 --seed-start 64000 --jobs 2 \
    --log results/value-warm/screen.jsonl > results/value-warm/screen.json 2> results/value-warm/screen.log
