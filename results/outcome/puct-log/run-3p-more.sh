#!/usr/bin/env bash
# 50 more 3-player games for the hint's final-result model (issue 24, session of 2026-12-04, 6th): the 3-player
# model rests on 247 positions, the fewest with 5 players (its margin's worst-decile floor 10.8 VP). Games 50-99
# of the 3-player PUCT round's deals (seed 10500: deals 10550-10599, none used before), every game's first turn
# too, searched as the hint searches (the bots' 3-player c_puct_log, 0.45), at 3 s and 0.3 s. Planned: about
# 15-20 minutes of wall time on 2 cores alone (the first 50 games' searches alone took 778 s); the log resumes.
set -euo pipefail
cd "$(dirname "$0")/../../.."
nice -n 10 ${PY:-.venv/bin/python} scripts/outcome_data.py --players 3 --games 50 --first-game 50 --per-game 4 \
    --budgets 3,0.3 --opening --seed 10500 --search select=puct,policy=1,c_puct=0.25,c_puct_log=0.45 --jobs 2 \
    --log results/outcome/puct-log/positions-3p-more.jsonl \
    > results/outcome/puct-log/run-3p-more.json 2> results/outcome/puct-log/run-3p-more.log
