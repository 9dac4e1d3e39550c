#!/usr/bin/env bash
# Issue 25, target (c) (session of 2026-12-05, 12th): how far can time go with this evaluation? Generation 5 with
# 4 random turns in every seat, SIXTEEN times the time (0.48 s of CPU a move against three copies at 0.03 s),
# 4-player Imperium, the target's deals 52000-52014 x 4 seats and bot seeds (../value-features/time4x.jsonl: four
# times the time, 22 of these 60 games, 39 of 100). If sixteen times the time stays far below 50 %, four times
# cannot reach it with this evaluation. Planned: 60 games, about 36 CPU s a game, 18-20 minutes of wall time on 2
# cores; the log resumes.
set -euo pipefail
cd "$(dirname "$0")/../.."
g=results/loop/gen-5
nice -n 10 ${PY:-.venv/bin/python} scripts/gate.py --candidate rollout_turns=4 --candidate-prior $g/weights \
    --candidate-value $g/value-weights --incumbent rollout_turns=4 --incumbent-prior $g/weights \
    --incumbent-value $g/value-weights --board imperium --players 4 --seconds 0.03 --candidate-seconds 0.48 \
    --games ${GAMES:-60} --seed-start 52000 --fixed --jobs 2 --log results/gen5-default/time16x.jsonl \
    > results/gen5-default/time16x.json 2> results/gen5-default/time16x.log
