#!/usr/bin/env bash
# Deliverable 3's value model in search (issue 25, session of 2026-12-04, 3rd): generation 2's value model
# (results/loop/gen-2/value-weights, LAMBDA 0.5) against the shipped one, both sides the bots' default search
# otherwise (PUCT, the shipped prior), 4-player Imperium at 30 ms a move (equal time), an SPRT against the fair
# share (H1: +10 points) that stops when decided, at most 200 games:
#   rt8: the new model after 8 random turns (today's leaf), against the default
#   rt2: the new model after 2 random turns, against the default (8): the iterations that fewer turns buy
# Planned: 4-player games at 30 ms cost about 12 CPU s each; an SPRT decides in 40-120 games: 5-15 minutes of
# wall time a row on 2 cores. Each log resumes.
set -euo pipefail
cd "$(dirname "$0")/../.."
PY="nice -n 10 ${PY:-.venv/bin/python}"
for row in ${ROWS:-rt8 rt2}; do
  case $row in
    rt8) cand="rollout_turns=8" ;;
    rt2) cand="rollout_turns=2" ;;
  esac
  $PY scripts/gate.py --candidate "$cand" --candidate-value results/loop/gen-2/value-weights \
      --board imperium --players 4 --seconds 0.03 --games 200 --seed-start 64000 --jobs 2 \
      --log "results/value-d3/screen-$row.jsonl" > "results/value-d3/screen-$row.json" 2> "results/value-d3/screen-$row.log"
done
