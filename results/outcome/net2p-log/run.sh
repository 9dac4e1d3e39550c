#!/usr/bin/env bash
# Issue 24, deliverable 2 (session of 2026-12-04, 8th): the 743 two-player positions of results/outcome/puct-log/
# searched again with the value model as the leaf evaluation (eval=net; the installed warm model of
# results/value-warm/), the hint's search otherwise: the same positions, seeds and budgets (3 s and 0.3 s of one
# search thread), the positions' own evaluations made again too. What the 2-player hint's figures are fitted on
# once the value model is the 2-player default (results/net-2p/). Planned: 743 positions x 3.3 CPU s, about 41 CPU
# minutes, 25-40 minutes of wall time on 2 cores shared with other runs; one log per source log (each resumes).
set -euo pipefail
cd "$(dirname "$0")/../../.."
for src in 2p 2p-more; do
  nice -n 10 ${PY:-.venv/bin/python} scripts/outcome_data.py --players 2 --budgets 3,0.3 --search eval=net \
      --from "results/outcome/puct-log/positions-$src.jsonl" --jobs 2 \
      --log "results/outcome/net2p-log/positions-$src.jsonl" >> results/outcome/net2p-log/run.log 2>&1
done
