#!/usr/bin/env bash
# The held-out positions of the final-result model, one chunk per player count (each about 7-10 minutes of
# wall time on 2 cores: 50 games, 4 positions each, searched at 3 s and 0.3 s of one thread).
set -euo pipefail
cd "$(dirname "$0")/../.."
for n in ${PLAYERS:-2 3 4 5}; do
  nice -n 10 .venv/bin/python scripts/outcome_data.py --players "$n" --games 50 --per-game 4 --budgets 3,0.3 \
      --seed $((7000 + 1000 * n)) --jobs 2 --log "results/outcome/positions-${n}p.jsonl" \
      > "results/outcome/run-${n}p.json" 2> "results/outcome/run-${n}p.log"
done
