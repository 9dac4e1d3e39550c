#!/usr/bin/env bash
# The 2-player Creta self-play reference, doubled: run-boards.sh played deals 57000-57074 (150 games, the first
# seat won 54.7 %, 95 % CI 46.7-62.4), and the opening hint's 49.3 % missed it by 5.4 points. This plays deals
# 57075-57149 into the same log (it resumes the first 75 deals and adds 75), 300 games in all: a reference half
# as noisy, whatever it says. Planned (session of 2026-12-04, 5th): about 11 CPU minutes, 10-30 minutes of wall
# time on 2 cores shared with other runs.
set -euo pipefail
cd "$(dirname "$0")/../../.."
nice -n 10 ${PY:-.venv/bin/python} scripts/strength.py --candidate "ismcts:seconds=0.03" --opponent "ismcts:seconds=0.03" \
    --board creta --players 2 --seeds 150 --seed-start 57000 --json --jobs 2 \
    --log results/outcome/selfplay-2p/creta.jsonl > results/outcome/selfplay-2p/creta.json \
    2> results/outcome/selfplay-2p/creta.log
