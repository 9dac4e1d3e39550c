#!/usr/bin/env bash
# Does a search with the other seats outside the tree gain more from time than the default? (issue 25 target
# (c); session of 2026-12-04, 6th.) The candidate at four times the time (0.12 s a move, opponents=OPP) against
# three copies of today's default at 0.03 s, both time-only budgets, 4-player Imperium, deals 52000-... (the
# deals of results/time-budget/run-time4x.sh, where the default at 0.12 s won 27 of 100 against the same
# opponents). SEEDS deals x 4 seats. Planned: about 12.5 CPU s a game, so 60 games (SEEDS=15) about 13 CPU
# minutes, 7-15 minutes of wall time on 2 cores; the log resumes and a larger SEEDS plays only the new deals.
set -euo pipefail
cd "$(dirname "$0")/../.."
OPP=${OPP:-random}
nice -n 10 ${PY:-.venv/bin/python} scripts/strength.py --candidate "ismcts:seconds=0.12,iterations=0,opponents=$OPP" \
    --opponent "ismcts:seconds=0.03,iterations=0" --board imperium --players 4 --seeds "${SEEDS:-15}" \
    --seed-start 52000 --json --jobs 2 --log "results/opponents/time4x-$OPP.jsonl" \
    > "results/opponents/time4x-$OPP.json" 2> "results/opponents/time4x-$OPP.log"
