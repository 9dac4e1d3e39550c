#!/usr/bin/env bash
# Issue 25, target (c) (session of 2026-12-05, 12th): does a less biased estimate make time pay? Generation 5 with
# its 4 turns after the tree drawn from its learned prior (rollout=policy) instead of uniformly at random, in every
# seat: 0.12 s of CPU a move against three copies at 0.03 s, 4-player Imperium, the target's deals 52000-52014 x 4
# seats with the bot seeds of ../value-features/time4x.jsonl (random turns: 22 of these 60). A policy rollout costs
# about 5 times a random one (bench_search rt4_pol), so each search runs about a fifth of the iterations; the
# question is only whether four times them buys more when each estimate carries less of the random turns' bias.
# Planned: 60 games at fixed size, about 12.5 CPU s a game, 7-10 minutes of wall time on 2 cores; the log resumes.
set -euo pipefail
cd "$(dirname "$0")/../.."
g=results/loop/gen-5
k=rollout_turns=4,rollout=policy
nice -n 10 ${PY:-.venv/bin/python} scripts/gate.py --candidate $k --candidate-prior $g/weights \
    --candidate-value $g/value-weights --incumbent $k --incumbent-prior $g/weights \
    --incumbent-value $g/value-weights --board imperium --players 4 --seconds 0.03 --candidate-seconds 0.12 \
    --games ${GAMES:-60} --seed-start 52000 --fixed --jobs 2 --log results/policy-rollout/time4x.jsonl \
    > results/policy-rollout/time4x.json 2> results/policy-rollout/time4x.log
