#!/usr/bin/env bash
# The 2-player references of the opening check, made again for generation 5 (issue 25: installing results/loop/gen-5;
# session of 2026-12-05, 13th): self-play of generation 5 as it will be the default (rollout_turns=4, its policy and
# value weights in concordia_ai/data/ of the checkout this runs from), 30 ms a move, the deals of
# results/outcome/selfplay-2p-net/ (from 58000), seats swapped on each, four boards, whose first turns all go into the
# final-result model's fit (run-open.sh) and which are the opening check's 2-player references. DEALS=60 a board
# (480 games; today's references have 125, 1,000 games): a game of generation 5 costs about 5 CPU s (2.6 s of wall
# time on 2 cores), twice what was planned first, and 1,000 games and their openings would not fit the session.
# Planned: 480 games x 5 CPU s, about 40 CPU minutes, about 21 minutes of wall time on 2 cores; the logs resume
# (DEALS=125 later adds the rest of today's deals: run in the 14th session, 520 games in 32 minutes of wall time,
# part of it shared with another run; the four logs now hold 125 deals a board, 1,000 games).
set -euo pipefail
cd "$(dirname "$0")/../../.."
for board in ${BOARDS:-imperium italia creta aegyptus}; do
  nice -n 10 ${PY:-.venv/bin/python} scripts/strength.py --candidate "ismcts:seconds=0.03,rollout_turns=4" \
      --opponent "ismcts:seconds=0.03,rollout_turns=4" --board "$board" --players 2 --seeds "${DEALS:-60}" \
      --seed-start 58000 --json --jobs 2 --log "results/outcome/selfplay-2p-gen5/$board.jsonl" \
      > "results/outcome/selfplay-2p-gen5/$board.json" 2> "results/outcome/selfplay-2p-gen5/$board.log"
done
