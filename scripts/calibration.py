#!/usr/bin/env python3
"""Calibration of the win % the search reports, on positions of fresh (held-out) self-play games.

    python3 scripts/calibration.py --games 200 --per-game 10 --search ismcts:seconds=0.1,iterations=0 \
        --play ismcts:iterations=300 --seed 900 --jobs 2 --out results/calibration

Games are played by --play (the value model's data bot) on deals never used in training (seeds from --seed,
boards and player counts spread as in training). From each game --per-game positions at turn starts are
drawn (seeded), the game is played to its end, and each drawn position is searched with --search. Games run on
the runner (--jobs, or --backend dask --scheduler ADDRESS with the TLS files; docs/cluster.md), one record per
game in OUT/games.jsonl as it ends, so a rerun plays only the missing games. The search's
reported win % is that of the move it would play (the top candidate), for the seat that decides. Its outcome
is 1 if that seat went on to win the game as played.

Prints JSON: expected calibration error (10 equal-width bins), Brier score, the reliability table, the mean
absolute error of the reported expected final VP, and the same for the value model's raw prediction at the
position; writes a reliability diagram (PNG) and the per-position rows (JSONL) under --out.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from concordia_ai.ai import value  # noqa: E402
from concordia_ai.ai.value import reliability  # noqa: E402
from concordia_ai.ai.bots import parse_spec  # noqa: E402
from concordia_ai.engine.errors import ConcordiaError  # noqa: E402
from concordia_ai.engine.game import Game  # noqa: E402
from concordia_ai.ai.search import SearchConfig, search  # noqa: E402
from concordia_ai.io.atomic_write import write_atomic  # noqa: E402
from concordia_ai.lab import jobs, selfplay  # noqa: E402

KEY = ("play", "search", "game", "seed", "per_game")     # a game's key, in its task and its log record


def one_game(task: dict) -> dict:
    """Game `game` of the self-play schedule and its drawn positions searched (runs in a worker)."""
    play, search_spec, game_id, seed, per_game = (task[k] for k in KEY)
    played, starts = selfplay.play_scheduled(play, seed, game_id, take=lambda st: st.copy())
    rec = {k: task[k] for k in KEY}
    if played.truncated:
        return dict(rec, rows=[])
    game = played.game
    board, players = selfplay.schedule(game_id)
    deal = selfplay.deal_seed(seed, game_id)
    winner = game.ranking()[0]
    final = [s["total"] for s in game.scores()]
    rng = random.Random(deal)
    picks = sorted(rng.sample(range(len(starts.taken)), min(per_game, len(starts.taken))))
    _, options = parse_spec(search_spec)
    rows = []
    for k in picks:
        state = starts.taken[k]
        g = Game(state.copy(), game.names)
        seat = g.decider
        res = search(g, SearchConfig(**options, seed=deal * 64 + k))
        p_net, vp_net = value.predict(state)
        rows.append(dict(game=game_id, board=board, players=players, turn=state.turns, seat=seat,
                         won=int(winner == seat), final_vp=final[seat], win=res.best.win,
                         win_raw=res.best.win_raw if res.best.win_raw is not None else res.best.win, vp=res.best.vp,
                         visits=res.best.visits, iterations=res.iterations, net_win=p_net[seat],
                         net_vp=vp_net[seat]))
    return dict(rec, rows=rows)


def game_key(rec: dict) -> tuple:
    return tuple(rec[k] for k in KEY)


def summary(rows: list[dict], key: str, vp_key: str) -> dict:
    p = np.array([r[key] for r in rows])
    y = np.array([r["won"] for r in rows], dtype=float)
    ece, table = reliability(p, y)
    return dict(positions=len(rows), ece=round(ece, 4), brier=round(float(np.mean((p - y) ** 2)), 4),
                brier_base_rate=round(float(np.mean((y.mean() - y) ** 2)), 4),
                vp_mae=round(float(np.mean([abs(r[vp_key] - r["final_vp"]) for r in rows])), 2),
                reliability=table)


def fit_platt(p: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """Logistic regression of the outcome on logit(p): the Platt map's (a, b), by Newton's method."""
    x = np.log(np.clip(p, 1e-6, 1 - 1e-6) / (1 - np.clip(p, 1e-6, 1 - 1e-6)))
    a, b = 1.0, 0.0
    for _ in range(50):
        q = 1 / (1 + np.exp(-(a * x + b)))
        g = np.array([np.sum((q - y) * x), np.sum(q - y)])
        w = q * (1 - q)
        h = np.array([[np.sum(w * x * x), np.sum(w * x)], [np.sum(w * x), np.sum(w)]]) + 1e-9 * np.eye(2)
        step = np.linalg.solve(h, g)
        a, b = a - step[0], b - step[1]
        if np.abs(step).max() < 1e-9:
            break
    return float(a), float(b)


def fit_map(rows: list[dict], path: Path, args) -> dict:
    """One Platt map for every player count (measured: maps per count overfit ~250 positions each).

    Cross-fitted report: fitted on the even game ids and measured on the odd ones, and the other way round;
    the map written is then fitted on all rows."""
    def arr(rs, k):
        return np.array([r[k] for r in rs], dtype=float)

    def mapped(p, a, b):
        q = np.clip(p, 1e-6, 1 - 1e-6)
        return 1 / (1 + np.exp(-(a * np.log(q / (1 - q)) + b)))

    halves = {0: [r for r in rows if r["game"] % 2 == 0], 1: [r for r in rows if r["game"] % 2 == 1]}
    report = {}
    for fit_on, test_on in ((0, 1), (1, 0)):
        a, b = fit_platt(arr(halves[fit_on], "win_raw"), arr(halves[fit_on], "won"))
        p, y = arr(halves[test_on], "win_raw"), arr(halves[test_on], "won")
        report[("even", "odd")[fit_on] + " -> " + ("even", "odd")[test_on]] = dict(
            positions=len(p), ece_raw=round(reliability(p, y)[0], 4), ece_mapped=round(reliability(mapped(p, a, b), y)[0], 4),
            brier_raw=round(float(np.mean((p - y) ** 2)), 4), brier_mapped=round(float(np.mean((mapped(p, a, b) - y) ** 2)), 4))
    a, b = fit_platt(arr(rows, "win_raw"), arr(rows, "won"))
    players = {str(n): dict(a=round(a, 6), b=round(b, 6)) for n in (2, 3, 4, 5)}
    info = dict(format="concordia-calibration-v1", search=args.search, play=args.play, seed=args.seed,
                games=args.games, positions=len(rows), fitted_on="all positions (one map for every player count)",
                command="python3 scripts/calibration.py " + " ".join(sys.argv[1:]), players=players,
                cross_fitted=report)
    write_atomic(str(path), json.dumps(info, indent=2) + "\n")
    return info


def plot(rows: list[dict], path: Path, title: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(5.5, 5.5))
    ax.plot([0, 1], [0, 1], color="grey", lw=1, ls="--", label="perfect calibration")
    series = [("win", "search's reported win %", "C0"), ("net_win", "value model alone", "C1")]
    if any(r.get("win_raw") != r["win"] for r in rows):
        series.insert(1, ("win_raw", "search's raw mean (before the map)", "C2"))
    for key, label, colour in series:
        s = summary(rows, key, "net_vp" if key == "net_win" else "vp")
        xs = [t["predicted"] for t in s["reliability"]]
        ys = [t["observed"] for t in s["reliability"]]
        ns = [t["n"] for t in s["reliability"]]
        ax.plot(xs, ys, marker="o", color=colour, label=f"{label} (ECE {s['ece']:.3f})")
        for x, yv, n in zip(xs, ys, ns):
            ax.annotate(str(n), (x, yv), textcoords="offset points", xytext=(4, -10), fontsize=7, color=colour)
    ax.set_xlabel("reported probability of winning")
    ax.set_ylabel("observed frequency of winning")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_title(title, fontsize=9)
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--per-game", type=int, default=10)
    ap.add_argument("--play", default="ismcts:iterations=300,eval=hand")
    ap.add_argument("--search", default="ismcts:seconds=0.1,iterations=0")
    ap.add_argument("--seed", type=int, default=900)
    ap.add_argument("--out", default="results/calibration")
    ap.add_argument("--fit", default=None, metavar="FILE",
                    help="fit the Platt map of the raw win values on the even game ids and write it to FILE "
                         "(concordia_ai/data/value/calibration.json is the shipped one)")
    ap.add_argument("--rows", default=None, metavar="JSONL",
                    help="reuse the positions of an earlier run (its positions.jsonl) instead of playing games")
    jobs.add_runner_options(ap)
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    if args.rows:
        rows = [json.loads(line) for line in open(args.rows)]
    else:
        # one record per game in games.jsonl, appended as each game ends: a rerun plays only the missing games
        tasks = [dict(play=args.play, search=args.search, game=i, seed=args.seed, per_game=args.per_game)
                 for i in range(args.games)]
        try:
            records, _ = jobs.run_logged(one_game, tasks, game_key, str(out / "games.jsonl"), progress="games",
                                         **jobs.runner_options(args, ap))
        except ConcordiaError as e:
            ap.exit(2, f"error: {e}\n")
        rows = [r for rec in records for r in rec["rows"]]
        write_atomic(str(out / "positions.jsonl"), "".join(json.dumps(r) + "\n" for r in rows))
    if args.fit:
        info = fit_map(rows, Path(args.fit), args)
        print(json.dumps(dict(fit=info["players"]["4"], cross_fitted=info["cross_fitted"])), file=sys.stderr)
    res = dict(command="python3 scripts/calibration.py " + " ".join(sys.argv[1:]), search=args.search,
               play=args.play, games=args.games, seed=args.seed, seconds=round(time.time() - t0, 1),
               search_reported=summary(rows, "win", "vp"), search_raw=summary(rows, "win_raw", "vp"),
               value_model=summary(rows, "net_win", "net_vp"))
    write_atomic(str(out / "calibration.json"), json.dumps(res, indent=2) + "\n")
    plot(rows, out / "calibration.png", f"{args.search}, {len(rows)} positions of {args.games} held-out games")
    print(json.dumps(res))


if __name__ == "__main__":
    main()
