#!/usr/bin/env bash
# Issue 25 (session of 2026-12-05, 10th): the confirmation of run-rt4-screen.sh (better, 29 of 76): generation 3
# with 4 random turns against three copies of today's default at 30 ms, 4-player Imperium, 200 games at fixed
# size on new deals (95000-95049 x 4 seats). Planned: about 16 minutes of wall time on 2 cores; the log resumes.
set -euo pipefail
cd "$(dirname "$0")/../.."
g=results/loop/gen-3
nice -n 10 ${PY:-.venv/bin/python} scripts/gate.py --candidate rollout_turns=4 --candidate-prior $g/weights \
    --candidate-value $g/value-weights --board imperium --players 4 --seconds 0.03 --games 200 --fixed \
    --seed-start 95000 --jobs 2 --log results/gen3-default/rt4-confirm.jsonl \
    > results/gen3-default/rt4-confirm.json 2> results/gen3-default/rt4-confirm.log
