#!/usr/bin/env python3
"""How often the search finds the best move of the constructed positions (tests/positions_search.py and
tests/test_policy.py) in 20 seeds, by the weight of the policy prior. A quick look, not a match.

    nice python3 scripts/policy_probe.py --weights 0,0.1,0.3,1,3 --iterations 50,200
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from concordia_ai.ai.search import SearchConfig, search  # noqa: E402
from positions_search import fifteenth_house_game, last_card_game, prefect_game, useless_card_game  # noqa: E402
from test_policy import cheap_scoring_card_game  # noqa: E402

CASES = [(fifteenth_house_game, "build Carthago"), (last_card_game, "play Senator"),
         (prefect_game, "produce Aegyptus"), (useless_card_game, "done"), (cheap_scoring_card_game, "buy Mason/I")]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--weights", default="0,0.1,0.3,1,3")
    ap.add_argument("--iterations", default="50,200")
    ap.add_argument("--seeds", type=int, default=20)
    args = ap.parse_args()
    weights = [float(w) for w in args.weights.split(",")]
    for its in (int(i) for i in args.iterations.split(",")):
        for make, best in CASES:
            g = make()
            hits = [sum(search(g, SearchConfig(iterations=its, seed=s, policy=w)).best.text == best
                        for s in range(args.seeds)) for w in weights]
            print(f"{its} iterations, {make.__name__} ({best}): hits of {args.seeds} by weight "
                  + ", ".join(f"{w:g}: {h}" for w, h in zip(weights, hits)))


if __name__ == "__main__":
    main()
