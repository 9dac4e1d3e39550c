#!/usr/bin/env bash
# Issue 25, target (c), second half: the ladder of today's default (PUCT with the loop's prior, c_puct 0.25,
# 8 random turns) on 4-player Imperium. Five bots only (heuristic as the anchor, the default at 10, 30, 100 and
# 300 ms a move), so each timed rung plays 64 of the 80 games (the full ladder of results/ladder.md gave each 32).
# Planned (session of 2026-12-04, 4th): about 70 CPU minutes, 35-40 minutes of wall time on 2 cores, in two
# resumable passes of 40 games; each pass's log is committed as it ends. Then:
#   python3 scripts/ladder.py --root results/ladder-puct --out results/ladder-puct --bootstrap 1000
set -u
cd "$(dirname "$0")/../.."
C="nice -n 10 ${CONCORDIA:-/work/main/.venv/bin/concordia}"
dir=results/ladder-puct/imperium-4p
BOTS=(--bot heuristic=heuristic
      --bot ismcts-10ms=ismcts:seconds=0.01,iterations=0 --bot ismcts-30ms=ismcts:seconds=0.03,iterations=0
      --bot ismcts-100ms=ismcts:seconds=0.1,iterations=0 --bot ismcts-300ms=ismcts:seconds=0.3,iterations=0)
for games in ${PASSES:-40 80}; do
    if [ -f "$dir/tournament.json" ]; then $C tournament --out "$dir" --resume --games "$games" --jobs 2 --quiet
    else $C tournament "${BOTS[@]}" --map imperium --players 4 --games "$games" --seed 8 --jobs 2 --out "$dir" --quiet; fi \
        > /dev/null
    echo "$(date -u +%FT%TZ) $dir $games games" >&2
done
