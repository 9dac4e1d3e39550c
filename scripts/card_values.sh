#!/usr/bin/env bash
# The published card-value runs of results/card-values/ (issue 10). Every run resumes: rerunning this
# script after a stop plays only the missing games (and --games may be raised to extend a run).
# BOT is the headline bot: the default ISMCTS configuration (eval=net, root_floor=0.2, rollout_turns=8)
# at 1,000 iterations per decision, the budget two cores allowed for a few thousand games in one
# session (the default is 5,000). The heuristic runs add breadth (about 0.03 CPU s per game).
set -u
cd "$(dirname "$0")/.."
C=${CONCORDIA:-.venv/bin/concordia}
BOT=${BOT:-ismcts:iterations=1000}
JOBS=${JOBS:-1}
OUT=results/card-values
run() {  # run DIR COMMAND ARGS...: start, or resume when DIR already holds a run
    local dir=$1; shift
    if [ -f "$dir/research.json" ]; then "$C" research "$1" --out "$dir" --resume --games "$GAMES" --jobs "$JOBS" --quiet > /dev/null
    else "$C" research "$@" --out "$dir" --games "$GAMES" --jobs "$JOBS" --quiet > /dev/null; fi
    echo "$(date -u +%FT%TZ) done $dir" >&2
}
intervene() {  # intervene MAP PLAYERS PAIRS-PER-CARD
    GAMES=$3 run $OUT/$1-${2}p/ismcts-intervene intervene --card all --map $1 --players $2 --bot "$BOT" --seed 10
}
selfplay() {  # selfplay MAP PLAYERS GAMES
    GAMES=$3 run $OUT/$1-${2}p/ismcts-cards cards --map $1 --players $2 --bot "$BOT" --seed 11
}
# Steps: with no argument, or `ismcts`, every ISMCTS run in order of need; `heuristic` the heuristic runs;
# or name ISMCTS steps, e.g. `scripts/card_values.sh selfplay-italia-3 intervene-italia-2` (two chains
# of different steps may run at once: they write different folders).
step() {  # step NAME: intervene-MAP-P or selfplay-MAP-P with the published game counts
    case $1 in
        intervene-imperium-4) intervene imperium 4 40 ;;   # pairs per card: 10 seed blocks
        intervene-italia-3) intervene italia 3 45 ;;       # 15 seed blocks
        intervene-italia-2) intervene italia 2 30 ;;       # 15 seed blocks
        selfplay-imperium-4) selfplay imperium 4 240 ;;
        selfplay-italia-3) selfplay italia 3 240 ;;
        selfplay-italia-2) selfplay italia 2 240 ;;
        *) echo "unknown step $1" >&2; exit 2 ;;
    esac
}
if [ "${1:-ismcts}" = heuristic ]; then
    for cfg in "imperium 4" "italia 3" "italia 2"; do set -- $cfg
        d=$OUT/$1-${2}p/heuristic
        GAMES=200 run $d-intervene intervene --card all --map $1 --players $2 --bot heuristic --seed 10
        GAMES=4000 run $d-cards cards --map $1 --players $2 --bot heuristic --seed 11
    done
elif [ "${1:-ismcts}" = ismcts ]; then
    for s in intervene-imperium-4 selfplay-imperium-4 intervene-italia-3 intervene-italia-2 selfplay-italia-3 \
             selfplay-italia-2; do step $s; done
else
    for s in "$@"; do step "$s"; done
fi
