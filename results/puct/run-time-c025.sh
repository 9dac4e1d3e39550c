#!/usr/bin/env bash
# Issue 25, target (c) for the best setting at 30 ms: four times the time (0.12 s against three copies at
# 0.03 s), every seat `select=puct,policy=1,c_puct=0.25` (8 random turns), 4-player Imperium, deals 52000-52024
# x 4 seats = 100 games (fair 25 %, target 50 %). Planned (session of 2026-12-04, 2nd): about 7 minutes of wall
# time on 2 cores; the log resumes.
set -euo pipefail
cd "$(dirname "$0")/../.."
PY="nice -n 10 ${PY:-.venv/bin/python}"
o="select=puct,policy=1,c_puct=0.25"
$PY scripts/strength.py --candidate "ismcts:seconds=0.12,$o" --opponent "ismcts:seconds=0.03,$o" \
    --board imperium --players 4 --seeds 25 --seed-start 52000 --json --jobs 2 \
    --log results/puct/time-c025.jsonl > results/puct/time-c025.json 2> results/puct/time-c025.log
