#!/usr/bin/env bash
# The hint's seed-to-seed spread with generation 5 installed (issue 25: installing results/loop/gen-5; session of
# 2026-12-05, 13th): the sweep of run-installed11.sh (the same 52 positions, 5 seeds, 3 s, two threads a hint, every
# seed's whole turns recorded) on the search the hint will run then (rollout_turns=4; generation 5's policy and value
# weights in concordia_ai/data/ of the checkout this runs from), with today's final-result model
# (sweep-models-gen5.json; stability_replay.py takes its between_sd out). Its `between` goes into the refit
# (outcome_fit.py --between). Planned: about 26 CPU minutes, 14-16 minutes of wall time on 2 cores; the log resumes.
set -euo pipefail
cd "$(dirname "$0")/../.."
cp concordia_ai/data/value/outcome.json results/stability-puct/sweep-models-gen5.json
nice -n 10 ${PY:-.venv/bin/python} scripts/stability.py --positions 52 --seeds 5 --budgets 3 \
    --bot ismcts:focus=0.25,c_puct_log=0.45,jobs=2,rollout_turns=4 --tie-rounds 99 --record --jobs 1 \
    --out results/stability-puct/record_gen5.json > results/stability-puct/record_gen5.txt 2>&1
