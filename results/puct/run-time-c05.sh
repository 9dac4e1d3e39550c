#!/usr/bin/env bash
# Issue 25, target (c) with c_puct 0.5 (the 4-player screen's better c_puct at 30 ms): four times the time (0.12 s
# against three copies at 0.03 s), every seat `ismcts` with c_puct 0.5, 4-player Imperium, deals 52000-52024 x 4
# seats = 100 games (fair 25 %, target 50 %), the deals of run-time-c025.sh (27.0 % with c_puct 0.25).
# Planned (session of 2026-12-04, 4th): about 17 CPU minutes, 15-25 minutes of wall time shared; the log resumes.
set -euo pipefail
cd "$(dirname "$0")/../.."
PY="nice -n 10 ${PY:-.venv/bin/python}"
o="c_puct=0.5"
$PY scripts/strength.py --candidate "ismcts:seconds=0.12,$o" --opponent "ismcts:seconds=0.03,$o" \
    --board imperium --players 4 --seeds 25 --seed-start 52000 --json --jobs 2 \
    --log results/puct/time-c05.jsonl > results/puct/time-c05.json 2> results/puct/time-c05.log
