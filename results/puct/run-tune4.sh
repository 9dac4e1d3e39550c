#!/usr/bin/env bash
# Issue 25: the fourth round of the PUCT tuning screen (same deals and opponents as run-tune.sh: 3-player
# Italia, 53000-53019 x 3 seats = 60 games, two copies of today's default at 30 ms; fair share 33.3 %).
# At c_puct 0.25: 4 and 2 random turns behind each leaf instead of 8 (4 held at c_puct 0.5, and time paid with 4: run-time-rt4.sh).
# Planned (session of 2026-12-04, 2nd): about 200 s of wall time each on 2 cores, about 7 minutes.
set -euo pipefail
cd "$(dirname "$0")/../.."
PY="nice -n 10 ${PY:-.venv/bin/python}"
run() {  # name, candidate options
  $PY scripts/strength.py --candidate "ismcts:seconds=0.03,$2" --opponent "ismcts:seconds=0.03" \
      --board italia --players 3 --seeds 20 --seed-start 53000 --json --jobs 2 \
      --log "results/puct/tune-$1.jsonl" > "results/puct/tune-$1.json" 2> "results/puct/tune-$1.log"
}
run c025-rt4 "select=puct,policy=1,c_puct=0.25,rollout_turns=4"
run c025-rt2 "select=puct,policy=1,c_puct=0.25,rollout_turns=2"
