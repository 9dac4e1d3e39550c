#!/usr/bin/env python3
"""The win % shown at the opening against each seat's win rate measured in self-play.

    python3 scripts/opening_check.py --data DATA/r1_ismcts300_*.npz --search ismcts:seconds=1,iterations=0,eval=net,root_floor=0.2 \
        --out results/opening-check.json

Self-play win rates per board, player count and seat come from the value model's data games (every game's
winner; 95 % Wilson intervals). For the opening of a simulated game on each board and player count (deal
--seed), the script shows the value model's probability for every seat, and the search's reported win % for
the seat that moves first (the top candidate's), with its standard error. A seat passes when the figure
shown lies within 5 points of its self-play win rate. The searches run on the runner (--jobs, or --backend dask
--scheduler ADDRESS with the TLS files; docs/cluster.md), each recorded in --log as it ends (a rerun resumes).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from concordia_ai.ai import value  # noqa: E402
from concordia_ai.ai.bots import parse_spec  # noqa: E402
from concordia_ai.engine.errors import ConcordiaError  # noqa: E402
from concordia_ai.io.atomic_write import write_atomic  # noqa: E402
from concordia_ai.lab import jobs  # noqa: E402
from concordia_ai.lab.ratings import wilson  # noqa: E402
from concordia_ai.engine.game import Game  # noqa: E402
from concordia_ai.ai.search import SearchConfig, search  # noqa: E402

BOARDS = ("imperium", "italia", "creta", "aegyptus")


def seat_rates(paths: list[str]) -> dict:
    wins: dict = {}
    for path in paths:
        z = np.load(path)
        first = z["pos_turn"] == 0
        for b, n, w in zip(z["pos_board"][first], z["pos_players"][first], z["pos_winner"][first]):
            row = wins.setdefault((BOARDS[int(b)], int(n)), [0] * int(n))
            row[int(w)] += 1
    return wins


def check(task: dict) -> dict:
    """One board and player count: the value model's and the search's figures at the opening (in a worker)."""
    board, n, w = task["board"], task["players"], task["wins"]
    _, options = parse_spec(task["search"])
    games = sum(w)
    game = Game.new(board, n, task["seed"])
    p_net, _ = value.predict(game.state)
    res = search(game, SearchConfig(**options, seed=task["seed"]))
    seats = []
    for s in range(n):
        rate = w[s] / games
        lo, hi = wilson(w[s], games)
        shown = p_net[s]
        seats.append(dict(seat=s, selfplay=round(rate, 4), ci95=[round(lo, 4), round(hi, 4)],
                          value_model=round(shown, 4), within_5_points=bool(abs(shown - rate) <= 0.05)))
    top = res.best
    seats[0].update(search=round(top.win, 4), search_se=round(top.win_se, 4),
                    search_within_5_points=bool(abs(top.win - seats[0]["selfplay"]) <= 0.05))
    return dict(task, games=games, seats=seats, search_move=top.text)


def task_key(rec: dict) -> tuple:
    return rec["board"], rec["players"], tuple(rec["wins"]), rec["search"], rec["seed"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", nargs="+", required=True)
    ap.add_argument("--search", default="ismcts:seconds=1,iterations=0,eval=net,root_floor=0.2")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--out", default=None)
    ap.add_argument("--log", default=None, metavar="JSONL",
                    help="one record per board and player count, appended as it is done; a rerun resumes "
                         "(default: OUT.rows.jsonl)")
    jobs.add_runner_options(ap)
    args = ap.parse_args()
    parse_spec(args.search)
    tasks = [dict(board=board, players=n, wins=w, search=args.search, seed=args.seed)
             for (board, n), w in sorted(seat_rates(args.data).items())]
    log = args.log or (args.out + ".rows.jsonl" if args.out else None)
    try:
        rows, _ = jobs.run_logged(check, tasks, task_key, log, **jobs.runner_options(args, ap))
    except ConcordiaError as e:
        ap.exit(2, f"error: {e}\n")
    for r in rows:
        print(f"{r['board']:9s} {r['players']}p ({r['games']} games): " + "  ".join(
            f"seat {x['seat'] + 1} {100 * x['selfplay']:.1f}% shown {100 * x['value_model']:.1f}%" +
            (f" (search {100 * x['search']:.1f}%)" if "search" in x else "") for x in r["seats"]), file=sys.stderr)
    passed = sum(x["within_5_points"] for r in rows for x in r["seats"])
    total = sum(len(r["seats"]) for r in rows)
    search_ok = sum(r["seats"][0]["search_within_5_points"] for r in rows)
    out = dict(command="python3 scripts/opening_check.py " + " ".join(sys.argv[1:]), search=args.search,
               value_model_within_5_points=f"{passed}/{total} seats", search_within_5_points=f"{search_ok}/{len(rows)}",
               rows=rows)
    if args.out:
        write_atomic(args.out, json.dumps(out, indent=2) + "\n")
    print(json.dumps({k: v for k, v in out.items() if k != "rows"}))


if __name__ == "__main__":
    main()
