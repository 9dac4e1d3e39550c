#!/usr/bin/env bash
# The screen's confirmation at fixed size (session of 2026-12-05, 9th): the same sides as run-screen.sh (today's
# default search with generation 3's prior and value model against three copies of the default), new deals
# (92000-92049 x 4 seats), every one of the 200 games counted (--fixed). Planned: 200 games x about 8 CPU s, about 28
# CPU minutes, 15-20 minutes of wall time on 2 cores; the log resumes.
set -euo pipefail
cd "$(dirname "$0")/../.."
nice -n 10 ${PY:-.venv/bin/python} scripts/gate.py --candidate-prior results/loop/gen-3/weights \
    --candidate-value results/loop/gen-3/value-weights --board imperium --players 4 --seconds 0.03 --games 200 \
    --fixed --seed-start 92000 --jobs 2 --log results/gen3-default/confirm.jsonl > results/gen3-default/confirm.json \
    2> results/gen3-default/confirm.log
