#!/usr/bin/env bash
# The strength ladder of results/ladder.md (issue 8, deliverable 4): ten bots in one tournament per
# setting, balanced lineups, seat rotation on shared seeds. Resumable: rerun to continue; the first pass
# plays half the games of every setting, the second completes them, so a stop leaves all three usable.
# Then: python3 scripts/ladder.py (the report and the plot).
# On a Dask cluster (docs/cluster.md): RUNNER="--backend dask --scheduler tls://HOST:8786 --tls-ca-file ca.pem
#   --tls-cert client.pem --tls-key client.key" JOBS=16 scripts/ladder.sh
set -u
cd "$(dirname "$0")/.."
C=${CONCORDIA:-.venv/bin/concordia}
JOBS=${JOBS:-1}
read -r -a RUN <<< "${RUNNER:-}"     # extra runner options for every tournament (word-split on purpose)
BOTS=(--bot random=random --bot greedy=greedy --bot heuristic=heuristic
      --bot plan-minerva=plan:minerva --bot plan-mars=plan:mars
      --bot ismcts-10ms=ismcts:seconds=0.01,iterations=0 --bot ismcts-30ms=ismcts:seconds=0.03,iterations=0
      --bot ismcts-100ms=ismcts:seconds=0.1,iterations=0 --bot ismcts-300ms=ismcts:seconds=0.3,iterations=0
      --bot default=ismcts)
one() {  # one DIR MAP PLAYERS GAMES
    local dir=results/ladder/$1
    if [ -f "$dir/tournament.json" ]; then "$C" tournament --out "$dir" --resume --games "$4" --jobs "$JOBS" ${RUN[@]+"${RUN[@]}"} --quiet
    else "$C" tournament "${BOTS[@]}" --map "$2" --players "$3" --games "$4" --seed 8 --jobs "$JOBS" ${RUN[@]+"${RUN[@]}"} --out "$dir" --quiet; fi \
        > /dev/null
    echo "$(date -u +%FT%TZ) $dir $4 games" >&2
}
for pass in 1 2; do
    one imperium-4p imperium 4 $((80 * pass))
    one italia-3p italia 3 $((75 * pass))
    one italia-2p italia 2 $((90 * pass))
done
