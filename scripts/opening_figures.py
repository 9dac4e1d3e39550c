#!/usr/bin/env python3
"""The hint's figures at the opening against measured results, on all 16 boards and player counts.

    python3 scripts/opening_figures.py --seeds 2 --seconds 3 --jobs 2 --out results/outcome/opening.json

For each board and player count, the opening of --seeds deals is searched as a hint searches it (focus
0.25, eval auto, one thread of --seconds CPU seconds). The first seat's top turn's win % is compared with the
first seat's win rate measured in self-play (results/opening-check.json: the value model's data games of
`ismcts:iterations=300,eval=hand`, with their 95 % intervals), and its expected VP with the mean final score
of the first seat in the games of results/outcome/ on that board and player count (mixed bots; few games per
setting, so their interval is wide and is given). The target: the win % within 5 points, the VP within 10.

`--selfplay LOG` (repeatable) takes a setting's references from a self-play match of scripts/strength.py
instead (the same bot as candidate and opponent, seats swapped on each deal): the first seat's win rate, with
its Wilson interval, and its mean final score, from the bot the log names; a row says where its references
came from (`reference`). The rates of opening-check.json are those of an older bot (the UCB search at 300
iterations with the hand formula), and the mean final scores of results/outcome/ those of mixed opponents.
"""
from __future__ import annotations

import argparse
import glob
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from concordia_ai.ai.search import TABLE_SEARCH, SearchConfig, search  # noqa: E402
from concordia_ai.engine.game import Game  # noqa: E402
from concordia_ai.io import safe_read  # noqa: E402
from concordia_ai.io.atomic_write import write_atomic  # noqa: E402
from concordia_ai.io.jsonl import read_records  # noqa: E402
from concordia_ai.lab import jobs  # noqa: E402
from concordia_ai.lab.ratings import wilson  # noqa: E402

BOARDS = ("imperium", "italia", "creta", "aegyptus")


def one(task: dict) -> dict:
    game = Game.new(task["board"], task["players"], task["seed"])
    r = search(game, SearchConfig(**{**TABLE_SEARCH, "seconds": task["seconds"], "iterations": 0, "seed": task["seed"]}))
    top = r.turns[0]
    return dict(task, win=top.win, win_se=top.win_se, vp=top.vp, seats=top.seats, turn=top.texts)


def selfplay_references(log: str) -> dict:
    """(board, players) -> (the first seat's rate as opening-check.json gives one, its final scores, a
    description) from a strength.py log whose candidate and opponent are one bot. ValueError when they are not,
    or when a game record lacks what a strength.py record holds."""
    games: dict = {}      # (board, players) -> [(the first seat won, its final score)]
    bot = None
    for rec in read_records(log, repair=False, error=ValueError):
        if not isinstance(rec, dict) or "ranking" not in rec:
            continue
        try:
            if rec["candidate"] != rec["opponent"]:
                raise ValueError(f"{log} is not self-play: {rec['candidate']} against {rec['opponent']}")
            bot = rec["candidate"]
            games.setdefault((rec["board"], rec["players"]), []).append((rec["ranking"][0] == 0, rec["totals"][0]))
        except (KeyError, IndexError, TypeError):
            raise ValueError(f"{log} is not a scripts/strength.py log (a game without candidate, opponent, "
                             f"board, players, ranking or totals)") from None
    if not games:
        raise ValueError(f"{log} holds no finished games")
    out = {}
    for key, played in games.items():
        wins = sum(won for won, _ in played)      # the first seat finished first
        lo, hi = wilson(wins, len(played))
        rate = dict(seat=0, selfplay=round(wins / len(played), 4), ci95=[round(lo, 4), round(hi, 4)])
        out[key] = (rate, [score for _, score in played], f"self-play of {bot}, {len(played)} games ({log})")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", type=int, default=2)
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--rates", default=str(ROOT / "results" / "opening-check.json"))
    ap.add_argument("--games", default=str(ROOT / "results" / "outcome" / "positions-*p.jsonl"))
    ap.add_argument("--selfplay", action="append", default=[], metavar="LOG",
                    help="a scripts/strength.py log of one bot against itself: its setting's references (repeat)")
    ap.add_argument("--out", default=None)
    jobs.add_runner_options(ap)
    args = ap.parse_args()
    rates = {(r["board"], r["players"]): r for r in safe_read.read_json(args.rates)["rows"]}
    finals: dict = {}
    for path in sorted(glob.glob(args.games)):
        for rec in read_records(path, repair=False, error=ValueError):
            if rec.get("final"):
                finals.setdefault((rec["board"], rec["players"]), []).append(rec["final"][0])
    reference = {key: "opening-check.json; mean final: results/outcome/ games" for key in rates}
    for log in args.selfplay:
        try:
            found = selfplay_references(log)
        except (ValueError, OSError) as e:
            ap.exit(2, f"error: --selfplay: {e}\n")
        for key, (rate, finals_0, source) in found.items():
            rates[key] = dict(seats=[rate])
            finals[key] = finals_0
            reference[key] = source
    tasks = [dict(board=b, players=n, seed=50 + s, seconds=args.seconds)
             for n in (2, 3, 4, 5) for b in BOARDS for s in range(args.seeds)]
    recs, _ = jobs.run_logged(one, tasks, key=lambda t: (t["board"], t["players"], t["seed"]), log=None,
                              progress="openings", **jobs.runner_options(args, ap))
    rows = []
    for n in (2, 3, 4, 5):
        for b in BOARDS:
            mine = [r for r in recs if r["board"] == b and r["players"] == n]
            win = statistics.mean(r["win"] for r in mine)
            vp = statistics.mean(r["vp"] for r in mine)
            seat0 = rates[(b, n)]["seats"][0]
            f = finals.get((b, n), [])
            mean_final = statistics.mean(f) if f else None
            half = 1.96 * statistics.stdev(f) / len(f) ** 0.5 if len(f) > 1 else None
            rows.append(dict(board=b, players=n, shown_win=round(win, 4), selfplay=seat0["selfplay"],
                             selfplay_ci95=seat0["ci95"], win_gap=round(win - seat0["selfplay"], 4),
                             win_within_5=abs(win - seat0["selfplay"]) <= 0.05, shown_vp=round(vp, 1),
                             mean_final=None if mean_final is None else round(mean_final, 1),
                             mean_final_ci95_half=None if half is None else round(half, 1), final_games=len(f),
                             vp_within_10=None if mean_final is None else abs(vp - mean_final) <= 10,
                             reference=reference.get((b, n)), turns=[r["turn"] for r in mine]))
    out = dict(command="python3 " + " ".join(sys.argv), seeds=args.seeds, seconds=args.seconds,
               win_within_5=sum(r["win_within_5"] for r in rows), vp_within_10=sum(bool(r["vp_within_10"]) for r in rows),
               settings=len(rows), rows=rows)
    text = json.dumps(out, indent=1)
    if args.out:
        write_atomic(args.out, text + "\n")
    print(text)


if __name__ == "__main__":
    main()
