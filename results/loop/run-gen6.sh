#!/usr/bin/env bash
# The learning loop's generation 6 (issue 25, target (c); session of 2026-12-05, 14th): generation 5's recipe
# unchanged, one generation on (incumbent generation 5 = best.json = the installed default since the 13th session:
# its prior and value model, 4 random turns; 1,600 self-play games, the value model warm from generation 5's, the
# gate on 4-player Imperium at 30 ms). The question for target (c): does another generation of the same loop still
# buy strength at equal time (generation 4: undecided, generation 5: kept)? Planned like generation 5: about
# 36-45 minutes of wall time on 2 cores (self-play 15-25, training 5, the gate 16); the chunks resume.
set -euo pipefail
cd "$(dirname "$0")/../.."
nice -n 10 ${PY:-.venv/bin/python} scripts/loop.py --generation 6 --games 1600 --chunk 200 --boards italia,imperium \
    --players 2,3,4,5 --per-count --value-warm --value-search-target 0.5 --value-gate \
    --gate-board imperium --gate-players 4 --jobs 2 --install-dir /work/gen6-install --commit
