#!/usr/bin/env bash
# Session of 2026-12-03 (evening): 5 players' second round, left out of run5.sh. Planned before the run:
# 50 games (deals 12050-12099), 4 turn starts per game plus every game's first turn, at 3 s and 0.3 s; about
# 12-15 minutes of wall time on 2 cores (the first round took 665 s for 50 games without openings).
set -euo pipefail
cd "$(dirname "$0")/../.."
PY="nice -n 10 .venv/bin/python"
$PY scripts/outcome_data.py --players 5 --games 50 --first-game 50 --per-game 4 --budgets 3,0.3 --opening \
    --seed 12000 --jobs 2 --log results/outcome/positions-5p.jsonl \
    > results/outcome/run2-5p.json 2> results/outcome/run2-5p.log
