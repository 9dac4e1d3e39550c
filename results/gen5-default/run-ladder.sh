#!/usr/bin/env bash
# Issue 25, target (c), second half, for generation 5 as the loop runs it, with 4 random turns: the ladder of
# results/ladder-puct/run-warm.sh (heuristic anchor; the search at 10, 30, 100 and 300 ms a move; 4-player
# Imperium, seed 8, the same deals) with generation 5's prior and value model in every search, named in the bot
# specs (value_weights, policy_weights: weight slots, session of 2026-12-05, 12th; no checkout with the weights
# copied in is needed any more). Planned: 80 games in two resumable passes of 40, about 17-28 minutes of wall
# time on 2 cores. Then:
#   python3 scripts/ladder.py --root results/gen5-default/ladder --out results/gen5-default/ladder --bootstrap 1000
set -u
cd "$(dirname "$0")/../.."
C="nice -n 10 ${CONCORDIA:-.venv/bin/concordia}"
dir=results/gen5-default/ladder/imperium-4p
mkdir -p "$dir"
W=rollout_turns=4,value_weights=results/loop/gen-5/value-weights,policy_weights=results/loop/gen-5/weights
BOTS=(--bot heuristic=heuristic
      --bot ismcts-10ms=ismcts:seconds=0.01,iterations=0,$W --bot ismcts-30ms=ismcts:seconds=0.03,iterations=0,$W
      --bot ismcts-100ms=ismcts:seconds=0.1,iterations=0,$W --bot ismcts-300ms=ismcts:seconds=0.3,iterations=0,$W)
for games in ${PASSES:-40 80}; do
    if [ -f "$dir/tournament.json" ]; then $C tournament --out "$dir" --resume --games "$games" --jobs 2 --quiet
    else $C tournament "${BOTS[@]}" --map imperium --players 4 --games "$games" --seed 8 --jobs 2 --out "$dir" --quiet; fi \
        > /dev/null
    echo "$(date -u +%FT%TZ) $dir $games games" >> results/gen5-default/ladder-run.log
done
