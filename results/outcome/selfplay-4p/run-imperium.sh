#!/usr/bin/env bash
# The 4-player Imperium self-play reference (run.sh played the other three boards): the first seat's win rate
# and mean final score under today's default at 30 ms, deals 58000-58037 with every seat rotation (152 games).
# Until now the opening check compared Imperium with the UCB bot's 28.5 %. Planned (session of 2026-12-04, 5th):
# about 25 CPU minutes, 13-15 minutes of wall time on 2 cores; the log resumes.
set -euo pipefail
cd "$(dirname "$0")/../../.."
nice -n 10 ${PY:-.venv/bin/python} scripts/strength.py --candidate "ismcts:seconds=0.03" --opponent "ismcts:seconds=0.03" \
    --board imperium --players 4 --seeds 38 --seed-start 58000 --json --jobs 2 \
    --log results/outcome/selfplay-4p/imperium.jsonl > results/outcome/selfplay-4p/imperium.json \
    2> results/outcome/selfplay-4p/imperium.log
