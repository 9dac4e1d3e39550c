#!/usr/bin/env bash
# Issue 25, target (c) (session of 2026-12-05, 10th): four times the time with minimax_mix=0.3 in every seat, 0.12 s
# of CPU a move against three copies at 0.03 s, 4-player Imperium, deals 52000-52024 x 4 seats (the deals and bot
# seeds of results/time-budget/ and results/value-warm/time4x.jsonl, where the default won 34 of 100), 100 games
# at fixed size. Planned: about 15-18 minutes of wall time on 2 cores; the log resumes.
set -euo pipefail
cd "$(dirname "$0")/../.."
nice -n 10 ${PY:-.venv/bin/python} scripts/gate.py --candidate minimax_mix=0.3 --incumbent minimax_mix=0.3 \
    --board imperium --players 4 --seconds 0.03 --candidate-seconds 0.12 --games 100 --seed-start 52000 --fixed \
    --jobs 2 --log results/minimax-mix/time4x.jsonl > results/minimax-mix/time4x.json 2> results/minimax-mix/time4x.log
