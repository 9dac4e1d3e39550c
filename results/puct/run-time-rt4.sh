#!/usr/bin/env bash
# Issue 25, target (c) with 4 random turns behind each leaf: four times the time (0.12 s against three copies at
# 0.03 s), every seat `select=puct,policy=1,c_puct=0.25,rollout_turns=4`, 4-player Imperium, deals 52000-52019
# x 4 seats = 80 games (SEEDS=25: 100 games, the issue's size; the deals of today's row in results/leaf-eval/ and of run-time-ladder.sh; fair 25 %).
# Why: under PUCT with the learned prior, 4 random turns held their strength at 30 ms in the screen (31 of 60
# against 30 of 60 with 8), and with 2 random turns time paid again (results/leaf-eval/). Planned (session of
# 2026-12-04, 2nd): about 6 minutes of wall time on 2 cores (the 8-turn row took 358 s).
set -euo pipefail
cd "$(dirname "$0")/../.."
PY="nice -n 10 ${PY:-.venv/bin/python}"
o="select=puct,policy=1,c_puct=0.25,rollout_turns=4"
$PY scripts/strength.py --candidate "ismcts:seconds=0.12,$o" --opponent "ismcts:seconds=0.03,$o" \
    --board imperium --players 4 --seeds ${SEEDS:-20} --seed-start 52000 --json --jobs 2 \
    --log results/puct/time-rt4.jsonl > results/puct/time-rt4.json 2> results/puct/time-rt4.log
