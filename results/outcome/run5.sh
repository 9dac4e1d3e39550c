#!/usr/bin/env bash
# After the first plan-bot match (started by run4.sh): the match against the other plan bot (about 3 minutes),
# the stability sweep with the tie rule reaching every round (TIE_ROUNDS 99: any candidate within noise of the
# best finalist on a quarter of its visits; about 13 minutes), then the second round of positions for 2, 3
# and 4 players (with win values and openings; about 35 minutes). 5 players' second round is left out: it
# would end past the session's last hour.
set -euo pipefail
cd "$(dirname "$0")/../.."
PY="nice -n 10 .venv/bin/python"
$PY scripts/strength.py --candidate ismcts:seconds=0.03,iterations=0 --opponent plan:minerva --board italia \
    --players 2 --seeds 50 --json --jobs 2 --log results/strength/outcome/default_vs_minerva.jsonl \
    > results/strength/outcome/default_vs_minerva.json 2> results/strength/outcome/default_vs_minerva.log
$PY scripts/stability.py --positions 52 --seeds 5 --budgets 3 --bot ismcts:focus=0.25 --tie-rounds 99 --jobs 2 \
    --out results/stability-focus/outcome_pick_tie99.json > results/stability-focus/outcome_pick_tie99.txt 2>&1
for n in 2 3 4; do
  $PY scripts/outcome_data.py --players "$n" --games 50 --first-game 50 --per-game 4 --budgets 3,0.3 --opening \
      --seed $((7000 + 1000 * n)) --jobs 2 --log "results/outcome/positions-${n}p.jsonl" \
      > "results/outcome/run2-${n}p.json" 2> "results/outcome/run2-${n}p.log"
done
