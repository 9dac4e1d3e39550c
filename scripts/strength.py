#!/usr/bin/env python3
"""Strength match: a candidate bot against opponent bots in N-player games with seat rotation.

For every seed the candidate plays once in every seat (a block of N games on the same seed, like a game pair in
two-player testing); the other seats are filled by the opponent bot. Bot seeds are derived from (board, seed,
seat), so two candidates measured with the same --seeds meet the same opponents on the same deals.

    python3 scripts/strength.py --candidate ismcts:iterations=2000 --opponent heuristic \
        --board imperium --seeds 15 --jobs 2 --log results/strength/ismcts2000_vs_heuristic.jsonl

Prints the candidate's win rate with a 95 % Wilson interval, mean rank, mean VP and mean VP margin over the
best opponent, and seconds per candidate move. Each game is one JSON line in --log; games already in the log
(same candidate, opponent, board, seed, seat) are not replayed, so an interrupted match resumes.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from concordia_ai.io.atomic_write import open_append  # noqa: E402
from concordia_ai.ai.bots import make_bot, parse_spec  # noqa: E402
from concordia_ai.engine.game import Game  # noqa: E402

BOARDS = ("imperium", "italia")


def wilson(k: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


def bot_seed(board: str, seed: int, cand_seat: int, seat: int) -> int:
    """A seed per bot that depends only on the deal and the seat (not on which bot sits there)."""
    return zlib.crc32(f"{board}/{seed}/{cand_seat}/{seat}".encode()) * 7919 + seed


def play_one(candidate: str, opponent: str, board: str, players: int, seed: int, cand_seat: int) -> dict:
    bots = [make_bot(candidate if i == cand_seat else opponent, seed=bot_seed(board, seed, cand_seat, i))
            for i in range(players)]
    game = Game.new(board, players, seed)
    cand_time = 0.0
    cand_calls = cand_choices = 0
    moves = []
    t_start = time.process_time()
    while not game.is_over:
        d = game.decider
        if d == cand_seat:
            n_legal = len(game.legal_moves())
            t0 = time.process_time()
            move = bots[d].choose(game)
            cand_time += time.process_time() - t0
            cand_calls += 1
            cand_choices += n_legal > 1
        else:
            move = bots[d].choose(game)
        game.state.apply(move)
        moves.append(move)
    scores = game.scores()
    totals = [s["total"] for s in scores]
    ranking = game.ranking()
    rank = ranking.index(cand_seat) + 1
    best_other = max(v for i, v in enumerate(totals) if i != cand_seat)
    return dict(candidate=candidate, opponent=opponent, board=board, players=players, seed=seed,
                cand_seat=cand_seat, win=int(rank == 1), rank=rank, vp=totals[cand_seat],
                margin=totals[cand_seat] - best_other, totals=totals, ranking=ranking,
                turns=game.to_json()["turn"]["number"], steps=len(moves), cand_seconds=cand_time,
                cand_moves=cand_calls, cand_choices=cand_choices, game_seconds=time.process_time() - t_start,
                moves=moves)


def key(r: dict) -> tuple:
    return (r["candidate"], r["opponent"], r["board"], r["players"], r["seed"], r["cand_seat"])


def summarize(rows: list[dict]) -> dict:
    n = len(rows)
    wins = sum(r["win"] for r in rows)
    lo, hi = wilson(wins, n)
    margins = [r["margin"] for r in rows]
    ranks = [r["rank"] for r in rows]
    secs = sum(r["cand_seconds"] for r in rows)
    choices = sum(r["cand_choices"] for r in rows)
    by_seat = {}
    for r in rows:
        s = by_seat.setdefault(r["cand_seat"], [0, 0])
        s[0] += r["win"]
        s[1] += 1
    return dict(games=n, wins=wins, win_rate=wins / n if n else 0.0, ci95=[lo, hi],
                mean_rank=statistics.mean(ranks) if n else 0.0,
                mean_vp=statistics.mean(r["vp"] for r in rows) if n else 0.0,
                mean_margin=statistics.mean(margins) if n else 0.0,
                margin_se=(statistics.stdev(margins) / math.sqrt(n)) if n > 1 else 0.0,
                mean_opponent_vp=statistics.mean(
                    statistics.mean(v for i, v in enumerate(r["totals"]) if i != r["cand_seat"]) for r in rows)
                if n else 0.0,
                seconds_per_move=secs / max(1, choices), seconds_per_game=secs / max(1, n),
                cand_choices_per_game=choices / max(1, n),
                mean_turns=statistics.mean(r["turns"] for r in rows) if n else 0.0,
                wins_by_seat={k: f"{v[0]}/{v[1]}" for k, v in sorted(by_seat.items())})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--candidate", required=True, help="bot spec, e.g. ismcts:iterations=2000")
    ap.add_argument("--opponent", default="heuristic", help="bot spec for every other seat")
    ap.add_argument("--board", default="imperium", help="imperium, italia or both (both: every seed on each)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seeds", type=int, default=10, help="number of deals; games = seeds x players x boards")
    ap.add_argument("--seed-start", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (joblib)")
    ap.add_argument("--log", default=None, help="JSONL file, one game per line (appended; resumable)")
    ap.add_argument("--json", action="store_true", help="print the summary as one JSON object on the last line")
    args = ap.parse_args()

    parse_spec(args.candidate)
    parse_spec(args.opponent)
    boards = BOARDS if args.board == "both" else (args.board,)
    for b in boards:
        if b not in BOARDS + ("creta", "aegyptus"):
            ap.error(f"unknown board {b}")
    tasks = [(args.candidate, args.opponent, b, args.players, s, seat)
             for b in boards for s in range(args.seed_start, args.seed_start + args.seeds)
             for seat in range(args.players)]

    done: dict[tuple, dict] = {}
    if args.log and os.path.exists(args.log):
        with open(args.log) as f:
            for line in f:
                if line.strip():
                    r = json.loads(line)
                    done[key(r)] = r
    todo = [t for t in tasks if t not in done]
    print(f"{args.candidate} vs 3x {args.opponent}" if args.players == 4 else
          f"{args.candidate} vs {args.players - 1}x {args.opponent}",
          f"| boards {','.join(boards)} | {len(tasks)} games ({len(tasks) - len(todo)} from the log) "
          f"| jobs {args.jobs}", flush=True)

    t0 = time.time()
    new_rows = []
    if todo:
        from joblib import Parallel, delayed
        log = open_append(args.log) if args.log else None
        try:
            gen = Parallel(n_jobs=args.jobs, return_as="generator")(delayed(play_one)(*t) for t in todo)
            for i, r in enumerate(gen, 1):
                new_rows.append(r)
                if log:
                    log.write(json.dumps(r) + "\n")
                    log.flush()
                if i % max(1, len(todo) // 10) == 0 or i == len(todo):
                    print(f"  {i}/{len(todo)} games, {time.time() - t0:.0f} s", flush=True)
        finally:
            if log:
                log.close()
    for r in new_rows:
        done[key(r)] = r
    rows = [done[t] for t in tasks]
    out = dict(candidate=args.candidate, opponent=args.opponent, boards=list(boards), players=args.players,
               seeds=[args.seed_start, args.seed_start + args.seeds - 1], wall_seconds=time.time() - t0,
               command=" ".join(["python3"] + sys.argv))
    out["all"] = summarize(rows)
    if len(boards) > 1:
        out["by_board"] = {b: summarize([r for r in rows if r["board"] == b]) for b in boards}
    fair = 1 / args.players
    for label, s in [("all", out["all"])] + list(out.get("by_board", {}).items()):
        print(f"[{label}] games {s['games']}: win {s['wins']}/{s['games']} = {s['win_rate']:.1%} "
              f"(95% CI {s['ci95'][0]:.1%}-{s['ci95'][1]:.1%}; fair share {fair:.0%}), mean rank "
              f"{s['mean_rank']:.2f}, mean VP {s['mean_vp']:.1f} (opponents {s['mean_opponent_vp']:.1f}), "
              f"mean margin {s['mean_margin']:+.1f} ± {s['margin_se']:.1f}, {s['seconds_per_move'] * 1000:.2f} ms/move, "
              f"{s['seconds_per_game']:.1f} s/game (candidate), wins by seat {s['wins_by_seat']}")
    print(f"wall {out['wall_seconds']:.0f} s")
    if args.json:
        print(json.dumps(out))


if __name__ == "__main__":
    main()
