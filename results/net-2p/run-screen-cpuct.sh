#!/usr/bin/env bash
# With 2 players the bots' c_puct_log auto is 0 (a constant c_puct), measured when the 2-player leaf was the hand
# formula (results/puct/README.md: 86.0 % against 77.5 % for 0.45). With the value model as the 2-player leaf
# (session of 2026-12-04, 8th), is the growing weight better? The candidate c_puct_log=0.45 against the default
# (auto: 0 with 2 players), both evaluating with the value model, 2-player Italia at 30 ms a move, deals from
# 87000 x 2 seats, an SPRT of 50 % against 60 % that stops when decided, at most 200 games. Planned: about 4 CPU s
# a game, at most 14 CPU minutes. The log resumes.
set -euo pipefail
cd "$(dirname "$0")/../.."
nice -n 10 ${PY:-.venv/bin/python} scripts/gate.py --candidate c_puct_log=0.45 --board italia --players 2 --seconds 0.03 \
    --games 200 --seed-start 87000 --jobs 2 --log results/net-2p/screen-cpuct.jsonl \
    > results/net-2p/screen-cpuct.json 2> results/net-2p/screen-cpuct.log
