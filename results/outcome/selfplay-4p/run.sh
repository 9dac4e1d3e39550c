#!/usr/bin/env bash
# Issue 24, the opening target with 4 players: the first seat's self-play win rate and mean final score under
# today's default search (PUCT with the learned prior and, since 2026-12-04 (5th session), c_puct_log "auto":
# 0.45 with 4 players, the hint's own weight), 30 ms a move, deals 58000-58037 with every seat rotation (152
# games a board). The references of results/outcome/opening were the UCB search at 300 iterations (win %) and
# 25 mixed games (VP); these settings missed: Italia's win % (28.8 shown against 23.7), Creta's and Aegyptus's
# VP. Planned (session of 2026-12-04, 5th): about 25 CPU minutes a board, 75 in all, in this order; the logs
# resume.
set -euo pipefail
cd "$(dirname "$0")/../../.."
for board in ${BOARDS:-italia creta aegyptus}; do
  nice -n 10 ${PY:-.venv/bin/python} scripts/strength.py --candidate "ismcts:seconds=0.03" --opponent "ismcts:seconds=0.03" \
      --board "$board" --players 4 --seeds 38 --seed-start 58000 --json --jobs 2 \
      --log "results/outcome/selfplay-4p/$board.jsonl" > "results/outcome/selfplay-4p/$board.json" \
      2> "results/outcome/selfplay-4p/$board.log"
done
