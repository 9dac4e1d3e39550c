#!/usr/bin/env bash
# Four times the time with the warm value model in every seat (issue 25, target (c); session of 2026-12-04,
# 7th): the candidate at 0.12 s of CPU a move against three copies at 0.03 s, all four with
# results/value-warm/weights and otherwise the bots' default search, 4-player Imperium, deals 52000-52024 x 4
# seats (the deals of results/time-budget/run-time4x.sh, where the default with the shipped model won 27 of
# 100). A fixed match of 100 games (gate.py --fixed; its bots are seeded as strength.py's). Planned: about 21
# CPU minutes, 11-20 minutes of wall time on 2 cores. The log resumes.
set -euo pipefail
cd "$(dirname "$0")/../.."
nice -n 10 ${PY:-.venv/bin/python} scripts/gate.py --candidate-value results/value-warm/weights \
    --incumbent-value results/value-warm/weights --board imperium --players 4 --seconds 0.03 \
    --candidate-seconds 0.12 --games 100 --seed-start 52000 --fixed --jobs 2 \
    --log results/value-warm/time4x.jsonl > results/value-warm/time4x.json 2> results/value-warm/time4x.log
