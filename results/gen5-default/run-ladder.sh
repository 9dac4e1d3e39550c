#!/usr/bin/env bash
# Issue 25, target (c), second half, for generation 5 as the loop runs it, with 4 random turns (session of
# 2026-12-05, 12th): the ladder of
# results/ladder-puct/run-warm.sh (heuristic anchor; the default at 10, 30, 100 and 300 ms a move; 4-player
# Imperium, seed 8, the same deals) with the loop's generation 5 prior and value model in every search.
# CONCORDIA must be the concordia command of a checkout with those weights installed:
#   cp results/loop/gen-5/weights/weights.* concordia_ai/data/policy/
#   cp results/loop/gen-5/value-weights/weights.* concordia_ai/data/value/
# Planned: 80 games in two resumable passes of 40, about 16 minutes of wall time on 2 cores (run-warm.sh's took
# 16). Then:
#   python3 scripts/ladder.py --root results/gen5-default/ladder --out results/gen5-default/ladder --bootstrap 1000
set -u
cd "$(dirname "$0")/../.."
C="nice -n 10 ${CONCORDIA:?the concordia command of a checkout with generation 5 installed}"
dir=results/gen5-default/ladder/imperium-4p
mkdir -p "$dir"
BOTS=(--bot heuristic=heuristic
      --bot ismcts-10ms=ismcts:seconds=0.01,iterations=0,rollout_turns=4 --bot ismcts-30ms=ismcts:seconds=0.03,iterations=0,rollout_turns=4
      --bot ismcts-100ms=ismcts:seconds=0.1,iterations=0,rollout_turns=4 --bot ismcts-300ms=ismcts:seconds=0.3,iterations=0,rollout_turns=4)
for games in ${PASSES:-40 80}; do
    if [ -f "$dir/tournament.json" ]; then $C tournament --out "$dir" --resume --games "$games" --jobs 2 --quiet
    else $C tournament "${BOTS[@]}" --map imperium --players 4 --games "$games" --seed 8 --jobs 2 --out "$dir" --quiet; fi \
        > /dev/null
    echo "$(date -u +%FT%TZ) $dir $games games" >> results/gen5-default/ladder-run.log
done
