#!/usr/bin/env bash
# The queue after the 3-player chunk stopped on a position with one legal turn (fixed in outcome_data.py:
# such a position is recorded as forced, without a search). Each step resumes from its log.
#   1. the first round's rest: 3 players (resumes at its 21st game), 4 and 5 players (about 35 minutes)
#   2. the tie rule's second stability sweep (52 positions x 5 seeds at 3 s, about 7 minutes)
#   3. the 2-player default against both plan bots (100 games each, about 3 minutes each)
#   4. the second round of positions, games 50-99, 2 players first (about 45 minutes)
set -euo pipefail
cd "$(dirname "$0")/../.."
PY="nice -n 10 .venv/bin/python"
chunk() {   # players, first game, tag
  $PY scripts/outcome_data.py --players "$1" --games 50 --first-game "$2" --per-game 4 --budgets 3,0.3 \
      --seed $((7000 + 1000 * $1)) --jobs 2 --log "results/outcome/positions-$1p.jsonl" \
      > "results/outcome/$3-$1p.json" 2> "results/outcome/$3-$1p.log"
}
for n in 3 4 5; do chunk "$n" 0 run; done
$PY scripts/stability.py --positions 52 --seeds 5 --budgets 3 --bot ismcts:focus=0.25 --tie-rounds 2 --jobs 2 \
    --out results/stability-focus/outcome_pick_tie2.json > results/stability-focus/outcome_pick_tie2.txt 2>&1
mkdir -p results/strength/outcome
for plan in mars minerva; do
  $PY scripts/strength.py --candidate ismcts:seconds=0.03,iterations=0 --opponent plan:$plan --board italia \
      --players 2 --seeds 50 --json --jobs 2 --log results/strength/outcome/default_vs_$plan.jsonl \
      > results/strength/outcome/default_vs_$plan.json 2> results/strength/outcome/default_vs_$plan.log
done
for n in 2 3 4 5; do chunk "$n" 50 run2; done
