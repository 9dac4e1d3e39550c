#!/usr/bin/env bash
# Issue 25, target (c) with a prior term that grows with the visits (c_puct_log 0.45 at base 500, KataGo's
# setting): four times the time (0.12 s against three copies at 0.03 s), every seat
# `select=puct,policy=1,c_puct=0.25,c_puct_log=0.45`, 4-player Imperium, deals 52000-52024 x 4 seats = 100 games
# (fair 25 %, target 50 %); the same deals as run-time-c025.sh, which has c_puct_log 0. Planned (session of
# 2026-12-04, 2nd): about 7 minutes of wall time on 2 cores; the log resumes.
set -euo pipefail
cd "$(dirname "$0")/../.."
PY="nice -n 10 ${PY:-.venv/bin/python}"
o="select=puct,policy=1,c_puct=0.25,c_puct_log=0.45"
$PY scripts/strength.py --candidate "ismcts:seconds=0.12,$o" --opponent "ismcts:seconds=0.03,$o" \
    --board imperium --players 4 --seeds 25 --seed-start 52000 --json --jobs 2 \
    --log results/puct/time-clog.jsonl > results/puct/time-clog.json 2> results/puct/time-clog.log
