#!/usr/bin/env bash
# The opening check of the hint on PUCT with the growing weight (issue 24, session of 2026-12-04, 3rd), after
# the final-result model was fitted on this search's figures (report.md here). 16 settings x 2 seeds x 3 s:
# about 100 CPU s of search, 2-4 minutes of wall time on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/../../.."
nice -n 10 ${PY:-.venv/bin/python} scripts/opening_figures.py --seeds 2 --seconds 3 --jobs 2 \
    --out results/outcome/puct-log/opening.json > results/outcome/puct-log/opening.txt 2>&1
