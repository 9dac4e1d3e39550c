#!/usr/bin/env bash
# Issue 25 (session of 2026-12-05, 11th): the second feature layout alone. Generation 3's prior with generation 5's
# value model (71 features) against three copies of generation 3 (its prior and value model, 60 features), 4 random
# turns, 30 ms a move, 4-player Imperium, new deals (97000-), an SPRT of the fair share 25 % against 35 % (at most
# 200 games). Planned: at most about 17 minutes of wall time on 2 cores; the log resumes.
set -euo pipefail
cd "$(dirname "$0")/../.."
g=results/loop/gen-3
nice -n 10 ${PY:-.venv/bin/python} scripts/gate.py --candidate rollout_turns=4 --candidate-prior $g/weights \
    --candidate-value results/loop/gen-5/value-weights --incumbent rollout_turns=4 --incumbent-prior $g/weights \
    --incumbent-value $g/value-weights --board imperium --players 4 --seconds 0.03 --games 200 \
    --seed-start 97000 --jobs 2 --log results/value-features/value-only.jsonl \
    > results/value-features/value-only.json 2> results/value-features/value-only.log
