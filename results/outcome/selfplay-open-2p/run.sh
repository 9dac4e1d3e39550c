#!/usr/bin/env bash
# The 2-player opening as the bot the hint stands for plays on from it (issue 24, the opening target; session of
# 2026-12-05, 9th): the first turn of every deal of the opening check's 2-player references (self-play of the
# default at 30 ms, results/outcome/selfplay-2p-net/, 75 deals a board, both seatings) searched as the hint
# searches it at 3 s and 0.3 s, one search per game. What the first round's fit was missing: its 150 two-player
# first turns came from games against mixed opponents. Planned: 600 positions x 3.3 CPU s, about 33 CPU minutes,
# 17-20 minutes of wall time on 2 cores; the log resumes (the first 300, the first seatings, ran first).
set -euo pipefail
cd "$(dirname "$0")/../../.."
d=results/outcome/selfplay-2p-net
nice -n 10 ${PY:-.venv/bin/python} scripts/outcome_data.py --players 2 --budgets 3,0.3 --jobs 2 \
    --openings-of $d/imperium.jsonl --openings-of $d/italia.jsonl --openings-of $d/creta.jsonl \
    --openings-of $d/aegyptus.jsonl \
    --log results/outcome/selfplay-open-2p/positions-2p.jsonl >> results/outcome/selfplay-open-2p/run.log 2>&1
