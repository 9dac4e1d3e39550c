#!/usr/bin/env bash
# The opening check of the hint (issue 24; session of 2026-12-05, 10th) after the refit on the 1,500 positions of
# margin-held/ and the first turns of all 1,000 two-player reference games (selfplay-open-2p/ extended): the
# references of results/outcome/selfplay-open-2p/run-opening.sh. All 1,000 games of the 2-player references are
# now in the fit's first round (one offset and one weight for the four boards together), so the 2-player rows
# are no longer held out. 16 settings x 2 seeds x 3 s: 2-4 minutes of wall time on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/../../.."
nice -n 10 ${PY:-.venv/bin/python} scripts/opening_figures.py --seeds 2 --seconds 3 --jobs 2 \
    --selfplay results/outcome/selfplay-2p-net/imperium.jsonl --selfplay results/outcome/selfplay-2p-net/italia.jsonl \
    --selfplay results/outcome/selfplay-2p-net/creta.jsonl --selfplay results/outcome/selfplay-2p-net/aegyptus.jsonl \
    --selfplay results/outcome/selfplay-4p/italia.jsonl --selfplay results/outcome/selfplay-4p/creta.jsonl \
    --selfplay results/outcome/selfplay-4p/aegyptus.jsonl --selfplay results/outcome/selfplay-4p/imperium.jsonl \
    --out results/outcome/margin-held/opening.json > results/outcome/margin-held/opening.txt 2>&1
