#!/usr/bin/env python3
"""Cross-fitted calibration rows: each position's raw win value mapped by the Platt map fitted on the other
half of the games (even ids -> odd, odd -> even), so the reliability of the mapped figure is measured on
positions the map never saw.

    python3 scripts/crossfit_rows.py results/calibration/positions.jsonl > ROWS.jsonl
    python3 scripts/calibration.py --rows ROWS.jsonl --out results/calibration-mapped ...
"""
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from calibration import fit_platt  # noqa: E402

rows = [json.loads(line) for line in open(sys.argv[1])]
for half in (0, 1):
    fit = [r for r in rows if r["game"] % 2 != half]
    a, b = fit_platt(np.array([r["win_raw"] for r in fit]), np.array([r["won"] for r in fit], dtype=float))
    for r in rows:
        if r["game"] % 2 == half:
            q = min(max(r["win_raw"], 1e-6), 1 - 1e-6)
            r["win"] = float(1 / (1 + np.exp(-(a * np.log(q / (1 - q)) + b))))
for r in rows:
    print(json.dumps(r))
