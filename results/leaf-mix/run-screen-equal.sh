#!/usr/bin/env bash
# leaf_mix at equal time (session of 2026-12-04, 6th): the bots' default with LEAF_MIX (default 0.5) against three
# copies of the default, 30 ms a move, 4-player Imperium, seat-rotated, deals from 67000, an SPRT of 25 %
# against 35 % (--delta 0.1) that stops when decided, at most 200 games. Planned: 4-8 minutes of wall time per 40
# games on 2 cores alone. The log resumes.
set -euo pipefail
cd "$(dirname "$0")/../.."
W=${LEAF_MIX:-0.5}
nice -n 10 ${PY:-.venv/bin/python} scripts/gate.py --candidate "leaf_mix=$W" --board imperium --players 4 \
    --seconds 0.03 --games 200 --seed-start 67000 --jobs 2 --log "results/leaf-mix/equal-w$W.jsonl" \
    > "results/leaf-mix/equal-w$W.json" 2> "results/leaf-mix/equal-w$W.log"
