#!/usr/bin/env bash
# Issue 25 (session of 2026-12-05, 11th): generation 4's value model as `scripts/loop.py --value-window 3` trains
# it: on further from generation 3's model (lr 3e-4, 8 epochs, the searches' estimates at half weight), on the
# self-play of generations 2, 3 and 4 (1,600 + 800 + 1,600 games) where the loop's generation 4 trained on its own
# 1,600. The held-out figures are on generation 4's held-out games only (--evaluate-on 2), the same games as the
# loop's report (../loop/gen-4/value-training.json), so the two compare. Planned: about 4-6 CPU minutes.
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${PY:-.venv/bin/python}
W=${WORK:-data/value-window}
mkdir -p "$W"
$PY - "$W" <<'PYEOF'
import sys
from pathlib import Path
from concordia_ai.lab import loop, policy_data
work = Path(sys.argv[1])
for m in (2, 3, 4):
    chunks = sorted(Path(f"results/loop/gen-{m}/data").glob("chunk-[0-9][0-9][0-9].npz"))
    loop.merge_value_files([policy_data.value_path(str(c)) for c in chunks], work / f"value-gen-{m}.npz")
PYEOF
nice -n 10 $PY scripts/train_value.py train --data "$W/value-gen-2.npz" "$W/value-gen-3.npz" "$W/value-gen-4.npz" \
    --seed 1 --epochs 8 --search-target 0.5 --init results/loop/gen-3/value-weights --lr 3e-4 --evaluate-on 2 \
    --keep-others --out results/value-window/weights --report results/value-window/training.json \
    2> results/value-window/training.log
