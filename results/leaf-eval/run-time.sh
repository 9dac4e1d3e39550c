#!/usr/bin/env bash
# Issue 25, deliverable 0, second table: the same question at the issue's budgets, in time rather than
# iterations: 0.12 s a move against three copies at 0.03 s, 4-player Imperium, deals 52000-52019 x 4 seats
# = 80 games a row (fair share 25 %). Planned before the run (session of 2026-12-04): about 15 CPU s a game
# (72 candidate choices at 0.12 s, 3 x 72 at 0.03 s), so about 10 minutes of wall time per row on 2 cores,
# 30 minutes for the three rows; run from a separate worktree so that rebuilds of the core in the main
# checkout cannot reach it; each row's log is appended game by game (a rerun resumes).
set -euo pipefail
cd "$(dirname "$0")/../.."
PY="nice -n 10 ${PY:-.venv/bin/python}"
run() {  # name, extra spec options
  $PY scripts/strength.py --candidate "ismcts:seconds=0.12$2" --opponent "ismcts:seconds=0.03$2" \
      --board imperium --players 4 --seeds 20 --seed-start 52000 --json --jobs 2 \
      --log "results/leaf-eval/time-$1.jsonl" > "results/leaf-eval/time-$1.json" 2> "results/leaf-eval/time-$1.log"
}
run random8 ""                   # today: the value model after 8 random turns
run leaf ",rollout=none"         # the value model at the leaf, no rollout
run random2 ",rollout_turns=2"   # after 2 random turns
