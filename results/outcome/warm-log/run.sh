#!/usr/bin/env bash
# The final-result model's 3-5 player positions searched again with the warm-started value model installed
# (results/value-warm/; session of 2026-12-04, 7th): the same positions, seeds and budgets as
# results/outcome/puct-log/ (outcome_data.py --from, 3 s and 0.3 s of one search thread, the hint's search), the
# positions' own evaluations made again too. 2-player positions are not searched again: the hint evaluates them
# with the hand formula, which no value model enters (outcome_fit.search_of). Planned: 1,974 positions x 3.3 CPU s,
# about 110 CPU minutes, 55-70 minutes of wall time on 2 cores, one log per source log (each resumes), 4 players
# first. Run from a checkout whose concordia_ai/data/value/ holds results/value-warm/weights.
set -euo pipefail
cd "$(dirname "$0")/../../.."
for src in 4p 4p-more 4p-more2 3p 3p-more 5p 5p-more; do
  n=${src%%p*}
  nice -n 10 ${PY:-.venv/bin/python} scripts/outcome_data.py --players "$n" --budgets 3,0.3 \
      --from "results/outcome/puct-log/positions-$src.jsonl" --jobs 2 \
      --log "results/outcome/warm-log/positions-$src.jsonl" >> results/outcome/warm-log/run.log 2>&1
done
