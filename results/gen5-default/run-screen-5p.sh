#!/usr/bin/env bash
# Issue 25 (session of 2026-12-05, 12th): generation 5 with 4 random turns against four copies of today's default at
# 30 ms a move, 5-player Aegyptus (the setting of ../value-warm's 5-player screen), new deals from 96500, the
# candidate in every seat; the gate's SPRT (20 % against 30 %) stops when decided, at most 200 games. Planned: at
# most about 25 minutes of wall time on 2 cores; the log resumes.
set -euo pipefail
cd "$(dirname "$0")/../.."
g=results/loop/gen-5
nice -n 10 ${PY:-.venv/bin/python} scripts/gate.py --candidate rollout_turns=4 --candidate-prior $g/weights \
    --candidate-value $g/value-weights --board aegyptus --players 5 --seconds 0.03 --games 200 \
    --seed-start 96500 --jobs 2 --log results/gen5-default/aegyptus-5p.jsonl \
    > results/gen5-default/aegyptus-5p.json 2> results/gen5-default/aegyptus-5p.log
