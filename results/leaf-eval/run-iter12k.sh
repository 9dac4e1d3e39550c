#!/usr/bin/env bash
# Issue 25, deliverable 0, the check behind the time table: four times the time bought nothing at 0.12 s
# against 0.03 s (22.5 % of 80, fair 25 %) where four times the iterations at 2,400 against 600 won 42.5 %.
# Is it the budget's size (returns that vanish above a few thousand iterations) or the time budget itself?
# The same match at fixed iterations near those budgets: 12,000 against three copies at 3,000 (about what
# 0.12 s and 0.03 s buy), today's leaf evaluation, 80 games. Planned (session of 2026-12-04): about 10
# minutes of wall time on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/../.."
PY="nice -n 10 ${PY:-.venv/bin/python}"
$PY scripts/strength.py --candidate "ismcts:iterations=12000" --opponent "ismcts:iterations=3000" \
    --board imperium --players 4 --seeds 20 --seed-start 52000 --json --jobs 2 \
    --log results/leaf-eval/iter12k-random8.jsonl > results/leaf-eval/iter12k-random8.json \
    2> results/leaf-eval/iter12k-random8.log
