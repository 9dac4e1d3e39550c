#!/usr/bin/env bash
# The final-result model's data for the PUCT search (the bots' default since 2026-12-04, 2nd session): new
# games against mixed opponents, each drawn position searched as the hint will search it once it moves to
# PUCT (`--search select=puct,policy=1,c_puct=0.25`, the prior of the loop's generation 1), at 3 s and 0.3 s of
# one thread, every game's first turn too. One chunk per player count, 50 games x (4 + the opening) = about 250
# positions each; every record keeps its positions (`--from` can search them again after another change).
# Planned: 10-13 minutes of wall time per chunk on 2 cores (the UCB rounds took 558-744 s); run in the order
# PLAYERS gives, each log resumes. Deals 7500 + 1000 N (none used by the UCB rounds' 7000 + 1000 N + 0..99).
# The opponents' pool (outcome_data.POOL) names `ismcts` at three budgets: the default search of the code that
# runs the chunk (all four chunks ran on 2026-12-04, 2nd session, with the UCB default).
set -euo pipefail
cd "$(dirname "$0")/../../.."
PY="nice -n 10 ${PY:-.venv/bin/python}"
for n in ${PLAYERS:-2 3 4 5}; do
  $PY scripts/outcome_data.py --players "$n" --games 50 --per-game 4 --budgets 3,0.3 --opening \
      --seed $((7500 + 1000 * n)) --search select=puct,policy=1,c_puct=0.25 --jobs 2 \
      --log "results/outcome/puct/positions-${n}p.jsonl" \
      > "results/outcome/puct/run-${n}p.json" 2> "results/outcome/puct/run-${n}p.log"
done
