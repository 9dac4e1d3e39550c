#!/usr/bin/env bash
set -u
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
mkdir -p results/calibration-hint
# (d) calibration at the default hint budget: 3 s of CPU in each of 2 search threads, on fresh held-out
# games (seed 901, never used for the map), 150 games x 2 positions = 300 positions; jobs 1 over games
# because each search already uses both cores
$PY scripts/calibration.py --games 150 --per-game 2 --search "ismcts:seconds=3,iterations=0,jobs=2" \
    --play ismcts:iterations=300,eval=hand --seed 901 --jobs 1 --out results/calibration-hint \
    > results/calibration-hint/run.txt 2>&1
