#!/usr/bin/env bash
# Which search knobs make four times the time pay? (issue 25 target (c); session of 2026-12-04, 6th.) The
# candidate, today's default with KNOBS (e.g. KNOBS=leaf_mix=0.5), at 0.12 s a move against three copies at
# 0.03 s, both time-only budgets, 4-player Imperium, deals 52000-... x 4 seats: the deals of run-time4x.sh, where
# the default itself at 0.12 s won 27 of 100. The opponents are today's default (log time4x-TAG.jsonl), or with
# SAME=1 the same search as the candidate, KNOBS on both sides: the target's own match for a candidate default
# (log time4x-same-TAG.jsonl). SEEDS deals (default 15: 60 games). Planned: about 12.5 CPU s a game, 60 games
# about 13 CPU minutes, 100 about 21; 7-25 minutes of wall time on 2 cores; the log resumes.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${KNOBS:?KNOBS=key=value,... over the default}" "${TAG:?TAG names the log}"
OPPONENT="ismcts:seconds=0.03,iterations=0"
LOG="time4x-$TAG"
if [ "${SAME:-0}" = 1 ]; then OPPONENT="$OPPONENT,$KNOBS"; LOG="time4x-same-$TAG"; fi
nice -n 10 ${PY:-.venv/bin/python} scripts/strength.py --candidate "ismcts:seconds=0.12,iterations=0,$KNOBS" \
    --opponent "$OPPONENT" --board imperium --players 4 --seeds "${SEEDS:-15}" \
    --seed-start 52000 --json --jobs 2 --log "results/time-budget/$LOG.jsonl" \
    > "results/time-budget/$LOG.json" 2> "results/time-budget/$LOG.log"
