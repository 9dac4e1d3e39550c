#!/usr/bin/env bash
# The opening check of the hint (issue 24): 16 settings x 2 seeds x 3 s, about 100 CPU s of search, 2-4 minutes of
# wall time on 2 cores. Since the session of 2026-12-04 (4th), the 2-player settings take their references from
# self-play of today's default search (results/outcome/selfplay-2p/: 200 games on Imperium, 150 on each other
# board), the bot the hint stands for; the 3-5-player ones still from results/opening-check.json (the UCB search
# at 300 iterations, 625 games a setting) and the mean final scores of results/outcome/ (mixed opponents).
# Since the session of 2026-12-04 (5th), 4-player Italia, Creta and Aegyptus take theirs from self-play of the
# default too (results/outcome/selfplay-4p/, 152 games each), and 2-player Creta's log holds 300 games; then
# 4-player Imperium's too (run-imperium.sh).
# OUT names the output (default results/outcome/puct-log/opening: .json and .txt); the warm-started value model's
# check went to results/outcome/warm-log/opening (7th session).
set -euo pipefail
cd "$(dirname "$0")/../../.."
nice -n 10 ${PY:-.venv/bin/python} scripts/opening_figures.py --seeds 2 --seconds 3 --jobs 2 \
    --selfplay results/outcome/selfplay-2p/imperium.jsonl --selfplay results/outcome/selfplay-2p/italia.jsonl \
    --selfplay results/outcome/selfplay-2p/creta.jsonl --selfplay results/outcome/selfplay-2p/aegyptus.jsonl \
    --selfplay results/outcome/selfplay-4p/italia.jsonl --selfplay results/outcome/selfplay-4p/creta.jsonl \
    --selfplay results/outcome/selfplay-4p/aegyptus.jsonl --selfplay results/outcome/selfplay-4p/imperium.jsonl \
    --out "${OUT:-results/outcome/puct-log/opening}.json" > "${OUT:-results/outcome/puct-log/opening}.txt" 2>&1
