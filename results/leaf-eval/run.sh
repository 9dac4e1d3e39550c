#!/usr/bin/env bash
# Issue 25, deliverable 0: where more time is lost. For each leaf evaluation, four times the iterations
# (2,400, about 25 ms a move here) against three copies at 600, 4-player Imperium, 20 deals x 4 seats = 80
# games with seat rotation (fair share 25 %). Planned before the run: about 3.5 CPU s a game at 8 random
# turns, so about 5 minutes of wall time per row on 2 cores, 25-30 minutes in all; each row's log is
# appended game by game (a rerun resumes) and committed as the row ends.
set -euo pipefail
cd "$(dirname "$0")/../.."
PY="nice -n 10 .venv/bin/python"
run() {  # name, extra spec options
  $PY scripts/strength.py --candidate "ismcts:iterations=2400$2" --opponent "ismcts:iterations=600$2" \
      --board imperium --players 4 --seeds 20 --seed-start 52000 --json --jobs 2 \
      --log "results/leaf-eval/$1.jsonl" > "results/leaf-eval/$1.json" 2> "results/leaf-eval/$1.log"
}
run random8 ""                                   # today: the value model after 8 random turns
run random2 ",rollout_turns=2"                   # after 2 random turns
run leaf ",rollout=none"                         # the value model at the leaf, no rollout
run greedy2 ",rollout=greedy,rollout_turns=2"    # a cheap greedy rollout (epsilon 0.2), 2 turns
