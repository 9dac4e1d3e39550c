#!/usr/bin/env bash
# More 4-player positions for the hint's PUCT search (issue 24, session of 2026-12-04, 3rd): the first fit on
# this search (report.md) misses the per-count target with 4 players (ECE 0.064 over 246 positions, floor
# 0.053; the UCB models had 448). New games 50-99 of the 4-player PUCT round's deals (seed 11500: deals
# 11550-11599, none used before), every game's first turn too, searched as the hint searches, at 3 s and 0.3 s.
# Planned: about 12 minutes of wall time on 2 cores alone (the first 50 games: 535 s), more when shared.
set -euo pipefail
cd "$(dirname "$0")/../../.."
nice -n 10 ${PY:-.venv/bin/python} scripts/outcome_data.py --players 4 --games 50 --first-game 50 --per-game 4 \
    --budgets 3,0.3 --opening --seed 11500 --search select=puct,policy=1,c_puct=0.25,c_puct_log=0.45 --jobs 2 \
    --log results/outcome/puct-log/positions-4p-more.jsonl \
    > results/outcome/puct-log/run-4p-more.json 2> results/outcome/puct-log/run-4p-more.log
