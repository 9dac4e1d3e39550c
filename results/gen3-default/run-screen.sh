#!/usr/bin/env bash
# Generation 3's weights in today's default search (issue 25; session of 2026-12-05, 9th). The loop's gate measured
# them against generation 1 with the loop's knobs (4 random turns after the cut-off) and kept them: 24 of 59, 40.7 %
# (fair 25 %; results/loop/gen-3/README.md). This screen asks what a player gets: the bots' default search (8 random
# turns, c_puct_log auto) with generation 3's prior and value model against three copies of the default with the
# installed ones, 4-player Imperium, 30 ms of CPU a move, new deals, an SPRT of the fair 25 % against 35 % that stops
# when decided. Planned: at most 200 games x about 8 CPU s, at most 28 CPU minutes, 15 minutes of wall time on 2
# cores; the log resumes.
set -euo pipefail
cd "$(dirname "$0")/../.."
nice -n 10 ${PY:-.venv/bin/python} scripts/gate.py --candidate-prior results/loop/gen-3/weights \
    --candidate-value results/loop/gen-3/value-weights --board imperium --players 4 --seconds 0.03 --games 200 \
    --seed-start 91000 --jobs 2 --log results/gen3-default/screen.jsonl > results/gen3-default/screen.json \
    2> results/gen3-default/screen.log
