#!/usr/bin/env bash
# Issue 25, target (c), for the PUCT selection with the learned prior: four times the time (0.12 s against
# three copies at 0.03 s, all `select=puct,policy=1`), 4-player Imperium, deals 52000-52019 x 4 seats = 80
# games (fair 25 %; target 50 % over 100). The same deals as today's row in results/leaf-eval/ (22.5 %).
# Planned (session of 2026-12-04): about 9 minutes of wall time on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/../.."
PY="nice -n 10 ${PY:-.venv/bin/python}"
$PY scripts/strength.py --candidate "ismcts:seconds=0.12,select=puct,policy=1" \
    --opponent "ismcts:seconds=0.03,select=puct,policy=1" --board imperium --players 4 --seeds 20 \
    --seed-start 52000 --json --jobs 2 --log results/puct/time-ladder-learned.jsonl \
    > results/puct/time-ladder-learned.json 2> results/puct/time-ladder-learned.log
