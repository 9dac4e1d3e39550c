#!/usr/bin/env bash
# The final-result model's positions searched again for generation 5 (issue 25: installing results/loop/gen-5 as
# the default; session of 2026-12-05, 12th): every position of the logs the installed model was fitted on
# (concordia_ai/data/value/outcome.json "logs", 2-5 players, 4,217 positions; the 1,000 two-player openings of
# selfplay-open-2p come from self-play of the default and are made again from generation 5's self-play, a step of
# their own), searched as the hint will search them with generation 5 installed: search.TABLE_SEARCH with
# rollout_turns=4, 3 s and 0.3 s of one search thread (outcome_data.py --from: no game is played again; the
# positions' own evaluations are made again too). Run from a checkout whose concordia_ai/data/policy/ and
# concordia_ai/data/value/ hold results/loop/gen-5/weights and value-weights (outcome_data refuses nothing here:
# each record keeps the sha256 of the weights it read, and the fit refuses a mix).
# Planned: 4,217 positions x 3.3 CPU s, about 3.9 CPU hours, in chunks of 40-45 minutes of wall time on 2 cores:
# one log per source log, each resumable; SOURCES picks and orders them (default: all, 4 players first).
set -euo pipefail
cd "$(dirname "$0")/../../.."
SOURCES=${SOURCES:-"warm-log/4p margin-held/4p warm-log/4p-more warm-log/4p-more2 margin-held/3p warm-log/3p warm-log/3p-more margin-held/5p warm-log/5p warm-log/5p-more margin-held/2p net2p-log/2p net2p-log/2p-more"}
for src in $SOURCES; do
  dir=${src%%/*}; name=${src#*/}; n=${name%%p*}
  nice -n 10 ${PY:-.venv/bin/python} scripts/outcome_data.py --players "$n" --budgets 3,0.3 --search rollout_turns=4,value_weights=results/loop/gen-5/value-weights,policy_weights=results/loop/gen-5/weights \
      --from "results/outcome/$dir/positions-$name.jsonl" --jobs 2 \
      --log "results/outcome/gen5/positions-$dir-$name.jsonl" >> results/outcome/gen5/run.log 2>&1
  echo "$(date -u +%FT%TZ) $src done" >> results/outcome/gen5/run.log
done
