#!/usr/bin/env bash
# More 2-player data for the hint's final-result model (issue 24, session of 2026-12-04, 4th). The 2-player
# opening showed the first seat at 57-60 % against 47-51 % in self-play. Its first-round rows came from the 50
# games of positions-2p.jsonl, in which the first seat won 31 (62 %) by the draw of mixed opponents (in the 100
# UCB-round games of results/outcome/ it won 49). Here 100 new games on the same plan (deals 9550-9649, none
# used before; mixed opponents; 4 drawn positions and the first turn of each), searched as the hint searches
# (PUCT with the growing weight) at 3 s and 0.3 s of one thread. Older logs keep no positions, so they cannot
# be searched again. Planned: about 500 positions x 3.3 CPU s + the games = 30-35 CPU minutes, 20-35 minutes
# of wall time on 2 cores shared with other runs; the log resumes (rerun to continue after a stop).
set -euo pipefail
cd "$(dirname "$0")/../../.."
nice -n 10 ${PY:-.venv/bin/python} scripts/outcome_data.py --players 2 --games 100 --first-game 50 --per-game 4 \
    --budgets 3,0.3 --opening --seed 9500 --search select=puct,policy=1,c_puct=0.25,c_puct_log=0.45 --jobs 2 \
    --log results/outcome/puct-log/positions-2p-more.jsonl \
    > results/outcome/puct-log/run-2p-more.json 2> results/outcome/puct-log/run-2p-more.log
