#!/usr/bin/env bash
# Issue 25, target (c) (session of 2026-12-05, 14th): does the longer search want another objective? The default's
# reward is half the win and half the margin over the best other seat (`reward=mix`, `mix=0.5`), chosen at 30 ms.
# A search that has settled its choice (results/time-budget/decision-change.json: by 0.5 s two seeds agree on 93 %
# of positions) plays what its objective asks, so four times the time may pay more with the win alone
# (KNOBS=reward=win, the default) or weighted up (KNOBS=mix=0.8). The candidate (generation 5, 4 random turns, the knob) at 0.12 s of CPU a
# move against three copies of the default at 0.03 s, 4-player Imperium, the target's deals 52000-52014 x 4 seats
# with the bot seeds of ../value-features/time4x.jsonl (the default at 0.12 s: 22 of those 60). Planned: 60 games,
# about 8 minutes of wall time on 2 cores alone; the log resumes.
set -euo pipefail
cd "$(dirname "$0")/../.."
K=${KNOBS:-reward=win}
TAG=$(echo "$K" | tr '=,' '-_')
nice -n 10 ${PY:-.venv/bin/python} scripts/gate.py --candidate "rollout_turns=4,$K" --incumbent rollout_turns=4 \
    --board imperium --players 4 --seconds 0.03 --candidate-seconds 0.12 --games ${GAMES:-60} --seed-start 52000 \
    --fixed --jobs 2 --log "results/reward-time4x/time4x-$TAG.jsonl" \
    > "results/reward-time4x/time4x-$TAG.json" 2> "results/reward-time4x/time4x-$TAG.log"
