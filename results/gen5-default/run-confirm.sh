#!/usr/bin/env bash
# Issue 25 (session of 2026-12-05, 12th): generation 5 (results/loop/gen-5, the loop's best, 4 random turns)
# against three copies of today's default at 30 ms, 4-player Imperium, 200 games at fixed size on new deals
# (96000-96049 x 4 seats): the confirmation that installing it as the default needs (generation 3's was
# results/gen3-default/run-rt4-confirm.sh). Planned: about 16-27 minutes of wall time on 2 cores; the log resumes.
set -euo pipefail
cd "$(dirname "$0")/../.."
g=results/loop/gen-5
nice -n 10 ${PY:-.venv/bin/python} scripts/gate.py --candidate rollout_turns=4 --candidate-prior $g/weights \
    --candidate-value $g/value-weights --board imperium --players 4 --seconds 0.03 --games 200 --fixed \
    --seed-start 96000 --jobs 2 --log results/gen5-default/confirm.jsonl \
    > results/gen5-default/confirm.json 2> results/gen5-default/confirm.log
