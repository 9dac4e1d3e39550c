#!/usr/bin/env bash
# The opening check's 2-player references for the value model as the 2-player evaluation (issue 24, deliverable 2;
# session of 2026-12-04, 8th): the first seat's win rate and the mean final score in self-play of the default
# search with eval=net (what eval auto means with 2 players from this session; results/net-2p/), 30 ms a move,
# deals 58000-58074 with the seats swapped on each: 150 games a board, four boards. The references of
# results/outcome/selfplay-2p/ are the hand formula's self-play. Planned: 600 games x about 3.5 CPU s, about 35 CPU
# minutes, 25-45 minutes of wall time on 2 cores shared with other runs; the logs resume.
set -euo pipefail
cd "$(dirname "$0")/../../.."
for board in ${BOARDS:-imperium italia creta aegyptus}; do
  nice -n 10 ${PY:-.venv/bin/python} scripts/strength.py --candidate "ismcts:seconds=0.03,eval=net" \
      --opponent "ismcts:seconds=0.03,eval=net" --board "$board" --players 2 --seeds 75 --seed-start 58000 \
      --json --jobs 2 --log "results/outcome/selfplay-2p-net/$board.jsonl" \
      > "results/outcome/selfplay-2p-net/$board.json" 2> "results/outcome/selfplay-2p-net/$board.log"
done
