#!/usr/bin/env bash
# Issue 25, after deliverable 0: does the 2-random-turn search beat today's default at equal time? 30 ms a
# move, the candidate `rollout_turns=2` against copies of today's default: 3-player Italia, deals
# 53000-53019 x 3 seats (60 games, fair 33.3 %), then 4-player Imperium, deals 52000-52019 x 4 seats (80
# games, fair 25 %). Planned (session of 2026-12-04): about 3 + 5 minutes of wall time on 2 cores. A screen:
# the issue's targets need 200 games each.
set -euo pipefail
cd "$(dirname "$0")/../.."
PY="nice -n 10 ${PY:-.venv/bin/python}"
$PY scripts/strength.py --candidate "ismcts:seconds=0.03,rollout_turns=2" --opponent "ismcts:seconds=0.03" \
    --board italia --players 3 --seeds 20 --seed-start 53000 --json --jobs 2 \
    --log results/leaf-eval/screen-r2-italia3.jsonl > results/leaf-eval/screen-r2-italia3.json 2> results/leaf-eval/screen-r2-italia3.log
$PY scripts/strength.py --candidate "ismcts:seconds=0.03,rollout_turns=2" --opponent "ismcts:seconds=0.03" \
    --board imperium --players 4 --seeds 20 --seed-start 52000 --json --jobs 2 \
    --log results/leaf-eval/screen-r2-imperium4.jsonl > results/leaf-eval/screen-r2-imperium4.json 2> results/leaf-eval/screen-r2-imperium4.log
