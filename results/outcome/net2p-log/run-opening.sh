#!/usr/bin/env bash
# The opening check of the hint (issue 24) with the value model as the 2-player evaluation (session of 2026-12-04,
# 8th): results/outcome/puct-log/run-opening.sh with the 2-player references taken from self-play of the
# value-model search (results/outcome/selfplay-2p-net/, 150 games a board); the 3-5 player references as there.
# 16 settings x 2 seeds x 3 s: about 100 CPU s of search, 2-4 minutes of wall time on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/../../.."
nice -n 10 ${PY:-.venv/bin/python} scripts/opening_figures.py --seeds 2 --seconds 3 --jobs 2 \
    --selfplay results/outcome/selfplay-2p-net/imperium.jsonl --selfplay results/outcome/selfplay-2p-net/italia.jsonl \
    --selfplay results/outcome/selfplay-2p-net/creta.jsonl --selfplay results/outcome/selfplay-2p-net/aegyptus.jsonl \
    --selfplay results/outcome/selfplay-4p/italia.jsonl --selfplay results/outcome/selfplay-4p/creta.jsonl \
    --selfplay results/outcome/selfplay-4p/aegyptus.jsonl --selfplay results/outcome/selfplay-4p/imperium.jsonl \
    --out results/outcome/net2p-log/opening.json > results/outcome/net2p-log/opening.txt 2>&1
