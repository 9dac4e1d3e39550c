#!/usr/bin/env bash
# The learning loop's second generation (issue 25, deliverables 3 and 4), session of 2026-12-04 (2nd).
# Incumbent: generation 1 (best.json: PUCT, c_puct 0.25, 4 random turns, its prior). Self-play: 800 games on
# Italia and Imperium, 2-5 players, in 4 chunks of 200, the playout cap as in generation 1; the self-play now
# records the search's estimate at every turn start, and the value model's report mixes it in at weight 0.5
# (--value-search-target; the held-out figures stay on the real results). Gate as in generation 1.
# Planned: generation 1 took 13.5 minutes with 400 games; about 18-25 minutes here; rerun to resume.
set -euo pipefail
cd "$(dirname "$0")/../.."
nice -n 10 ${PY:-.venv/bin/python} scripts/loop.py --games 800 --chunk 200 --boards italia,imperium \
    --players 2,3,4,5 --per-count --search "iterations=1600" --value-search-target 0.5 \
    --gate-board italia --gate-players 3 --jobs 2 --commit
