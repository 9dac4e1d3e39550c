#!/usr/bin/env bash
# Second batch of the judgement measurements (after scripts/judgement_runs.sh's calibration and stability).
set -u
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
mkdir -p results/calibration-hint results/strength/judgement
# (c) against three plan bots (the shipped championship line and the colonist/Mars line), 30 ms per move
for plan in minerva mars; do
    $PY scripts/strength.py --candidate "ismcts:seconds=0.03,iterations=0" --opponent "plan:$plan" --board imperium \
        --players 4 --seeds 10 --seed-start 4000 --jobs 2 --log results/strength/judgement/c_vs_plan_$plan.jsonl \
        --json > results/strength/judgement/c_vs_plan_$plan.txt 2>&1
done
# chance nodes: one shared child per reveal (merge) against a child per card (branch, the default), 30 ms, 40 games
$PY scripts/strength.py --candidate "ismcts:seconds=0.03,iterations=0,chance=merge" \
    --opponent "ismcts:seconds=0.03,iterations=0" --board imperium --players 4 --seeds 10 --seed-start 3000 \
    --jobs 2 --log results/strength/judgement/chance_merge_vs_branch_30ms.jsonl --json \
    > results/strength/judgement/chance_merge_vs_branch_30ms.txt 2>&1
# (b) at 0.2 s per move (resumes the log of scripts/judgement_runs.sh if it started)
$PY scripts/strength.py --candidate "ismcts:seconds=0.2,iterations=0,eval=net,root_floor=0.2" \
    --opponent "ismcts:seconds=0.2,iterations=0,eval=hand" --board imperium --players 4 --seeds 25 --seed-start 2000 \
    --jobs 2 --log results/strength/judgement/b_imperium_200ms.jsonl --json > results/strength/judgement/b_imperium_200ms.txt 2>&1
