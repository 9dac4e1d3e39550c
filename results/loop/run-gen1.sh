#!/usr/bin/env bash
# The learning loop's first generation (issue 25, deliverable 4), run in the session of 2026-12-04 (2nd).
# Incumbent: the PUCT search with generation 1's prior (results/policy.md), the screened c_puct 0.25 and 4
# random turns behind each leaf (results/puct/README.md: tuning, and time pays with 4). Self-play: 400 games
# on Italia and Imperium, 2-5 players, in 4 chunks, a quarter of the decisions at 1,600 iterations
# (recorded), the rest at 200; training with pruned targets,
# per player count where it validates better; gate at 400 iterations (at most 120 games), then at 30 ms
# (at most 200 games), 3-player Italia. Planned: 25-40 minutes of both cores (docs/loop.md); rerun to resume.
set -euo pipefail
cd "$(dirname "$0")/../.."
nice -n 10 ${PY:-.venv/bin/python} scripts/loop.py --games 400 --chunk 100 --boards italia,imperium \
    --players 2,3,4,5 --per-count --incumbent "select=puct,policy=1,c_puct=0.25,rollout_turns=4" --search "iterations=1600" \
    --gate-board italia --gate-players 3 --jobs 2 --commit
