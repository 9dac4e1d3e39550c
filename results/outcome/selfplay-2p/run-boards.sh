#!/usr/bin/env bash
# The first seat's self-play win rate under today's default search on the other three 2-player boards (see
# run.sh: Imperium, 200 games), deals 57000-57074 with the seats swapped on each (150 games a board, about
# 11 CPU minutes each; the logs resume). Planned (session of 2026-12-04, 4th): 35 CPU minutes, 25-40 minutes
# of wall time on 2 cores shared with other runs.
set -euo pipefail
cd "$(dirname "$0")/../../.."
for board in ${BOARDS:-italia creta aegyptus}; do
  nice -n 10 ${PY:-.venv/bin/python} scripts/strength.py --candidate "ismcts:seconds=0.03" --opponent "ismcts:seconds=0.03" \
      --board "$board" --players 2 --seeds 75 --seed-start 57000 --json --jobs 2 \
      --log "results/outcome/selfplay-2p/$board.jsonl" > "results/outcome/selfplay-2p/$board.json" \
      2> "results/outcome/selfplay-2p/$board.log"
done
