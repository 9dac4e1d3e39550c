#!/usr/bin/env python3
"""The ECE a perfectly calibrated figure would show on the same positions: outcomes redrawn as
Bernoulli(shown win %) many times, the 10-bin ECE of each draw. Tells whether a measured ECE is noise.

    python3 scripts/ece_noise.py results/calibration-hint/positions.jsonl --draws 500
"""
import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from concordia_ai.ai.value import reliability  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("rows")
ap.add_argument("--draws", type=int, default=500)
ap.add_argument("--seed", type=int, default=1)
args = ap.parse_args()
p = np.array([json.loads(line)["win"] for line in open(args.rows)])
rng = np.random.default_rng(args.seed)
e = np.array([reliability(p, (rng.random(len(p)) < p).astype(float))[0] for _ in range(args.draws)])
print(json.dumps(dict(positions=len(p), draws=args.draws, mean_ece_if_calibrated=round(float(e.mean()), 4),
                      p5=round(float(np.percentile(e, 5)), 4), p95=round(float(np.percentile(e, 95)), 4))))
