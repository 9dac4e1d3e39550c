#!/usr/bin/env bash
# The warm-started value model confirmed at equal time (issue 25; session of 2026-12-04, 7th): the screen
# (run-screen.sh) stopped "better" after 22 games; these are fixed-size matches (gate.py --fixed), every game
# counted, 30 ms a move, the candidate with results/value-warm/weights against copies of the shipped model:
#   imperium4: 4-player Imperium, 200 games (deals 80000-80049 x 4 seats): about 12 CPU s a game, 20 minutes
#              of wall time on 2 cores
#   italia3:   3-player Italia, 201 games (deals 81000-81066 x 3 seats): about 8 CPU s a game, 14 minutes
# Each log resumes. ROWS picks the rows (default both). In the session only imperium4 ran; italia3 gave its CPU to
# the recalibration and was replaced by an SPRT screen (run-screen-italia3.sh).
# Since the warm model is installed, the incumbent names the round-1 set it played with (then the shipped one).
set -euo pipefail
cd "$(dirname "$0")/../.."
PY="nice -n 10 ${PY:-.venv/bin/python}"
for row in ${ROWS:-imperium4 italia3}; do
  case $row in
    imperium4) args="--board imperium --players 4 --games 200 --seed-start 80000" ;;
    italia3)   args="--board italia --players 3 --games 201 --seed-start 81000" ;;
  esac
  $PY scripts/gate.py --candidate-value results/value-warm/weights \
    --incumbent-value results/value-warm/round1-weights $args --seconds 0.03 --fixed --jobs 2 \
      --log "results/value-warm/confirm-$row.jsonl" > "results/value-warm/confirm-$row.json" \
      2> "results/value-warm/confirm-$row.log"
done
