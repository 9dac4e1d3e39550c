#!/usr/bin/env bash
# The 2-player openings for the final-result model's fit with generation 5 installed (as
# results/outcome/selfplay-open-2p/run.sh for today's default): the first turn of each game of
# generation 5's self-play here (run.sh) searched as the hint will search it (search.TABLE_SEARCH with
# rollout_turns=4) at 3 s and 0.3 s, one search per game. Generation 5's weights are named in --search: since the end of
# the 13th session search.TABLE_SEARCH names the kept weights of before (before-gen5), which `rollout_turns=4` alone
# left in place (the 14th session's first 520 positions were searched so; the fit refused them, and they were taken
# out of the log).
# Planned: 480 positions (run.sh's 60 deals a board) x 3.3 CPU s, about 26 CPU minutes, 13-15 minutes of wall time on
# 2 cores; the log resumes.
set -euo pipefail
cd "$(dirname "$0")/../../.."
d=results/outcome/selfplay-2p-gen5
nice -n 10 ${PY:-.venv/bin/python} scripts/outcome_data.py --players 2 --budgets 3,0.3 --search rollout_turns=4,value_weights=results/loop/gen-5/value-weights,policy_weights=results/loop/gen-5/weights --jobs 2 \
    --openings-of $d/imperium.jsonl --openings-of $d/italia.jsonl --openings-of $d/creta.jsonl \
    --openings-of $d/aegyptus.jsonl \
    --log results/outcome/gen5/positions-selfplay-open-2p.jsonl >> results/outcome/gen5/run-open.log 2>&1
