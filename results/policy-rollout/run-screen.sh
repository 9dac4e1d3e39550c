#!/usr/bin/env bash
# Issue 25 (session of 2026-12-05, 12th): the turns after the tree drawn from the prior, at equal time. Generation 5
# with 4 turns of rollout=policy against three copies of generation 5 with 4 random turns, 30 ms of CPU a move,
# 4-player Imperium, new deals from 97200, the candidate in every seat; the gate's SPRT (25 % against 35 %) stops
# it when decided, at most 200 games. Planned: at most about 27 minutes of wall time on 2 cores; the log resumes.
set -euo pipefail
cd "$(dirname "$0")/../.."
g=results/loop/gen-5
nice -n 10 ${PY:-.venv/bin/python} scripts/gate.py --candidate rollout_turns=4,rollout=policy \
    --candidate-prior $g/weights --candidate-value $g/value-weights --incumbent rollout_turns=4 \
    --incumbent-prior $g/weights --incumbent-value $g/value-weights --board imperium --players 4 --seconds 0.03 \
    --games ${GAMES:-200} --seed-start 97200 --jobs 2 --log results/policy-rollout/screen.jsonl \
    > results/policy-rollout/screen.json 2> results/policy-rollout/screen.log
