#!/usr/bin/env python3
"""Strength match: a candidate bot against opponent bots in N-player games with seat rotation.

For every seed the candidate plays once in every seat (a block of N games on the same seed, like a game pair in
two-player testing); the other seats are filled by the opponent bot. Bot seeds are derived from (board, seed,
seat), so two candidates measured with the same --seeds meet the same opponents on the same deals.

    python3 scripts/strength.py --candidate ismcts:iterations=2000 --opponent heuristic \
        --board imperium --seeds 15 --jobs 2 --log results/strength/ismcts2000_vs_heuristic.jsonl

Prints the candidate's win rate with a 95 % Wilson interval, mean rank, mean VP and mean VP margin over the
best opponent, and seconds per candidate move (CPU time). Games run on the runner (concordia_ai.lab.jobs:
--jobs, or --backend dask --scheduler ADDRESS with the TLS files, docs/cluster.md). Each game is one JSON line
in --log, appended as it ends; games already in the log (same candidate, opponent, board, players, seed, seat)
are not replayed, so an interrupted match resumes. Each game also records what its two specs meant
(bots.spec_meaning: every search option with "auto" resolved, and the learned weights' sha256); a log whose
games were played by a spec that means another bot today (a default or the weights moved since) is refused
with one line, rather than resumed with another bot.
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

from concordia_ai.ai.bots import make_bot, meaning_changes, parse_spec, play_game, spec_meaning  # noqa: E402
from concordia_ai.io.jsonl import read_records  # noqa: E402
from concordia_ai.engine.errors import ConcordiaError  # noqa: E402
from concordia_ai.lab import jobs  # noqa: E402
from concordia_ai.lab.ratings import wilson  # noqa: E402

BOARDS = ("imperium", "italia")
FIELDS = ("candidate", "opponent", "board", "players", "seed", "cand_seat")   # a game's key, in its task and record


def bot_seed(board: str, seed: int, cand_seat: int, seat: int) -> int:
    """A seed per bot that depends only on the deal and the seat (not on which bot sits there)."""
    return zlib.crc32(f"{board}/{seed}/{cand_seat}/{seat}".encode()) * 7919 + seed


class _CandidateChoices:
    """Counts the candidate's decisions and its real choices (more than one legal move: seconds per move)."""

    def __init__(self, seat: int):
        self.seat, self.calls, self.choices = seat, 0, 0

    def before(self, state) -> None:
        if state.decider == self.seat:
            self.calls += 1
            self.choices += len(state.legal_actions()) > 1


def play_one(task: dict) -> dict:
    """One game of the match (task: candidate, opponent, board, players, seed, cand_seat). Runs in a worker."""
    candidate, opponent, board, players, seed, cand_seat = (task[k] for k in FIELDS)
    bots = [make_bot(candidate if i == cand_seat else opponent, seed=bot_seed(board, seed, cand_seat, i))
            for i in range(players)]
    watch = _CandidateChoices(cand_seat)
    t_start = time.process_time()
    played = play_game(bots, board, seed, watch=watch, clock=time.process_time)
    game, moves = played.game, played.moves
    scores = game.scores()
    totals = [s["total"] for s in scores]
    ranking = game.ranking()
    rank = ranking.index(cand_seat) + 1
    best_other = max(v for i, v in enumerate(totals) if i != cand_seat)
    return dict(candidate=candidate, opponent=opponent, board=board, players=players, seed=seed,
                cand_seat=cand_seat, win=int(rank == 1), rank=rank, vp=totals[cand_seat],
                margin=totals[cand_seat] - best_other, totals=totals, ranking=ranking,
                turns=game.to_json()["turn"]["number"], steps=len(moves), cand_seconds=played.think[cand_seat],
                cand_moves=watch.calls, cand_choices=watch.choices,
                game_seconds=time.process_time() - t_start, moves=moves,
                meaning=dict(candidate=spec_meaning(candidate, players), opponent=spec_meaning(opponent, players)))


def stale_meaning(log: str, tasks: list[dict]) -> str | None:
    """A sentence when a game of `log` that this match would take from it was played by a spec that means
    another bot today (its recorded spec_meaning differs from today's: a default or the weights moved); None
    when none did. Games recorded before the meaning was kept are not checked."""
    if not os.path.exists(log):
        return None
    wanted = {key(t) for t in tasks}
    today: dict[tuple, dict] = {}      # (spec, players) -> spec_meaning: one parse per spec, not per game
    for rec in read_records(log, repair=True, error=ConcordiaError):
        if not isinstance(rec, dict) or "meaning" not in rec or key(rec) not in wanted:
            continue
        for side in ("candidate", "opponent"):
            k = (rec[side], rec["players"])
            if k not in today:
                today[k] = spec_meaning(*k)
            changes = meaning_changes(rec["meaning"][side], today[k])
            if changes:
                return (f"--log {log}: its games were played by the {side} {rec[side]!r} when it meant another "
                        f"bot ({'; '.join(changes)}); give a new --log, or spell the changed options in the spec")
    return None


def key(r: dict) -> tuple:
    return tuple(r[k] for k in FIELDS)


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
    ap.add_argument("--log", default=None, help="JSONL file, one game per line (appended; resumable)")
    ap.add_argument("--json", action="store_true", help="print the summary as one JSON object on the last line")
    jobs.add_runner_options(ap)
    args = ap.parse_args()

    parse_spec(args.candidate)
    parse_spec(args.opponent)
    boards = BOARDS if args.board == "both" else (args.board,)
    for b in boards:
        if b not in BOARDS + ("creta", "aegyptus"):
            ap.error(f"unknown board {b}")
    tasks = [dict(zip(FIELDS, (args.candidate, args.opponent, b, args.players, s, seat)))
             for b in boards for s in range(args.seed_start, args.seed_start + args.seeds)
             for seat in range(args.players)]
    options = jobs.runner_options(args, ap)
    print(f"{args.candidate} vs 3x {args.opponent}" if args.players == 4 else
          f"{args.candidate} vs {args.players - 1}x {args.opponent}",
          f"| boards {','.join(boards)} | {len(tasks)} games | jobs {args.jobs} ({args.backend})", flush=True)

    t0 = time.time()
    try:
        stale = stale_meaning(args.log, tasks) if args.log else None
    except ConcordiaError as e:
        ap.exit(2, f"error: {e}\n")
    if stale:
        ap.exit(2, f"error: {stale}\n")
    try:
        rows, new = jobs.run_logged(play_one, tasks, key, args.log, progress="games", **options)
    except ConcordiaError as e:
        ap.exit(2, f"error: {e}\n")
    print(f"{new} games played now, {len(rows) - new} from the log", flush=True)
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
