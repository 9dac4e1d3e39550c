#!/usr/bin/env bash
# Issue 25: the two changes that screened well, together: PUCT with the learned prior (43.3 % of 60 in
# run-screen.sh) and 2 random turns (results/leaf-eval/run-screen-rollout2.sh). Same screen: 3-player
# Italia at 30 ms, deals 53000-53019 x 3 seats, 60 games, about 3 minutes on 2 cores (session of 2026-12-04).
set -euo pipefail
cd "$(dirname "$0")/../.."
PY="nice -n 10 ${PY:-.venv/bin/python}"
$PY scripts/strength.py --candidate "ismcts:seconds=0.03,select=puct,policy=1,rollout_turns=2" \
    --opponent "ismcts:seconds=0.03" --board italia --players 3 --seeds 20 --seed-start 53000 --json --jobs 2 \
    --log results/puct/screen-learned-r2.jsonl > results/puct/screen-learned-r2.json 2> results/puct/screen-learned-r2.log
