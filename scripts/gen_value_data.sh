#!/usr/bin/env bash
# Round-1 data for the value model: 10,000 games of ismcts:iterations=300,eval=hand with the UCB search of then (select=ucb,policy=0) in chunks of 1,000 game ids
# (each chunk a file, so training can start on the first chunks). Each chunk's games are logged as they end
# (OUT.npz.games.jsonl): an interrupted run, rerun, plays only the missing games.
# Usage: scripts/gen_value_data.sh OUT_DIR [JOBS] [RUNNER OPTIONS]
#   e.g. scripts/gen_value_data.sh data 8 --backend dask --scheduler tls://10.0.0.5:8786 --tls-ca-file ca.pem ...
#   (docs/cluster.md)
set -euo pipefail
out=${1:?OUT_DIR}; jobs=${2:-2}
shift $(( $# < 2 ? $# : 2 ))
mkdir -p "$out"
for k in $(seq 0 9); do
    f="$out/r1_ismcts300_$k.npz"
    [ -f "$f.json" ] && continue
    python3 "$(dirname "$0")/train_value.py" generate --bot ismcts:iterations=300,eval=hand,select=ucb,policy=0 --games 1000 \
        --first-id $((k * 1000)) --seed 11 --jobs "$jobs" --out "$f" "$@"
done
