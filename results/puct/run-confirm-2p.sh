#!/usr/bin/env bash
# Issue 25, target (b) (and issue 24's 2-player default target): the candidate against today's 2-player default
# at 30 ms a move, 2-player Italia, deals 56000-56099 x 2 seats = 200 games (fair 50 %, target 60 %). Today's
# 2-player default is `ismcts:seconds=0.03` (the hand formula at the leaf, eval=auto with 2 players); the
# candidate's leaf evaluation is the same. Planned (session of 2026-12-04, 2nd): about 8-10 minutes of wall time
# on 2 cores; the log resumes.
# Usage: results/puct/run-confirm-2p.sh NAME "candidate options"
set -euo pipefail
cd "$(dirname "$0")/../.."
PY="nice -n 10 ${PY:-.venv/bin/python}"
name=$1; opts=$2
$PY scripts/strength.py --candidate "ismcts:seconds=0.03,$opts" --opponent "ismcts:seconds=0.03" \
    --board italia --players 2 --seeds 100 --seed-start 56000 --json --jobs 2 \
    --log "results/puct/confirm-$name-italia2.jsonl" > "results/puct/confirm-$name-italia2.json" 2> "results/puct/confirm-$name-italia2.log"
