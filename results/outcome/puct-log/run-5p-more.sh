#!/usr/bin/env bash
# 50 more 5-player games for the hint's final-result model (issue 24, session of 2026-12-04, 6th): the 5-player
# model rests on 246 positions (its margin's worst decile 10.8 VP, floor 7.8, 2 deciles beyond 2 SE). Games 50-99
# of the 5-player PUCT round's deals (seed 12500: deals 12550-12599, none used before), every game's first turn
# too, searched as the hint searches (the bots' 5-player c_puct_log, 0.45), at 3 s and 0.3 s. Planned: about
# 12-15 minutes of wall time on 2 cores alone (the 3-player 50 took 538 s); the log resumes, and a fit reads the
# games that ended.
set -euo pipefail
cd "$(dirname "$0")/../../.."
nice -n 10 ${PY:-.venv/bin/python} scripts/outcome_data.py --players 5 --games 50 --first-game 50 --per-game 4 \
    --budgets 3,0.3 --opening --seed 12500 --search select=puct,policy=1,c_puct=0.25,c_puct_log=0.45 --jobs 2 \
    --log results/outcome/puct-log/positions-5p-more.jsonl \
    > results/outcome/puct-log/run-5p-more.json 2> results/outcome/puct-log/run-5p-more.log
