#!/usr/bin/env bash
# Issue 25, target (c): does mixing the leaf's own evaluation into each estimate (SearchConfig.leaf_mix, 0.5)
# make four times the time pay, and does it hold at equal time? Two screens on 4-player Imperium, every seat
# today's default (PUCT, the loop's prior, c_puct_log auto = 0.45 with 4 players, 8 random turns):
#   time:  0.12 s against three copies at 0.03 s, all with leaf_mix=0.5, deals 52000-52024 x 4 seats = 100 games
#          (the deals of results/puct/run-time-clog.sh: the same search without the mix won 32 of 100);
#   equal: 0.03 s with leaf_mix=0.5 against three copies of the UCB default, deals 55000-55014 x 4 = 60 games
#          (results/puct/run-screen4p.sh: without the mix, 35 of 60).
# Planned (session of 2026-12-04, 5th): about 15 + 8 CPU minutes, 15-30 minutes of wall time on 2 cores shared
# with other runs; the logs resume.
set -euo pipefail
cd "$(dirname "$0")/../.."
PY="nice -n 10 ${PY:-.venv/bin/python}"
W=${W:-0.5}
$PY scripts/strength.py --candidate "ismcts:seconds=0.12,leaf_mix=$W" --opponent "ismcts:seconds=0.03,leaf_mix=$W" \
    --board imperium --players 4 --seeds 25 --seed-start 52000 --json --jobs 2 \
    --log results/leaf-mix/time-w$W.jsonl > results/leaf-mix/time-w$W.json 2> results/leaf-mix/time-w$W.log
$PY scripts/strength.py --candidate "ismcts:seconds=0.03,leaf_mix=$W" --opponent "ismcts:seconds=0.03,select=ucb,policy=0" \
    --board imperium --players 4 --seeds 15 --seed-start 55000 --json --jobs 2 \
    --log results/leaf-mix/equal-w$W.jsonl > results/leaf-mix/equal-w$W.json 2> results/leaf-mix/equal-w$W.log
