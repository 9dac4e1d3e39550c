#!/usr/bin/env bash
# A leaf evaluated at the next turn start (issue 25 target (c); session of 2026-12-04, 6th). The value model was
# trained on turn starts, and the rollout's cut-off is always one; a leaf of the tree is often mid-turn, which is
# why the model at the leaf itself (rollout=none, leaf_mix) may judge it badly. rollout_turns=1 finishes the
# leaf's turn (at random, or greedily with ROLLOUT=greedy) and judges the next turn start: fewer random turns
# than 8, on positions the model knows. Equal time first: the candidate against three copies of the default,
# 30 ms a move, 4-player Imperium, seat-rotated, deals from 68000, SPRT 25 % against 35 %, at most 200 games.
# Planned: 4-8 minutes of wall time per 40 games on 2 cores alone. The log resumes.
set -euo pipefail
cd "$(dirname "$0")/../.."
R=${ROLLOUT:-random}
nice -n 10 ${PY:-.venv/bin/python} scripts/gate.py --candidate "rollout=$R,rollout_turns=1" --board imperium \
    --players 4 --seconds 0.03 --games 200 --seed-start 68000 --jobs 2 --log "results/rollout1/equal-$R.jsonl" \
    > "results/rollout1/equal-$R.json" 2> "results/rollout1/equal-$R.log"
