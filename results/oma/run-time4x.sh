#!/usr/bin/env bash
# Issue 25, target (c) (session of 2026-12-05, 12th): four times the time with opponent move abstraction
# (opponents=oma) in every seat, on generation 5 with 4 random turns (the loop's best): 0.12 s of CPU a move against
# three copies at 0.03 s, 4-player Imperium, deals 52000-52024 x 4 seats, the deals and bot seeds of
# ../value-features/time4x.jsonl (generation 5 with the others in the tree: 39 of 100). Planned: GAMES=60 first (the
# first 15 deals, about 9-14 minutes of wall time on 2 cores), then 100 if it is worth it; the log resumes.
set -euo pipefail
cd "$(dirname "$0")/../.."
g=results/loop/gen-5
k=rollout_turns=4,opponents=oma
nice -n 10 ${PY:-.venv/bin/python} scripts/gate.py --candidate $k --candidate-prior $g/weights \
    --candidate-value $g/value-weights --incumbent $k --incumbent-prior $g/weights \
    --incumbent-value $g/value-weights --board imperium --players 4 --seconds 0.03 --candidate-seconds 0.12 \
    --games ${GAMES:-100} --seed-start 52000 --fixed --jobs 2 --log results/oma/time4x.jsonl \
    > results/oma/time4x.json 2> results/oma/time4x.log
