#!/usr/bin/env bash
# The final-result model fitted on generation 5's search (issue 25: installing results/loop/gen-5; not installed,
# results/outcome/gen5/README.md says why: WRITE=concordia_ai/data/value/outcome.json installs it;
# session of 2026-12-05, 13th), once run.sh, ../selfplay-2p-gen5/run.sh and run-open.sh, and
# ../../stability-puct/run-gen5.sh have run: the seed-to-seed spread from the sweep (stability_replay.py), the
# fit on every log here (outcome_fit.py: about 6 minutes of one core), then the opening check against generation
# 5's 2-player self-play and the 4-player references (opening_figures.py: 2-4 minutes on 2 cores).
set -euo pipefail
cd "$(dirname "$0")/../../.."
PY=${PY:-.venv/bin/python}
S=results/stability-puct
# the spread pooled over generation 5's sweep and the three the installed model's was pooled over (one sweep of 52
# positions pins it poorly: two sweeps of the search before gave 1.7 and 6.3 VP with 2 players; generation 5's
# alone, 1.6 / 2.9 / 0.36 / 0.08 VP for 2-5 players, is within their range); tie rules replayed on generation
# 5's sweep
$PY scripts/stability_replay.py --log $S/record_gen5.json.positions.jsonl --sweep-models $S/sweep-models-gen5.json \
    --log $S/record_net2p-b.json.positions.jsonl --sweep-models $S/sweep-models-net2p-b.json \
    --log $S/record_net2p-a.json.positions.jsonl --sweep-models $S/sweep-models-net2p-a.json \
    --log $S/record_warm.json.positions.jsonl --sweep-models $S/sweep-models-warm.json --out $S/replay_gen5.json
$PY scripts/stability_replay.py --log $S/record_gen5.json.positions.jsonl --sweep-models $S/sweep-models-gen5.json \
    --out $S/replay_gen5_alone.json
$PY scripts/outcome_fit.py --logs 'results/outcome/gen5/positions-*.jsonl' --between $S/replay_gen5.json \
    --write ${WRITE:-results/outcome/gen5/outcome.json} --report results/outcome/gen5/report.json \
    --markdown results/outcome/gen5/report.md
d=results/outcome/selfplay-2p-gen5
nice -n 10 $PY scripts/opening_figures.py --seeds 2 --seconds 3 --jobs 2 \
    --selfplay $d/imperium.jsonl --selfplay $d/italia.jsonl --selfplay $d/creta.jsonl --selfplay $d/aegyptus.jsonl \
    --selfplay results/outcome/selfplay-4p/italia.jsonl --selfplay results/outcome/selfplay-4p/creta.jsonl \
    --selfplay results/outcome/selfplay-4p/aegyptus.jsonl --selfplay results/outcome/selfplay-4p/imperium.jsonl \
    --out results/outcome/gen5/opening.json > results/outcome/gen5/opening.txt 2>&1
