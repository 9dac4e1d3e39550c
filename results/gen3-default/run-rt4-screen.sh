#!/usr/bin/env bash
# Issue 25 (session of 2026-12-05, 10th): generation 3 as the loop trained and gated it, 4 random turns after the
# cut-off (rollout_turns=4, the loop's knob; 4 random turns scaled better with time than 8 in results/puct/),
# against three copies of today's default (installed weights, 8 random turns) at 30 ms a move, 4-player Imperium.
# An SPRT of the fair 25 % against 35 % over at most 200 games on new deals (93000-): the screen for a default
# that could gain more from time. Planned: at most 16 minutes of wall time on 2 cores (the SPRT may stop sooner).
set -euo pipefail
cd "$(dirname "$0")/../.."
g=results/loop/gen-3
nice -n 10 ${PY:-.venv/bin/python} scripts/gate.py --candidate rollout_turns=4 --candidate-prior $g/weights \
    --candidate-value $g/value-weights --board imperium --players 4 --seconds 0.03 --games 200 --seed-start 93000 \
    --jobs 2 --log results/gen3-default/rt4-screen.jsonl \
    > results/gen3-default/rt4-screen.json 2> results/gen3-default/rt4-screen.log
