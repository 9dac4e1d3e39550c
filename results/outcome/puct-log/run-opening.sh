#!/usr/bin/env bash
# The opening check of the hint (issue 24): 16 settings x 2 seeds x 3 s, about 100 CPU s of search, 2-4 minutes of
# wall time on 2 cores. Since the session of 2026-12-04 (4th), the 2-player settings take their references from
# self-play of today's default search (results/outcome/selfplay-2p/: 200 games on Imperium, 150 on each other
# board), the bot the hint stands for; the 3-5-player ones still from results/opening-check.json (the UCB search
# at 300 iterations, 625 games a setting) and the mean final scores of results/outcome/ (mixed opponents).
set -euo pipefail
cd "$(dirname "$0")/../../.."
nice -n 10 ${PY:-.venv/bin/python} scripts/opening_figures.py --seeds 2 --seconds 3 --jobs 2 \
    --selfplay results/outcome/selfplay-2p/imperium.jsonl --selfplay results/outcome/selfplay-2p/italia.jsonl \
    --selfplay results/outcome/selfplay-2p/creta.jsonl --selfplay results/outcome/selfplay-2p/aegyptus.jsonl \
    --out results/outcome/puct-log/opening.json > results/outcome/puct-log/opening.txt 2>&1
