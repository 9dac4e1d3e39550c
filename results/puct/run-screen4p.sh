#!/usr/bin/env bash
# Issue 25, target (a) in 4-player Imperium (38.0 % of 200, target 45 %): a screen of one option at a time over
# today's default (`ismcts:seconds=0.03`: PUCT, the loop's prior, c_puct 0.25, 8 random turns), against three
# copies of the UCB default of before at 30 ms, on the first 15 deals of the confirming match (55000-55014 x 4
# seats = 60 games; today's default won 24 of those 60). The earlier tuning was on 3-player Italia only.
# Planned (session of 2026-12-04, 4th): about 7 minutes of both cores per candidate alone, more when shared;
# each log resumes. Usage: results/puct/run-screen4p.sh NAME "options" [NAME "options" ...]
set -euo pipefail
cd "$(dirname "$0")/../.."
PY="nice -n 10 ${PY:-.venv/bin/python}"
while [ $# -ge 2 ]; do
  name=$1; opts=$2; shift 2
  $PY scripts/strength.py --candidate "ismcts:seconds=0.03,$opts" --opponent "ismcts:seconds=0.03,select=ucb,policy=0" \
      --board imperium --players 4 --seeds 15 --seed-start 55000 --json --jobs 2 \
      --log "results/puct/screen4p-$name.jsonl" > "results/puct/screen4p-$name.json" 2> "results/puct/screen4p-$name.log"
done
