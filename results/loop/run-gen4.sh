#!/usr/bin/env bash
# The learning loop's generation 4 (issue 25, target (c); session of 2026-12-05, 11th). Incumbent: generation 3
# (best.json: PUCT, c_puct 0.25, 4 random turns after the cut-off, its prior and value model). Twice generation
# 3's self-play (1,600 games, 8 chunks of 200), the value model trained on further from generation 3's with the
# searches' estimates at half weight, the gate on 4-player Imperium with the new prior and value model together.
# The prior is copied to /work/gen4-install, not into the package: installing needs the hint's final-result model
# refitted on the new search (results/loop/README.md). Planned: self-play about 18-20 minutes of both cores
# (generation 3: 800 games in 9), training 3, the gate at most about 20: 30-45 minutes, each step committed as it
# ends; rerun to resume.
set -euo pipefail
cd "$(dirname "$0")/../.."
nice -n 10 ${PY:-.venv/bin/python} scripts/loop.py --generation 4 --games 1600 --chunk 200 --boards italia,imperium \
    --players 2,3,4,5 --per-count --value-warm --value-search-target 0.5 --value-gate \
    --gate-board imperium --gate-players 4 --jobs 2 --install-dir /work/gen4-install --commit
