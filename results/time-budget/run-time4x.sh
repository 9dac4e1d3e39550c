#!/usr/bin/env bash
# Issue 25, target (c), measured again with a true time budget. Found in the session of 2026-12-04 (5th): a bot
# spec `ismcts:seconds=0.12` kept SearchConfig's default `iterations=5000`, and a search stops at whichever
# budget comes first, so every earlier "0.12 s against 0.03 s" match gave the candidate at most 5,000
# iterations a move (0.046 s of CPU a move on average, against 0.030 s for the 0.03 s copies): about 1.5 times
# the search, not 4. Here both specs say `iterations=0`: four times the time for real. Today's default (PUCT,
# the loop's prior, c_puct_log auto = 0.45 with 4 players), 4-player Imperium, deals 52000-52024 x 4 seats = 100
# games (the deals of results/puct/run-time-clog.sh). Planned: about 27 CPU minutes, 20-40 minutes of wall time
# on 2 cores shared with other runs; the log resumes.
set -euo pipefail
cd "$(dirname "$0")/../.."
nice -n 10 ${PY:-.venv/bin/python} scripts/strength.py --candidate "ismcts:seconds=0.12,iterations=0" \
    --opponent "ismcts:seconds=0.03,iterations=0" --board imperium --players 4 --seeds 25 --seed-start 52000 \
    --json --jobs 2 --log results/time-budget/time4x.jsonl > results/time-budget/time4x.json \
    2> results/time-budget/time4x.log
