#!/usr/bin/env bash
# Issue 25, target (c) (session of 2026-12-05, 11th): does merging the chance nodes (chance=merge: one child for
# every revealed card, so the outcomes share what follows and the tree is deeper) make four times the time pay?
# Splendor's lesson in ANCHORS.md: limiting the card-refill chance nodes was worth +360 Elo against +115 for 4x the
# iterations. Generation 3 with 4 random turns and chance=merge in every seat, 0.12 s of CPU a move against three
# copies at 0.03 s, 4-player Imperium, the first 15 deals of the target's match (52000-52014 x 4 seats; the same
# deals and bot seeds as ../gen3-default/rt4-time4x.jsonl, whose first 60 games the branching search won 23 of).
# Planned: 60 games, about 9 minutes of wall time on 2 cores; the log resumes. GAMES=100 extends it to the
# target's 100.
set -euo pipefail
cd "$(dirname "$0")/../.."
g=results/loop/gen-3
nice -n 10 ${PY:-.venv/bin/python} scripts/gate.py --candidate rollout_turns=4,chance=merge \
    --candidate-prior $g/weights --candidate-value $g/value-weights --incumbent rollout_turns=4,chance=merge \
    --incumbent-prior $g/weights --incumbent-value $g/value-weights --board imperium --players 4 --seconds 0.03 \
    --candidate-seconds 0.12 --games ${GAMES:-60} --seed-start 52000 --fixed --jobs 2 \
    --log results/chance-merge/time4x.jsonl > results/chance-merge/time4x.json 2> results/chance-merge/time4x.log
