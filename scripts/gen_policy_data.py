#!/usr/bin/env python3
"""Self-play data for the policy prior (expert iteration): the search plays every seat, and each searched
decision is recorded with the policy features of every legal move and the root's visit distribution
(concordia_ai.lab.policy_data). Resumable from OUT.games.jsonl; prints the info as JSON.

    nice python3 scripts/gen_policy_data.py --board italia --players 3 --games 120 --seed 1 \\
        --search iterations=400 --out data/policy/g1.npz

--search takes SearchConfig knobs as KEY=VALUE,... (the search of this generation: a later generation adds
policy=W to play with the prior it was trained on). Runner options as in `concordia tournament` (--jobs,
--backend dask --scheduler ..., docs/cluster.md).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from concordia_ai.engine.errors import ConcordiaError  # noqa: E402
from concordia_ai.lab import jobs, policy_data  # noqa: E402


def parse_knobs(text: str, ap) -> dict:
    out = {}
    for item in filter(None, text.split(",")):
        key, sep, raw = item.partition("=")
        if not sep:
            ap.exit(2, f"error: --search: {item!r} is not KEY=VALUE\n")
        for cast in (int, float):
            try:
                out[key] = cast(raw)
                break
            except ValueError:
                continue
        else:
            out[key] = {"true": True, "false": False}.get(raw, raw)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--board", default="italia")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--search", default="iterations=400", help="SearchConfig knobs, KEY=VALUE,...")
    ap.add_argument("--out", required=True)
    jobs.add_runner_options(ap)
    args = ap.parse_args()
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    try:
        info = policy_data.generate(parse_knobs(args.search, ap), args.board, args.players, args.games, args.seed,
                                    args.out, command="python3 scripts/gen_policy_data.py " + " ".join(sys.argv[1:]),
                                    progress="games", **jobs.runner_options(args, ap))
    except ConcordiaError as e:
        ap.exit(2, f"error: {e}\n")
    print(json.dumps(info))


if __name__ == "__main__":
    main()
