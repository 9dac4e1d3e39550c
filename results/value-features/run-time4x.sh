#!/usr/bin/env bash
# Issue 25, target (c) (session of 2026-12-05, 11th): four times the time for generation 5 (its prior and its value
# model of the second feature layout, 4 random turns) in every seat: 0.12 s of CPU a move against three copies at
# 0.03 s, 4-player Imperium, deals 52000-52024 x 4 seats (the deals and bot seeds of ../gen3-default/rt4-time4x.jsonl,
# generation 3: 38 of 100). Planned: 100 games at fixed size, about 14 minutes of wall time on 2 cores; the log
# resumes. GAMES=60 stops at the first 15 deals.
set -euo pipefail
cd "$(dirname "$0")/../.."
g=results/loop/gen-5
nice -n 10 ${PY:-.venv/bin/python} scripts/gate.py --candidate rollout_turns=4 --candidate-prior $g/weights \
    --candidate-value $g/value-weights --incumbent rollout_turns=4 --incumbent-prior $g/weights \
    --incumbent-value $g/value-weights --board imperium --players 4 --seconds 0.03 --candidate-seconds 0.12 \
    --games ${GAMES:-100} --seed-start 52000 --fixed --jobs 2 --log results/value-features/time4x.jsonl \
    > results/value-features/time4x.json 2> results/value-features/time4x.log
