#!/usr/bin/env python3
"""A Markdown table of strength matches from the summaries scripts/strength.py --json printed.

    python3 scripts/match_table.py results/leaf-eval/*.json

One row per summary file: the candidate and its opponent, the games, the candidate's wins with the 95 %
Wilson interval and the fair share, its mean VP margin over the best opponent with its standard error, and
its CPU seconds per move. A file that is not such a summary is named and refused (exit code 2).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def row(path: str) -> str:
    text = Path(path).read_text(encoding="utf-8").strip().splitlines()
    if not text:
        raise ValueError("empty")
    s = json.loads(text[-1])            # the summary is the last line (strength.py --json)
    a = s["all"]
    lo, hi = a["ci95"]
    fair = 1.0 / s["players"]
    return (f"| {Path(path).stem} | `{s['candidate']}` | `{s['opponent']}` | {a['games']} | "
            f"{a['wins']} ({100 * a['win_rate']:.1f} %, {100 * lo:.1f}-{100 * hi:.1f}) | {100 * fair:.0f} % | "
            f"{a['mean_margin']:+.1f} ± {a['margin_se']:.1f} | {1000 * a['seconds_per_move']:.1f} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("summaries", nargs="+", help="files holding strength.py --json output")
    args = ap.parse_args()
    lines = ["| match | candidate | opponent (every other seat) | games | candidate's wins (95 % CI) | fair share | "
             "mean margin (VP) | candidate ms / move |", "|" + "---|" * 8]
    for p in args.summaries:
        try:
            lines.append(row(p))
        except (OSError, ValueError, KeyError, TypeError) as e:
            ap.exit(2, f"error: {p} is not a strength.py --json summary ({e}); give the files its --json output went to\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
