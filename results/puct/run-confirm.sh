#!/usr/bin/env bash
# Issue 25, target (a): the screen's best candidate against today's default at 30 ms a move, on new deals
# (not the screen's): 3-player Italia, deals 54000-54066 x 3 seats (201 games, fair 33.3 %, target 55 %),
# then 4-player Imperium, deals 55000-55049 x 4 seats (200 games, fair 25 %, target 45 %). Planned (session
# of 2026-12-04): about 10 + 15 minutes of wall time on 2 cores; each log resumes.
# Usage: results/puct/run-confirm.sh NAME "candidate options"
set -euo pipefail
cd "$(dirname "$0")/../.."
PY="nice -n 10 ${PY:-.venv/bin/python}"
name=$1; opts=$2
$PY scripts/strength.py --candidate "ismcts:seconds=0.03,$opts" --opponent "ismcts:seconds=0.03" \
    --board italia --players 3 --seeds 67 --seed-start 54000 --json --jobs 2 \
    --log "results/puct/confirm-$name-italia3.jsonl" > "results/puct/confirm-$name-italia3.json" 2> "results/puct/confirm-$name-italia3.log"
$PY scripts/strength.py --candidate "ismcts:seconds=0.03,$opts" --opponent "ismcts:seconds=0.03" \
    --board imperium --players 4 --seeds 50 --seed-start 55000 --json --jobs 2 \
    --log "results/puct/confirm-$name-imperium4.jsonl" > "results/puct/confirm-$name-imperium4.json" 2> "results/puct/confirm-$name-imperium4.log"
