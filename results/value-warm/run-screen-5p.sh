#!/usr/bin/env bash
# The warm-started value model with 5 players (the network it shares with 3 and 4 players; session of 2026-12-04,
# 7th): the candidate with results/value-warm/weights against four copies of the shipped model, 5-player
# Aegyptus at 30 ms a move, deals from 83000 x 5 seats, an SPRT of the fair 20 % against 30 %, at most 200 games.
# Planned: about 16 CPU s a game; an SPRT decides in 30-120 games: 5-20 minutes of wall time on 2 cores.
# Since the warm model is installed, the incumbent names the round-1 set it played with (then the shipped one).
set -euo pipefail
cd "$(dirname "$0")/../.."
nice -n 10 ${PY:-.venv/bin/python} scripts/gate.py --candidate-value results/value-warm/weights \
    --incumbent-value results/value-warm/round1-weights \
    --board aegyptus --players 5 --games 200 --seed-start 83000 --seconds 0.03 --jobs 2 \
    --log results/value-warm/screen-aegyptus5.jsonl > results/value-warm/screen-aegyptus5.json \
    2> results/value-warm/screen-aegyptus5.log
