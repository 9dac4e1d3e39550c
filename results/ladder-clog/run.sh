#!/usr/bin/env bash
# Issue 25, target (c), second half: the ladder of the 3-5 player default from the session of 2026-12-04 (5th):
# today's default with the growing PUCT weight c_puct_log 0.45 (results/puct/README.md), on 4-player Imperium,
# with the seed (8) and lineups of results/ladder-puct/run.sh, so each game has a twin under c_puct_log 0. Five bots only (heuristic as the anchor, the default at 10, 30, 100 and
# 300 ms a move), so each timed rung plays 64 of the 80 games (the full ladder of results/ladder.md gave each 32).
# Planned (session of 2026-12-04, 5th): about 70 CPU minutes, 35-40 minutes of wall time on 2 cores, in two
# resumable passes of 40 games; each pass's log is committed as it ends. Then:
#   python3 scripts/ladder.py --root results/ladder-clog --out results/ladder-clog --bootstrap 1000
set -u
cd "$(dirname "$0")/../.."
C="nice -n 10 ${CONCORDIA:-/work/main/.venv/bin/concordia}"
dir=results/ladder-clog/imperium-4p
BOTS=(--bot heuristic=heuristic
      --bot ismcts-10ms=ismcts:seconds=0.01,iterations=0,c_puct_log=0.45 --bot ismcts-30ms=ismcts:seconds=0.03,iterations=0,c_puct_log=0.45
      --bot ismcts-100ms=ismcts:seconds=0.1,iterations=0,c_puct_log=0.45 --bot ismcts-300ms=ismcts:seconds=0.3,iterations=0,c_puct_log=0.45)
for games in ${PASSES:-40 80}; do
    if [ -f "$dir/tournament.json" ]; then $C tournament --out "$dir" --resume --games "$games" --jobs 2 --quiet
    else $C tournament "${BOTS[@]}" --map imperium --players 4 --games "$games" --seed 8 --jobs 2 --out "$dir" --quiet; fi \
        > /dev/null
    echo "$(date -u +%FT%TZ) $dir $games games" >&2
done
