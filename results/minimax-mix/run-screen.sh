#!/usr/bin/env bash
# Issue 25 (session of 2026-12-05, 10th): implicit minimax backups at weight 0.3 (minimax_mix=0.3) in the bots'
# default search against three copies of the default at 30 ms a move, 4-player Imperium: an SPRT of the fair
# 25 % against 35 % (and "worse" when it falls below) over at most 200 games on new deals (94000-). The first
# question for any change made for time (results/leaf-mix/: leaf mixing gained a little from time and lost at 30 ms).
# Planned: at most 16 minutes of wall time on 2 cores; the SPRT may stop sooner.
set -euo pipefail
cd "$(dirname "$0")/../.."
nice -n 10 ${PY:-.venv/bin/python} scripts/gate.py --candidate minimax_mix=0.3 --board imperium --players 4 \
    --seconds 0.03 --games 200 --seed-start 94000 --jobs 2 --log results/minimax-mix/screen.jsonl \
    > results/minimax-mix/screen.json 2> results/minimax-mix/screen.log
