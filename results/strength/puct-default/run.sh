#!/usr/bin/env bash
# Issue 24's 2-player target for the new default (PUCT with the learned prior, c_puct 0.25; docs/engine.md
# section 9): against each plan bot at least 90 % of 100 games, 2-player Italia, 30 ms a move, seats swapped
# (50 deals x 2 seats), as results/strength/outcome/ measured the UCB default of before (96 and 98 of 100).
# Planned (session of 2026-12-04, 2nd): about 4 minutes of wall time each on 2 cores; the logs resume.
set -euo pipefail
cd "$(dirname "$0")/../../.."
PY="nice -n 10 ${PY:-.venv/bin/python}"
for plan in mars minerva; do
  $PY scripts/strength.py --candidate "ismcts:seconds=0.03,iterations=0,select=puct,policy=1,c_puct=0.25" \
      --opponent "plan:$plan" --board italia --players 2 --seeds 50 --json --jobs 2 \
      --log "results/strength/puct-default/vs_$plan.jsonl" > "results/strength/puct-default/vs_$plan.json" \
      2> "results/strength/puct-default/vs_$plan.log"
done
