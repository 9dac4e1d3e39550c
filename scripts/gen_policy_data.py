#!/usr/bin/env python3
"""Self-play data for the policy prior (expert iteration): the search plays every seat, and each recorded
decision keeps the policy features of every legal move, the root's visits and means, and the targets made
from them (concordia_ai.lab.policy_data, lab/policy_targets.py). Resumable from OUT.games.jsonl; prints the
info as JSON, with the targets' entropy against uniform for each kind (`targets`: visits, pruned, improved).

    nice python3 scripts/gen_policy_data.py --board italia --players 3 --games 120 --seed 1 \\
        --search iterations=400 --out data/policy/g1.npz
    nice python3 scripts/gen_policy_data.py --board italia,imperium --players 2,3,4,5 --games 400 --seed 2 \\
        --search iterations=1600 --cap-share 0.25 --cap-fast 200 --value --out data/policy/g2.npz

--search takes SearchConfig knobs as KEY=VALUE,... (the search of this generation: a later generation adds
policy=W to play with the prior it was trained on). --board and --players take lists: game i is played on
board i % B with the (i // B) % C-th player count. --cap-share S --cap-fast F: playout cap randomization
(KataGo): a share S of the searched decisions at the full budget (recorded), the rest at F iterations (played
only). --value: also the value model's positions of the same games (OUT with .value.npz). Runner options as
in `concordia tournament` (--jobs, --backend dask --scheduler ..., docs/cluster.md).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from concordia_ai.ai.bots import BotSpecError, parse_spec  # noqa: E402
from concordia_ai.engine.errors import ConcordiaError  # noqa: E402
from concordia_ai.lab import jobs, policy_data  # noqa: E402


def parse_knobs(text: str, ap) -> dict:
    """--search as SearchConfig knobs, read as the `ismcts` bot spec reads its options (typed and checked)."""
    try:
        return parse_spec("ismcts:" + text)[1]
    except BotSpecError as e:
        ap.exit(2, f"error: --search: {e}\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--board", default="italia", help="a board or a list: italia,imperium")
    ap.add_argument("--players", default="3", help="a player count or a list: 2,3,4,5")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--first-id", type=int, default=0, help="the first game id (chunks of one seed)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--search", default="iterations=400", help="SearchConfig knobs, KEY=VALUE,...")
    ap.add_argument("--cap-share", type=float, default=None,
                    help="playout cap randomization: the share of decisions searched at the full budget")
    ap.add_argument("--cap-fast", type=int, default=200, help="with --cap-share: the fast searches' iterations")
    ap.add_argument("--value", action="store_true", help="also the value model's positions (OUT .value.npz)")
    ap.add_argument("--out", required=True)
    jobs.add_runner_options(ap)
    args = ap.parse_args()
    try:
        counts = [int(n) for n in args.players.split(",")]
    except ValueError:
        ap.exit(2, f"error: --players: {args.players!r} is not a player count or a list like 2,3,4,5\n")
    cap = policy_data.PlayoutCap(args.cap_share, args.cap_fast) if args.cap_share is not None else None
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    try:
        info = policy_data.generate(parse_knobs(args.search, ap), args.board.split(","), counts, args.games,
                                    args.seed, args.out, cap=cap, first_id=args.first_id, value=args.value,
                                    command="python3 scripts/gen_policy_data.py " + " ".join(sys.argv[1:]),
                                    progress="games", **jobs.runner_options(args, ap))
    except ConcordiaError as e:
        ap.exit(2, f"error: {e}\n")
    print(json.dumps(info))


if __name__ == "__main__":
    main()
