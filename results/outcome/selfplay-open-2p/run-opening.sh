#!/usr/bin/env bash
# The opening check of the hint (issue 24) once the final-result model is refitted with the first turns of the
# 2-player references' own games (results/outcome/selfplay-open-2p/; the first round's open_d with 2 players):
# as results/outcome/net2p-log/run-opening.sh, the same references. Note that the 2-player references are the
# games whose first turns the first round was fitted on (one offset and one weight for the four boards together).
# 16 settings x 2 seeds x 3 s: about 100 CPU s of search, 2-4 minutes of wall time on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/../../.."
nice -n 10 ${PY:-.venv/bin/python} scripts/opening_figures.py --seeds 2 --seconds 3 --jobs 2 \
    --selfplay results/outcome/selfplay-2p-net/imperium.jsonl --selfplay results/outcome/selfplay-2p-net/italia.jsonl \
    --selfplay results/outcome/selfplay-2p-net/creta.jsonl --selfplay results/outcome/selfplay-2p-net/aegyptus.jsonl \
    --selfplay results/outcome/selfplay-4p/italia.jsonl --selfplay results/outcome/selfplay-4p/creta.jsonl \
    --selfplay results/outcome/selfplay-4p/aegyptus.jsonl --selfplay results/outcome/selfplay-4p/imperium.jsonl \
    --out results/outcome/selfplay-open-2p/opening.json > results/outcome/selfplay-open-2p/opening.txt 2>&1
