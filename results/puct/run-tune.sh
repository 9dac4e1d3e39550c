#!/usr/bin/env bash
# Issue 25, deliverable 1: tuning the PUCT options of `select=puct,policy=1` (the learned prior of generation 1),
# one option at a time around the helper's defaults (c_puct 1, fpu_reduction 0.2, scaled), on the first
# screen's deals (3-player Italia, 53000-53019 x 3 seats = 60 games, two copies of today's default at 30 ms;
# fair share 33.3 %; the defaults won 26 of 60 there). Planned (session of 2026-12-04, 2nd): about 200 s of
# wall time per candidate on 2 cores, 4 candidates, about 14 minutes. A screen: 60 games tell 20 points apart;
# a candidate goes to the 200-game match only if it screens clearly above the defaults.
set -euo pipefail
cd "$(dirname "$0")/../.."
PY="nice -n 10 ${PY:-.venv/bin/python}"
run() {  # name, candidate options
  $PY scripts/strength.py --candidate "ismcts:seconds=0.03,$2" --opponent "ismcts:seconds=0.03" \
      --board italia --players 3 --seeds 20 --seed-start 53000 --json --jobs 2 \
      --log "results/puct/tune-$1.jsonl" > "results/puct/tune-$1.json" 2> "results/puct/tune-$1.log"
}
run c05 "select=puct,policy=1,c_puct=0.5"
run c2 "select=puct,policy=1,c_puct=2"
run fpu0 "select=puct,policy=1,fpu_reduction=0"
run fpu04 "select=puct,policy=1,fpu_reduction=0.4"
