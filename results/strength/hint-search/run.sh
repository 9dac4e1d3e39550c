#!/usr/bin/env bash
# Issue 24, session of 2026-12-04 (3rd): which search should the hint run? The hint searches with UCB
# (search.TABLE_SEARCH, focus 0.25); the bots with PUCT. A screen at 0.1 s a move (a thirtieth of the hint's
# budget, to fit the machine), both sides with the hint's final choice over whole turns (focus 0.25),
# 2-player Italia, 30 deals x 2 seats = 60 games a row:
#   log045: PUCT with the growing weight (c_puct_log 0.45) against the hint's UCB
#   puct:   the bots' PUCT (constant c_puct 0.25) against the hint's UCB
#   log045-3p: as log045, 3-player Italia, 20 deals x 3 seats = 60 games (added in the same session; about 25
#           CPU s a game, 12-15 minutes of wall time)
# Planned: about 15 CPU s a game, 8-10 minutes of wall time a row on 2 cores. Each log resumes.
set -euo pipefail
cd "$(dirname "$0")/../../.."
PY="nice -n 10 ${PY:-.venv/bin/python}"
UCB="ismcts:seconds=0.1,iterations=0,focus=0.25,select=ucb,policy=0"
for row in ${ROWS:-log045 puct}; do
  players=2 seeds=30
  case $row in
    log045) cand="ismcts:seconds=0.1,iterations=0,focus=0.25,c_puct_log=0.45" ;;
    puct)   cand="ismcts:seconds=0.1,iterations=0,focus=0.25" ;;
    log045-3p) cand="ismcts:seconds=0.1,iterations=0,focus=0.25,c_puct_log=0.45" players=3 seeds=20 ;;
  esac
  $PY scripts/strength.py --candidate "$cand" --opponent "$UCB" --board italia --players $players --seeds $seeds \
      --seed-start 54000 --json --jobs 2 --log "results/strength/hint-search/$row.jsonl" \
      > "results/strength/hint-search/$row.json" 2> "results/strength/hint-search/$row.log"
done
