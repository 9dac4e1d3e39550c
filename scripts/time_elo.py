#!/usr/bin/env python3
"""What a time match says in rating per doubling of time: one bot with `--ratio` times the time against
`--players - 1` copies at the base time won `--won` of `--games`. Under the Plackett-Luce model the ladders use
(concordia_ai/lab/ratings.py), a bot rated r above equal opponents wins e^r / (e^r + players - 1) of the games,
so the win share gives r (Elo scale) and r / log2(ratio) is the gain per doubling, with the Wilson interval of
the share carried through. Prints JSON.

    python3 scripts/time_elo.py --won 39 --games 100 --players 4 --ratio 4

It also prints what the issue's two targets mean in the other's terms (--target-share, --target-elo): the win
share at `ratio` that a gain of --target-elo per doubling gives, and the gain per doubling that --target-share
needs. Only a conversion: the ladder's own figure comes from games in which every seat has another budget.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from concordia_ai.lab.ratings import elo_to_win_share, wilson, win_share_to_elo  # noqa: E402


def convert(won: int, games: int, players: int, ratio: float) -> dict:
    lo, hi = wilson(won, games)
    doublings = math.log2(ratio)
    elo = [win_share_to_elo(x, players) for x in (won / games, lo, hi)]
    return dict(won=won, games=games, players=players, ratio=ratio, share=round(won / games, 4),
                share_ci95=[round(lo, 4), round(hi, 4)], elo=round(elo[0], 1), elo_ci95=[round(elo[1], 1), round(elo[2], 1)],
                elo_per_doubling=round(elo[0] / doublings, 1),
                elo_per_doubling_ci95=[round(elo[1] / doublings, 1), round(elo[2] / doublings, 1)])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--won", type=int, required=True)
    ap.add_argument("--games", type=int, required=True)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--ratio", type=float, default=4.0, help="the candidate's time over the others' (default 4)")
    ap.add_argument("--target-share", type=float, default=0.5)
    ap.add_argument("--target-elo", type=float, default=60.0, help="a target gain per doubling (default 60)")
    args = ap.parse_args(argv)
    if not 0 < args.won < args.games:
        ap.exit(2, f"error: --won must be between 1 and --games - 1 (got {args.won} of {args.games})\n")
    if not 2 <= args.players <= 5 or args.ratio <= 1 or not 0 < args.target_share < 1:
        ap.exit(2, "error: --players must be 2-5, --ratio above 1, --target-share between 0 and 1\n")
    out = convert(args.won, args.games, args.players, args.ratio)
    doublings = math.log2(args.ratio)
    out["targets"] = dict(
        share_needs_elo_per_doubling=round(win_share_to_elo(args.target_share, args.players) / doublings, 1),
        elo_per_doubling_gives_share=round(elo_to_win_share(args.target_elo * doublings, args.players), 4))
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
