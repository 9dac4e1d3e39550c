#!/usr/bin/env bash
# After the tie rule's second stability sweep (started by run3.sh): the 2-player default against both plan
# bots (100 games each, about 3 minutes each), then the second round of the final-result model's positions
# (games 50-99 of every player count, 2 players first), now with every game's first turn searched too
# (--opening: the opening's figures were off in results/outcome/opening.json, and drawn turn starts rarely
# fall on it), and with the seats' win values recorded; about 50 minutes in all.
set -euo pipefail
cd "$(dirname "$0")/../.."
PY="nice -n 10 .venv/bin/python"
mkdir -p results/strength/outcome
for plan in mars minerva; do
  $PY scripts/strength.py --candidate ismcts:seconds=0.03,iterations=0 --opponent plan:$plan --board italia \
      --players 2 --seeds 50 --json --jobs 2 --log results/strength/outcome/default_vs_$plan.jsonl \
      > results/strength/outcome/default_vs_$plan.json 2> results/strength/outcome/default_vs_$plan.log
done
for n in 2 3 4 5; do
  $PY scripts/outcome_data.py --players "$n" --games 50 --first-game 50 --per-game 4 --budgets 3,0.3 --opening \
      --seed $((7000 + 1000 * n)) --jobs 2 --log "results/outcome/positions-${n}p.jsonl" \
      > "results/outcome/run2-${n}p.json" 2> "results/outcome/run2-${n}p.log"
done
