#!/usr/bin/env bash
# Issue 25, target (c) (session of 2026-12-05, 14th): generation 6 of the loop (results/loop/gen-6, kept by its gate
# against generation 5) at four times the time, the target's own match as generation 5 played it
# (../value-features/run-time4x.sh: 39 of 100): every seat generation 6 with 4 random turns, 0.12 s of CPU a move
# against three copies at 0.03 s, 4-player Imperium, deals 52000-52024 x 4 seats with the same bot seeds.
# Planned: 100 games at fixed size, about 12-13 minutes of wall time on 2 cores. The log resumes.
set -euo pipefail
cd "$(dirname "$0")/../.."
g=results/loop/gen-6
nice -n 10 ${PY:-.venv/bin/python} scripts/gate.py --candidate rollout_turns=4 --candidate-prior $g/weights \
    --candidate-value $g/value-weights --incumbent rollout_turns=4 --incumbent-prior $g/weights \
    --incumbent-value $g/value-weights --board imperium --players 4 --seconds 0.03 --candidate-seconds 0.12 \
    --games ${GAMES:-100} --seed-start 52000 --fixed --jobs 2 --log results/gen6/time4x.jsonl \
    > results/gen6/time4x.json 2> results/gen6/time4x.log
