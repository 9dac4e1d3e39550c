#!/usr/bin/env bash
# Issue 25, deliverable 1: a first screen of the PUCT selection against today's default at 30 ms a move,
# 3-player Italia, deals 53000-53019 x 3 seats = 60 games a candidate (fair share 33.3 %), two copies of
# today's default in the other seats. Planned (session of 2026-12-04): about 5.5 CPU s a game, so about 3
# minutes of wall time per candidate on 2 cores, 12 minutes for the four; screening only (60 games tell
# 20-point differences apart, not 5): the winner, if any, gets the issue's 200-game match.
set -euo pipefail
cd "$(dirname "$0")/../.."
PY="nice -n 10 ${PY:-.venv/bin/python}"
run() {  # name, candidate options
  $PY scripts/strength.py --candidate "ismcts:seconds=0.03,$2" --opponent "ismcts:seconds=0.03" \
      --board italia --players 3 --seeds 20 --seed-start 53000 --json --jobs 2 \
      --log "results/puct/screen-$1.jsonl" > "results/puct/screen-$1.json" 2> "results/puct/screen-$1.log"
}
run heur "select=puct,prior=true"             # the heuristic's prior (softmax of the greedy values)
run learned "select=puct,policy=1"            # the learned prior of generation 1
run heur-c2 "select=puct,prior=true,c_puct=2" # a wider prior term
run uniform "select=puct"                     # no prior: PUCT with 1/n
