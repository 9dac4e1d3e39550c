#!/usr/bin/env bash
# Issue 25, target (c), for generation 3's weights (session of 2026-12-05, 10th): four times the time with the
# prior and value model of the loop's generation 3 in every seat, the default search otherwise. The match of
# results/value-warm/time4x.jsonl (34 of 100 with the installed weights): 4-player Imperium, deals 52000-52024 x
# 4 seats, the candidate at 0.12 s of CPU a move against three copies at 0.03 s, 100 games at fixed size.
# Planned: about 18 minutes of wall time on 2 cores (value-warm's took about that); the log resumes.
set -euo pipefail
cd "$(dirname "$0")/../.."
g=results/loop/gen-3
nice -n 10 ${PY:-.venv/bin/python} scripts/gate.py --candidate-prior $g/weights --candidate-value $g/value-weights \
    --incumbent-prior $g/weights --incumbent-value $g/value-weights --board imperium --players 4 --seconds 0.03 \
    --candidate-seconds 0.12 --games 100 --seed-start 52000 --fixed --jobs 2 --log results/gen3-default/time4x.jsonl \
    > results/gen3-default/time4x.json 2> results/gen3-default/time4x.log
