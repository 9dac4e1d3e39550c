#!/usr/bin/env bash
# Issue 25, target (a) with c_puct_log 0.45 (base 500; the hint's setting): the 4-player screen
# (results/puct/run-screen4p.sh) won 35 of 60 with `c_puct_log=0.45` against today's default's 24 on the same deals. Confirmed here on the confirming matches' deals of
# today's default (results/puct/README.md, "Target (a) again"), against copies of the UCB default at 30 ms, in
# this order: 4-player Imperium (deals 55000-55049, 200 games), 3-player Italia (54000-54066, 201 games),
# 2-player Italia (56000-56099, 200 games). Planned (session of 2026-12-04, 4th): about 35 + 25 + 15 CPU minutes,
# 40-60 minutes of wall time on 2 cores shared with other runs; each log resumes.
set -euo pipefail
cd "$(dirname "$0")/../.."
PY="nice -n 10 ${PY:-.venv/bin/python}"
o="ismcts:seconds=0.03,c_puct_log=0.45"; ucb="ismcts:seconds=0.03,select=ucb,policy=0"
$PY scripts/strength.py --candidate "$o" --opponent "$ucb" --board imperium --players 4 --seeds 50 --seed-start 55000 \
    --json --jobs 2 --log results/puct/confirm-clog-imperium4.jsonl > results/puct/confirm-clog-imperium4.json \
    2> results/puct/confirm-clog-imperium4.log
$PY scripts/strength.py --candidate "$o" --opponent "$ucb" --board italia --players 3 --seeds 67 --seed-start 54000 \
    --json --jobs 2 --log results/puct/confirm-clog-italia3.jsonl > results/puct/confirm-clog-italia3.json \
    2> results/puct/confirm-clog-italia3.log
$PY scripts/strength.py --candidate "$o" --opponent "$ucb" --board italia --players 2 --seeds 100 --seed-start 56000 \
    --json --jobs 2 --log results/puct/confirm-clog-italia2.jsonl > results/puct/confirm-clog-italia2.json \
    2> results/puct/confirm-clog-italia2.log
