#!/usr/bin/env bash
# Issue 25 (session of 2026-12-05, 11th): merged chance nodes at equal time. Generation 3 with 4 random turns and
# chance=merge against three copies of itself with the default chance=branch, 30 ms a move, 4-player Imperium,
# new deals (96000-), an SPRT of the fair share 25 % against 35 % (stops when decided, at most 120 games).
# Planned: at most about 17 minutes of wall time on 2 cores; the log resumes.
set -euo pipefail
cd "$(dirname "$0")/../.."
g=results/loop/gen-3
nice -n 10 ${PY:-.venv/bin/python} scripts/gate.py --candidate rollout_turns=4,chance=merge \
    --candidate-prior $g/weights --candidate-value $g/value-weights --incumbent rollout_turns=4 \
    --incumbent-prior $g/weights --incumbent-value $g/value-weights --board imperium --players 4 --seconds 0.03 \
    --games 120 --seed-start 96000 --jobs 2 --log results/chance-merge/screen.jsonl \
    > results/chance-merge/screen.json 2> results/chance-merge/screen.log
