#!/usr/bin/env bash
# Can the warm-started value model stand after fewer random turns? (issue 25, deliverable 3: each generation
# measures the leaf against 2 and 8 random turns at equal time; session of 2026-12-04, 7th.) Both sides with
# results/value-warm/weights, the candidate with ROLLOUT's knobs, the incumbent the default (8 random turns); 4-player
# Imperium at 30 ms a move, deals from 82000 x 4 seats, an SPRT of the fair 25 % against 35 %, at most 200 games.
#   rt2: rollout_turns=2      rt1: rollout_turns=1 (the leaf's turn finished, judged at the next turn start)
# Planned: about 12 CPU s a game; an SPRT decides in 40-120 games: 5-15 minutes of wall time on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/../.."
for row in ${ROWS:-rt2}; do
  case $row in
    rt2) knobs="rollout_turns=2" ;;
    rt1) knobs="rollout_turns=1" ;;
  esac
  nice -n 10 ${PY:-.venv/bin/python} scripts/gate.py --candidate "$knobs" --candidate-value results/value-warm/weights \
      --incumbent-value results/value-warm/weights --board imperium --players 4 --seconds 0.03 --games 200 \
      --seed-start 82000 --jobs 2 --log "results/value-warm/screen-$row.jsonl" \
      > "results/value-warm/screen-$row.json" 2> "results/value-warm/screen-$row.log"
done
