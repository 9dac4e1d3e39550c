#!/usr/bin/env bash
# Target (c) of issue 25 for a candidate default (session of 2026-12-04, 6th): the search with KNOBS (e.g.
# KNOBS=leaf_mix=0.5) at 0.12 s a move against three copies of the same search at 0.03 s, both time-only
# budgets, 4-player Imperium, deals 52000-... x 4 seats (the deals of run-time4x.sh). SEEDS deals (default 25:
# the target's 100 games). Planned: about 12.5 CPU s a game, 100 games about 21 CPU minutes, 11-25 minutes of
# wall time on 2 cores; the log (named by TAG) resumes.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${KNOBS:?KNOBS=key=value,... over the default}" "${TAG:?TAG names the log}"
nice -n 10 ${PY:-.venv/bin/python} scripts/strength.py --candidate "ismcts:seconds=0.12,iterations=0,$KNOBS" \
    --opponent "ismcts:seconds=0.03,iterations=0,$KNOBS" --board imperium --players 4 --seeds "${SEEDS:-25}" \
    --seed-start 52000 --json --jobs 2 --log "results/time-budget/time4x-same-$TAG.jsonl" \
    > "results/time-budget/time4x-same-$TAG.json" 2> "results/time-budget/time4x-same-$TAG.log"
