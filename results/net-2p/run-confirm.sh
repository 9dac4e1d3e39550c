#!/usr/bin/env bash
# Issue 24, deliverable 2 (session of 2026-12-04, 8th): confirm the 2-player screen of results/value-warm/
# (28 of 37) at fixed size before the value model becomes the 2-player default. The candidate evaluates with
# the installed value model (eval=net), the incumbent is today's 2-player default (the hand formula).
#  1. 2-player Italia, 30 ms a move, 200 games (deals 86000-86099 x 2 seats; the screen used 84000-): ~4 CPU s a
#     game, ~13 CPU minutes.
#  2. Against each plan bot, 100 games on Italia with seats swapped at 30 ms (the target's 90 %): ~3.5 CPU s a
#     game, ~6 CPU minutes each.
# Planned: about 25 CPU minutes, 13-15 minutes of wall time on 2 cores. Every log resumes.
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${PY:-.venv/bin/python}
D=results/net-2p
nice -n 10 $PY scripts/gate.py --candidate eval=net --board italia --players 2 --seconds 0.03 --games 200 --fixed \
    --seed-start 86000 --jobs 2 --log $D/confirm.jsonl > $D/confirm.json 2> $D/confirm.log
for plan in mars minerva; do
    nice -n 10 $PY scripts/strength.py --candidate ismcts:seconds=0.03,iterations=0,eval=net --opponent plan:$plan \
        --board italia --players 2 --seeds 50 --jobs 2 --log $D/net_vs_$plan.jsonl --json \
        > $D/net_vs_$plan.json 2> $D/net_vs_$plan.log
done
