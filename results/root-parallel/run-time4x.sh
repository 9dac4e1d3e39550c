#!/usr/bin/env bash
# Issue 25, target (c) (session of 2026-12-05, 14th): four times the time spent as four independent searches of
# 30 ms merged at the root (SearchConfig.jobs = 4: root parallelism, each thread counting its own CPU time
# against `seconds`, so a move costs 4 x 0.03 = 0.12 s of CPU, the candidate's budget in the target's match)
# instead of one search of 0.12 s. The ladders say one search gains nothing measurable past 30 ms (about 3,000
# iterations; results/gen5-default/README.md), while the literature finds root parallelism strong where single
# searches vary from seed to seed (ANCHORS.md: a 6.5x strength-speedup at 4 threads), and the hint's sweeps show
# that ours do (results/stability-puct/). Every seat the installed default (generation 5, 4 random turns),
# 4-player Imperium, the target's deals from 52000 x 4 seats with the bot seeds of ../value-features/time4x.jsonl
# (one search of 0.12 s: 39 of 100, its first 60 games 22). Planned: 60 games first (GAMES=60), about 8 minutes
# of wall time on 2 cores; then 100 (GAMES=100) if it leads. The log resumes.
set -euo pipefail
cd "$(dirname "$0")/../.."
nice -n 10 ${PY:-.venv/bin/python} scripts/gate.py --candidate rollout_turns=4,jobs=${JOBS:-4} \
    --incumbent rollout_turns=4 --board imperium --players 4 --seconds 0.03 \
    --games ${GAMES:-60} --seed-start 52000 --fixed --jobs 2 --log results/root-parallel/time4x-jobs${JOBS:-4}.jsonl \
    > results/root-parallel/time4x-jobs${JOBS:-4}.json 2> results/root-parallel/time4x-jobs${JOBS:-4}.log
