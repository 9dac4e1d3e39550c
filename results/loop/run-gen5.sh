#!/usr/bin/env bash
# The learning loop's generation 5 (issue 25, target (c); session of 2026-12-05, 11th): generation 4's recipe
# (incumbent generation 3, 1,600 self-play games, the value model warm from generation 3's, the gate on 4-player
# Imperium) with one change, the value model's second feature layout (docs/value.md: features 60-70, a seat's
# economy and what the display offers it; the self-play records all 71, the warm start gives the new ones weight
# 0). Generation 4 (the same recipe on the first layout) won 31.5 % of 200 at 30 ms: the comparison.
# Planned like generation 4: 36 minutes of wall time on 2 cores (self-play 15, training 5, the gate 16).
set -euo pipefail
cd "$(dirname "$0")/../.."
nice -n 10 ${PY:-.venv/bin/python} scripts/loop.py --generation 5 --games 1600 --chunk 200 --boards italia,imperium \
    --players 2,3,4,5 --per-count --value-warm --value-search-target 0.5 --value-gate \
    --gate-board imperium --gate-players 4 --jobs 2 --install-dir /work/gen5-install --commit
