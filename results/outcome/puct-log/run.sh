#!/usr/bin/env bash
# The final-result model's data for the hint on PUCT with the growing weight (issue 24, session of 2026-12-04,
# 3rd): the positions of results/outcome/puct/ (mixed opponents, 986 searched and a few forced) searched again,
# without playing, as the hint would search them on `select=puct,policy=1,c_puct=0.25,c_puct_log=0.45`: the
# constant c_puct of the bots' default is not steady enough at 3 s (results/stability-puct/README.md). Budgets
# 3 s and 0.3 s of one thread. Planned: 3.3 CPU s a position, about 7-9 minutes of wall time per player count
# on 2 cores; each log resumes; run in the order PLAYERS gives.
set -euo pipefail
cd "$(dirname "$0")/../../.."
PY="nice -n 10 ${PY:-.venv/bin/python}"
for n in ${PLAYERS:-2 3 4 5}; do
  $PY scripts/outcome_data.py --players "$n" --budgets 3,0.3 --jobs 2 \
      --search select=puct,policy=1,c_puct=0.25,c_puct_log=0.45 \
      --from "results/outcome/puct/positions-${n}p.jsonl" --log "results/outcome/puct-log/positions-${n}p.jsonl" \
      > "results/outcome/puct-log/run-${n}p.json" 2> "results/outcome/puct-log/run-${n}p.log"
done
