#!/usr/bin/env bash
# Issue 25, deliverable 3 ("each generation measures the leaf against 2 and 8 random turns at equal time"), for
# generation 5, the installed default since the 13th session (its prior and value model; 4 random turns after
# the tree's leaf): the same search with the value model judging the leaf itself (rollout=none), after 1, 2, 4
# (the default) and 8 random turns, in one tournament at 30 ms of CPU a move (iterations=0: time alone), 4-player
# Imperium, lineups balanced over the five bots and every block rotating its lineup through the seats on one
# deal (concordia tournament, as the ladders), seed 25. Ratings: Plackett-Luce on the finishing orders
# (scripts/ladder.py), anchored at the default. Planned: 160 games in two resumable passes of 80, about
# 7-9 minutes of wall time each on 2 cores (a game: about 9 CPU s of search). Then:
#   python3 scripts/ladder.py --root results/leaf-turns --out results/leaf-turns --bootstrap 1000 --anchor rt4
# Another generation of the loop (GEN=6, say) plays the same tournament with its own prior and value model named in
# every spec, under results/leaf-turns/gen-6/ (its report: --root and --out that folder).
set -u
cd "$(dirname "$0")/../.."
C="nice -n 10 ${CONCORDIA:-.venv/bin/concordia}"
root=results/leaf-turns${GEN:+/gen-$GEN}
dir=$root/imperium-4p
mkdir -p "$dir"
T=seconds=0.03,iterations=0${GEN:+,value_weights=results/loop/gen-$GEN/value-weights,policy_weights=results/loop/gen-$GEN/weights}
BOTS=(--bot rt4=ismcts:$T --bot leaf=ismcts:$T,rollout=none --bot rt1=ismcts:$T,rollout_turns=1
      --bot rt2=ismcts:$T,rollout_turns=2 --bot rt8=ismcts:$T,rollout_turns=8)
for games in ${PASSES:-80 160}; do
    if [ -f "$dir/tournament.json" ]; then $C tournament --out "$dir" --resume --games "$games" --jobs 2 --quiet
    else $C tournament "${BOTS[@]}" --map imperium --players 4 --games "$games" --seed 25 --jobs 2 --out "$dir" --quiet; fi \
        > /dev/null
    echo "$(date -u +%FT%TZ) $dir $games games" >> "$root/run.log"
done
