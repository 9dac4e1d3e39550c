#!/usr/bin/env python3
"""Do the root alternatives' figures mean something? The spread of each move's win % over seeds.

    python3 scripts/root_spread.py --seconds 1 --seeds 5 --floors 0,0.2 --out results/root-spread.json

Positions: the opening of 4-player Imperium and of 3-player Italia, and the stability script's first four
mid-game positions. For every root-floor setting, each position is searched with every seed; for each of the
five moves most visited on average, the script reports its mean visits, its mean reported win % and the
range (max - min) of that win % over the seeds, and the mean of the reported standard errors.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from concordia_ai.engine.game import Game  # noqa: E402
from concordia_ai.ai.search import SearchConfig, search  # noqa: E402
from stability import position  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--floors", default="0,0.2")
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    games = {"imperium 4p opening": Game.new("imperium", 4, 7), "italia 3p opening": Game.new("italia", 3, 7)}
    for k in range(4):
        g = position(k)
        games[f"stability position {k} ({g.board.source.name} {g.n_players}p, turn {g.state.turns})"] = g
    out = {"command": "python3 scripts/root_spread.py " + " ".join(sys.argv[1:]), "positions": {}}
    for name, g in games.items():
        out["positions"][name] = {}
        for floor in (float(x) for x in args.floors.split(",")):
            runs = [search(g, SearchConfig(seconds=args.seconds, iterations=0, root_floor=floor, seed=s))
                    for s in range(args.seeds)]
            moves: dict[str, list] = {}
            for r in runs:
                for c in r.candidates:
                    moves.setdefault(c.text, []).append(c)
            top = sorted(moves, key=lambda m: -sum(c.visits for c in moves[m]) / args.seeds)[:5]
            rows = []
            for m in top:
                cs = moves[m]
                wins = [100 * c.win for c in cs]
                rows.append(dict(move=m, mean_visits=round(sum(c.visits for c in cs) / len(cs)),
                                 mean_win=round(sum(wins) / len(wins), 1),
                                 win_range=round(max(wins) - min(wins), 1),
                                 mean_se=round(100 * sum(c.win_se for c in cs) / len(cs), 2)))
            out["positions"][name][f"root_floor={floor:g}"] = rows
            alt = rows[1:]
            print(f"{name}, root_floor={floor:g}: top move {rows[0]['move']} {rows[0]['mean_visits']} visits; "
                  f"alternatives' win % range over {args.seeds} seeds: "
                  + ", ".join(f"{r['move']} {r['win_range']:.1f} (visits {r['mean_visits']})" for r in alt),
                  file=sys.stderr)
    if args.out:
        Path(args.out).write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
