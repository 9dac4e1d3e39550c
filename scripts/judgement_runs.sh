#!/usr/bin/env bash
# The measurements of the judgement issue, in order of priority, one after the other on 2 cores.
# Every step writes its own log/JSON under results/ and can be rerun (the strength logs resume).
set -u
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
NEW="ismcts:seconds=0.03,iterations=0,eval=net,root_floor=0.2"
OLD="ismcts:seconds=0.03,iterations=0,eval=hand"
mkdir -p results/strength/judgement results/calibration
# (a) at 30 ms per move, Italia (Imperium ran first)
$PY scripts/strength.py --candidate "$NEW" --opponent "$OLD" --board italia --players 4 --seeds 50 --seed-start 1000 \
    --jobs 2 --log results/strength/judgement/a_italia_30ms.jsonl --json > results/strength/judgement/a_italia_30ms.txt 2>&1
# (d) calibration of the reported win % at 0.1 s per position, 200 held-out games x 10 positions
$PY scripts/calibration.py --games 200 --per-game 10 --search "ismcts:seconds=0.1,iterations=0,eval=net,root_floor=0.2" \
    --play ismcts:iterations=300,eval=hand --seed 900 --jobs 2 --out results/calibration > results/calibration/run.txt 2>&1
# (e) stability of the top whole turn over 5 seeds at 0.3, 1 and 3 s
$PY scripts/stability.py --positions 52 --seeds 5 --budgets 0.3,1,3 --bot "ismcts:eval=net,root_floor=0.2" --jobs 2 \
    --out results/stability.json > results/stability.txt 2>&1
# (b) at 0.2 s per move: 10 seeds first (40 games); rerun with --seeds 25 to extend to 100
$PY scripts/strength.py --candidate "ismcts:seconds=0.2,iterations=0,eval=net,root_floor=0.2" \
    --opponent "ismcts:seconds=0.2,iterations=0,eval=hand" --board imperium --players 4 --seeds 25 --seed-start 2000 \
    --jobs 2 --log results/strength/judgement/b_imperium_200ms.jsonl --json > results/strength/judgement/b_imperium_200ms.txt 2>&1
