#!/usr/bin/env python3
"""Does more thinking change the bot's move? Where time could pay, and where it cannot.

    python3 scripts/decision_change.py --log results/time-budget/time4x.jsonl --positions 60 \
        --budgets 0.03,0.12,0.5 --seeds 2 --out results/time-budget/decision-change.json

A search bot at a longer budget can only play better where it plays differently. For decision points sampled
from the games of a strength.py log (one per game, seeded, away from the first and last ten moves, with three
legal moves or more), the bot's search (SearchConfig's defaults, or --search KNOBS over them) runs at every
budget with every seed, time-only budgets of one thread. Prints JSON:

- `seeds_agree[b]`: the share of positions where every seed at budget b plays the same move (how much of the
  choice at that budget is noise);
- `same_as_longest[b]`: the share of (position, seed) choices at budget b equal to the longest budget's
  choice of the same seed (how much of the choice at b a longer search would keep);
- `prior_top[b]`: the share of choices that are the learned prior's favourite (how far the search moves
  from its prior);
- `top_share[b]`: the mean share of the root visits on the move played;
- `rows`: every position's game, move number, legal moves, and choices by budget.

It measures only how the decision moves, not whether the move got better: that is what the matches in
results/time-budget/ measure.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from concordia_ai.ai import policy  # noqa: E402
from concordia_ai.ai.bots import BotSpecError, parse_spec  # noqa: E402
from concordia_ai.ai.search import SearchConfig, search_raw  # noqa: E402
from concordia_ai.engine.errors import ConcordiaError  # noqa: E402
from concordia_ai.engine.game import Game  # noqa: E402
from concordia_ai.io.atomic_write import write_atomic  # noqa: E402
from concordia_ai.io.jsonl import read_records  # noqa: E402


def sample_positions(records: list[dict], count: int, seed: int) -> list[tuple[dict, int, Game]]:
    """One decision point per game (in log order, up to `count`): the game replayed to a seeded move number."""
    rng = random.Random(seed)
    out = []
    for rec in records:
        moves = rec.get("moves") or []
        if len(moves) < 30:
            continue
        k = rng.randrange(10, len(moves) - 10)
        game = Game.new(rec["board"], rec["players"], rec["seed"])
        for a in moves[:k]:
            game.state.apply(a)
        if len(game.state.legal_actions()) >= 3:
            out.append((rec, k, game))
        if len(out) >= count:
            break
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--log", required=True, help="a strength.py log (games with their moves)")
    ap.add_argument("--positions", type=int, default=60)
    ap.add_argument("--budgets", default="0.03,0.12,0.5", help="CPU seconds per search, comma-separated")
    ap.add_argument("--seeds", type=int, default=2)
    ap.add_argument("--search", default="", help="search knobs over the defaults, KEY=VALUE,...")
    ap.add_argument("--seed", type=int, default=1, help="the seed of the positions' sampling")
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    try:
        budgets = sorted(float(x) for x in args.budgets.split(","))
    except ValueError:
        ap.exit(2, f"error: --budgets: {args.budgets!r} is not a list of seconds, e.g. 0.03,0.12,0.5\n")
    if not budgets or budgets[0] <= 0 or args.seeds < 1 or args.positions < 1:
        ap.exit(2, "error: --budgets must be positive seconds, --seeds and --positions at least 1\n")
    try:
        knobs = parse_spec("ismcts:" + args.search)[1] if args.search else {}
        records = [r for r in read_records(args.log) if "moves" in r and "seed" in r]
    except (BotSpecError, ConcordiaError) as e:
        ap.exit(2, f"error: {e}\n")
    knobs = {k: v for k, v in knobs.items() if k not in ("iterations", "seconds", "seed")}
    if knobs.get("focus", 0) or knobs.get("jobs", 1) != 1:
        # the move is read off one search's root (the most visited move), as a bot with focus 0 and one
        # thread plays it (search.best_move); the whole-turn choice and merged threads would need their own reading
        ap.exit(2, "error: --search: focus and jobs are not measured here; valid: the bots' one-thread root move "
                   "(focus=0, jobs=1, the defaults)\n")
    positions = sample_positions(records, args.positions, args.seed)
    if not positions:
        ap.exit(2, f"error: --log {args.log}: no game with 30 moves or more to sample from\n")
    rows = []
    for rec, k, game in positions:
        legal = game.state.legal_actions()
        config = SearchConfig(**knobs, iterations=1, seconds=0.0)
        prior_top = None
        if config.reads_prior:
            pr = policy.priors(game.state)
            prior_top = legal[max(range(len(legal)), key=lambda i: pr[i])]
        choices, shares = {}, {}
        for b in budgets:
            choices[b], shares[b] = [], []
            for s in range(1, args.seeds + 1):
                raw = search_raw(game, SearchConfig(**knobs, iterations=0, seconds=b, seed=s))
                top = raw["children"][0]
                choices[b].append(top["action"])
                shares[b].append(top["visits"] / max(1, raw["root_visits"]))
        rows.append(dict(seed=rec["seed"], move=k, legal=len(legal), prior_top=prior_top,
                         choices={str(b): c for b, c in choices.items()},
                         top_share={str(b): round(sum(v) / len(v), 3) for b, v in shares.items()}))
    n, longest = len(rows), str(budgets[-1])
    share = lambda hits, total: round(hits / total, 3)  # noqa: E731
    out = dict(command="python3 scripts/decision_change.py " + " ".join(sys.argv[1:]), positions=n,
               budgets=budgets, seeds=args.seeds, search=knobs or "the defaults",
               seeds_agree={str(b): share(sum(len(set(r["choices"][str(b)])) == 1 for r in rows), n) for b in budgets},
               same_as_longest={str(b): share(sum(a == c for r in rows for a, c in
                                                  zip(r["choices"][str(b)], r["choices"][longest])), n * args.seeds)
                                for b in budgets},
               prior_top={str(b): share(sum(a == r["prior_top"] for r in rows for a in r["choices"][str(b)]),
                                        n * args.seeds) for b in budgets} if rows[0]["prior_top"] is not None else None,
               top_share={str(b): round(sum(r["top_share"][str(b)] for r in rows) / n, 3) for b in budgets},
               mean_legal=round(sum(r["legal"] for r in rows) / n, 1), rows=rows)
    text = json.dumps(out, indent=1)
    if args.out:
        write_atomic(args.out, text + "\n")
    print(text)


if __name__ == "__main__":
    main()
