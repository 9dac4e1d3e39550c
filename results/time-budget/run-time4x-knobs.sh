#!/usr/bin/env bash
# Which search knobs make four times the time pay? (issue 25 target (c); session of 2026-12-04, 6th.) The
# candidate, today's default with KNOBS (e.g. KNOBS=leaf_mix=0.5), at 0.12 s a move against three copies of
# today's default at 0.03 s, both time-only budgets, 4-player Imperium, deals 52000-... x 4 seats: the deals and
# opponents of run-time4x.sh, where the default itself at 0.12 s won 27 of 100 (its first 60 games: see
# README.md). SEEDS deals (default 15: 60 games). Planned: about 12.5 CPU s a game, 60 games about 13 CPU
# minutes, 7-15 minutes of wall time on 2 cores; the log (named by TAG) resumes.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${KNOBS:?KNOBS=key=value,... over the default}" "${TAG:?TAG names the log}"
nice -n 10 ${PY:-.venv/bin/python} scripts/strength.py --candidate "ismcts:seconds=0.12,iterations=0,$KNOBS" \
    --opponent "ismcts:seconds=0.03,iterations=0" --board imperium --players 4 --seeds "${SEEDS:-15}" \
    --seed-start 52000 --json --jobs 2 --log "results/time-budget/time4x-$TAG.jsonl" \
    > "results/time-budget/time4x-$TAG.json" 2> "results/time-budget/time4x-$TAG.log"
