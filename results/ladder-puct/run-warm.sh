#!/usr/bin/env bash
# Issue 25, target (c), second half, for today's default (session of 2026-12-05, 9th): the ladder of run.sh
# (heuristic as the anchor, the default at 10, 30, 100 and 300 ms a move, 4-player Imperium, seed 8) played again,
# since the default changed after it ran: the growing PUCT weight with 3-5 players (c_puct_log auto = 0.45) and
# the warm-started value model. Same bots, seed and deals, a new folder. Planned: 80 games in two resumable passes
# of 40, each about 45-50 minutes of wall time on 2 cores (run.sh's passes took 48 minutes); each pass's log is
# committed as it ends. Then:
#   python3 scripts/ladder.py --root results/ladder-puct-warm --out results/ladder-puct-warm --bootstrap 1000
set -u
cd "$(dirname "$0")/../.."
C="nice -n 10 ${CONCORDIA:-/work/main/.venv/bin/concordia}"
dir=results/ladder-puct-warm/imperium-4p
mkdir -p "$dir"
BOTS=(--bot heuristic=heuristic
      --bot ismcts-10ms=ismcts:seconds=0.01,iterations=0 --bot ismcts-30ms=ismcts:seconds=0.03,iterations=0
      --bot ismcts-100ms=ismcts:seconds=0.1,iterations=0 --bot ismcts-300ms=ismcts:seconds=0.3,iterations=0)
for games in ${PASSES:-40 80}; do
    if [ -f "$dir/tournament.json" ]; then $C tournament --out "$dir" --resume --games "$games" --jobs 2 --quiet
    else $C tournament "${BOTS[@]}" --map imperium --players 4 --games "$games" --seed 8 --jobs 2 --out "$dir" --quiet; fi \
        > /dev/null
    echo "$(date -u +%FT%TZ) $dir $games games" >> results/ladder-puct-warm/run.log
done
