#!/usr/bin/env bash
# Issue 24, the opening target with 2 players: the first seat's win rate in self-play of today's default search
# (PUCT with the learned prior, 30 ms a move), 2-player Imperium, deals 57000-57099 with the seats swapped on
# each (200 games). The opening check compares the hint's first-seat win % with self-play rates measured on
# another bot (the UCB search at 300 iterations with the hand formula: 46.7 % on Imperium over 625 games); this
# measures the rate under the PUCT search. Planned (session of 2026-12-04, 4th): about 15 CPU minutes, 10-20
# minutes of wall time on 2 cores shared with other runs; the log resumes.
set -euo pipefail
cd "$(dirname "$0")/../../.."
nice -n 10 ${PY:-.venv/bin/python} scripts/strength.py --candidate "ismcts:seconds=0.03" --opponent "ismcts:seconds=0.03" \
    --board imperium --players 2 --seeds 100 --seed-start 57000 --json --jobs 2 \
    --log results/outcome/selfplay-2p/imperium.jsonl > results/outcome/selfplay-2p/imperium.json \
    2> results/outcome/selfplay-2p/imperium.log
