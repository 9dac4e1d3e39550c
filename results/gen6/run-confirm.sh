#!/usr/bin/env bash
# Issue 25 (session of 2026-12-05, 14th): generation 6 (results/loop/gen-6, 4 random turns) against three copies of
# the installed default (generation 5, the shipped weights, 4 random turns) at 30 ms, 4-player Imperium, 200 games at
# fixed size on new deals (98000-98049 x 4 seats): the confirmation installing it would need (generation 5's was
# ../gen5-default/run-confirm.sh, 88 of 200 against the default before it). Planned: about 16-20 minutes of wall
# time on 2 cores; the log resumes.
set -euo pipefail
cd "$(dirname "$0")/../.."
g=results/loop/gen-6
nice -n 10 ${PY:-.venv/bin/python} scripts/gate.py --candidate rollout_turns=4 --candidate-prior $g/weights \
    --candidate-value $g/value-weights --board imperium --players 4 --seconds 0.03 --games ${GAMES:-200} --fixed \
    --seed-start 98000 --jobs 2 --log results/gen6/confirm.jsonl \
    > results/gen6/confirm.json 2> results/gen6/confirm.log
