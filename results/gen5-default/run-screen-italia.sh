#!/usr/bin/env bash
# Issue 25 (session of 2026-12-05, 12th): before generation 5 can be installed, it must not lose with the other
# player counts. Generation 5 with 4 random turns against today's default at 30 ms a move on Italia with PLAYERS
# (2 or 3) players, new deals from 96100 (2 players) or 96300 (3), the candidate in every seat; the gate's SPRT
# (the fair share against it + 10 points) stops when decided, at most 200 games. Planned: at most about 15
# (2 players) or 20 (3 players) minutes of wall time on 2 cores; the log resumes.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${PLAYERS:?PLAYERS=2 or 3}"
g=results/loop/gen-5
start=$([ "$PLAYERS" = 2 ] && echo 96100 || echo 96300)
nice -n 10 ${PY:-.venv/bin/python} scripts/gate.py --candidate rollout_turns=4 --candidate-prior $g/weights \
    --candidate-value $g/value-weights --board italia --players "$PLAYERS" --seconds 0.03 --games 200 \
    --seed-start "$start" --jobs 2 --log "results/gen5-default/italia-${PLAYERS}p.jsonl" \
    > "results/gen5-default/italia-${PLAYERS}p.json" 2> "results/gen5-default/italia-${PLAYERS}p.log"
