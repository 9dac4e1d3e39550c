#!/usr/bin/env bash
# Issue 25: the third round of the PUCT tuning screen (same deals and opponents as run-tune.sh: 3-player
# Italia, 53000-53019 x 3 seats = 60 games, two copies of today's default at 30 ms; fair share 33.3 %).
# c_puct 0.25 led the second round (32 of 60; 0.5: 30, 1: 26, 2: 25): one step lower.
# Planned (session of 2026-12-04, 2nd): about 200 s of wall time each on 2 cores, about 3.5 minutes.
set -euo pipefail
cd "$(dirname "$0")/../.."
PY="nice -n 10 ${PY:-.venv/bin/python}"
run() {  # name, candidate options
  $PY scripts/strength.py --candidate "ismcts:seconds=0.03,$2" --opponent "ismcts:seconds=0.03" \
      --board italia --players 3 --seeds 20 --seed-start 53000 --json --jobs 2 \
      --log "results/puct/tune-$1.jsonl" > "results/puct/tune-$1.json" 2> "results/puct/tune-$1.log"
}
run c01 "select=puct,policy=1,c_puct=0.1"
