#!/usr/bin/env bash
# 100 more 4-player positions' games for the hint's search (issue 24, session of 2026-12-04, 6th): the opening
# check puts the hint's 4-player first seat at 28.6-30.3 % on every board against 24.0 % in 608 self-play games.
# In the 100 mixed-opponent games the model was fitted on, the first seat won 29 (21 of the first 50, 8 of the
# next 50): the first round's weight is fitted by the winner's likelihood on those games, so it learned that
# draw. Games 100-199 of the same deals' seed (deals 11600-11699, none used before), every game's first turn
# too, searched as the hint searches (the bots' 4-player c_puct_log, 0.45), at 3 s and 0.3 s.
# Two chunks of 50 games (CHUNK=a: games 100-149, CHUNK=b: 150-199), one log: a rerun plays only the missing
# games. Planned: about 13 minutes of wall time per chunk on 2 cores alone (the last 50 took 768 s).
set -euo pipefail
cd "$(dirname "$0")/../../.."
case "${CHUNK:-a}" in a) FIRST=100 ;; b) FIRST=150 ;; *) echo "CHUNK: a or b" >&2; exit 2 ;; esac
nice -n 10 ${PY:-.venv/bin/python} scripts/outcome_data.py --players 4 --games 50 --first-game "$FIRST" --per-game 4 \
    --budgets 3,0.3 --opening --seed 11500 --search select=puct,policy=1,c_puct=0.25,c_puct_log=0.45 --jobs 2 \
    --log results/outcome/puct-log/positions-4p-more2.jsonl \
    > "results/outcome/puct-log/run-4p-more2-${CHUNK:-a}.json" 2> "results/outcome/puct-log/run-4p-more2-${CHUNK:-a}.log"
