#!/usr/bin/env bash
# Longer 2-player references for the opening check (issue 24; session of 2026-12-05, 9th): with 150 games a board the
# first seat's self-play rate has a 95 % interval of about +-8 points, wider than the check's 5, so the check on
# 2 players said more about the references than about the hint. 50 more deals a board (58075-58124, seats swapped
# on each: 100 games a board, 250 in all), every board alike, decided before the check's result on the longer
# references was known. The first turns of these new games are not in the final-result model's fit (that used
# the first 600 games, results/outcome/selfplay-open-2p/), so the check is held out on them. Planned: 400 games x
# about 16 CPU s, about 110 CPU minutes, 55-60 minutes of wall time on 2 cores; the logs resume.
set -euo pipefail
cd "$(dirname "$0")/../../.."
for board in ${BOARDS:-imperium italia creta aegyptus}; do
  nice -n 10 ${PY:-.venv/bin/python} scripts/strength.py --candidate "ismcts:seconds=0.03,eval=net" \
      --opponent "ismcts:seconds=0.03,eval=net" --board "$board" --players 2 --seeds 125 --seed-start 58000 \
      --json --jobs 2 --log "results/outcome/selfplay-2p-net/$board.jsonl" \
      > "results/outcome/selfplay-2p-net/$board.json" 2> "results/outcome/selfplay-2p-net/$board.log"
done
