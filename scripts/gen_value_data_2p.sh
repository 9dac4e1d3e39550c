#!/usr/bin/env bash
# Round-2 data for the 2-player value model: 10,000 2-player games in which one seat is the search
# (ismcts:iterations=300, the 2-player default evaluation) and the other is drawn per game from the search,
# the two plan bots, heuristic and greedy, so that lines the self-play never plays (the specialist lines of
# plan:minerva and plan:mars) are in the data. Chunks of 2,000 game ids, each a file (an interrupted run loses
# one chunk). Usage: scripts/gen_value_data_2p.sh OUT_DIR [JOBS]
set -euo pipefail
out=${1:?OUT_DIR}; jobs=${2:-1}
mkdir -p "$out"
for k in $(seq 0 4); do
    f="$out/r2_mixed2p_$k.npz"
    [ -f "$f.json" ] && continue
    nice -n 19 python3 "$(dirname "$0")/train_value.py" generate --players 2 \
        --bot ismcts:iterations=300 --bot ismcts:iterations=300 --bot plan:minerva --bot plan:mars \
        --bot heuristic --bot greedy --games 2000 --first-id $((k * 2000)) --seed 21 --jobs "$jobs" --out "$f"
done
