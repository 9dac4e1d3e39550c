#!/usr/bin/env bash
# The learning loop's generation 3 (issue 25, deliverables 3-4; session of 2026-12-05, 9th): the first generation
# since the growing PUCT weight (c_puct_log auto) and the warm-started value model became the default. Its sides
# search as results/loop/best.json says (generation 1: PUCT, c_puct 0.25, 4 random turns after the cut-off where
# the bots' default has 8), with c_puct_log auto and the installed value model. The value model is trained on further from the installed one
# (--value-warm, as results/value-warm/ did with generation 2's games) with the searches' own estimates at half
# weight, and the gate measures the new prior and value model together (--value-gate) on 4-player Imperium, where
# target (c) is measured. Planned: 800 self-play games (half of generation 2's) in 4 chunks, about 10-12 minutes of
# both cores; training 2-3 minutes; the gate (at most 120 games at 400 iterations, then 200 at 30 ms) about 30-50
# minutes more, resumed by the next session if this one ends first (rerun this script: chunks, training and the
# gate's games resume). Each step is committed as it ends (--commit).
set -euo pipefail
cd "$(dirname "$0")/../.."
nice -n 10 ${PY:-.venv/bin/python} scripts/loop.py --generation 3 --games 800 --chunk 200 --boards italia,imperium \
    --players 2,3,4,5 --per-count --value-warm --value-search-target 0.5 --value-gate \
    --gate-board imperium --gate-players 4 --jobs 2 --commit
