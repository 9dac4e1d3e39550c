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

from concordia_ai.ai import calibration, value  # noqa: E402
from concordia_ai.ai.value import reliability  # noqa: E402
from concordia_ai.ai.bots import parse_spec  # noqa: E402
from concordia_ai.engine.errors import ConcordiaError  # noqa: E402
from concordia_ai.engine.game import Game  # noqa: E402
from concordia_ai.ai.search import SearchConfig, effective_eval, search  # noqa: E402
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
        turn = _top_turn_raw(res)
        rows.append(dict(game=game_id, board=board, players=players, turn=state.turns, seat=seat,
                         won=int(winner == seat), final_vp=final[seat], win=res.best.win,
                         win_raw=res.best.win_raw if res.best.win_raw is not None else res.best.win, vp=res.best.vp,
                         visits=res.best.visits, iterations=res.iterations, net_win=p_net[seat],
                         net_vp=vp_net[seat], margin=res.best.margin,
                         final_margin=final[seat] - max(v for q, v in enumerate(final) if q != seat),
                         # the hint's figures: its top whole turn, shown and raw (every seat's raw share)
                         turn_win=res.turns[0].win if res.turns else res.best.win,
                         turn_seats_raw=turn["seats"] if turn else None,
                         turn_vp=turn["vp"] if turn else res.best.vp,
                         turn_margin=turn["margin"] if turn else res.best.margin))
    return dict(rec, rows=rows)


def _top_turn_raw(res) -> dict | None:
    """The search's own figures (before any map) of the top whole turn, visits-weighted over its threads."""
    if not res.turns:
        return None
    moves = list(res.turns[0].moves)
    found = [t for raw in res.raws for t in raw.get("turns", ()) if list(t["actions"]) == moves and t["seats"]]
    n = sum(t["visits"] for t in found)
    if n <= 0:
        return None
    return dict(seats=[sum(t["seats"][k] * t["visits"] for t in found) / n for k in range(len(found[0]["seats"]))],
                vp=sum(t["vp"] * t["visits"] for t in found) / n,
                margin=sum(t["margin"] * t["visits"] for t in found) / n)


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


MIN_SLOPE = 0.05     # the flattest map fitted: a shown win % must still rise with the search's own value


def fit_platt(p: np.ndarray, y: np.ndarray, prior: float = 1.0) -> tuple[float, float]:
    """Logistic regression of the outcome on logit(p): the Platt map's (a, b), by Newton's method with
    step halving, and a weak pull (`prior`, in positions' worth) towards the identity map (a = 1, b = 0) so
    that a few separable positions cannot send the map to infinity. Certain values (0 or 1) are left out:
    the map leaves them as they are."""
    keep = (p > 0) & (p < 1)
    if not keep.any():
        return 1.0, 0.0
    x = np.log(np.clip(p[keep], 1e-6, 1 - 1e-6) / (1 - np.clip(p[keep], 1e-6, 1 - 1e-6)))
    y = y[keep]

    def loss(a, b):
        z = a * x + b
        return float(np.sum(np.logaddexp(0, z) - y * z) + prior * ((a - 1) ** 2 + b * b) / 2)

    a, b = 1.0, 0.0
    for _ in range(100):
        q = 1 / (1 + np.exp(-np.clip(a * x + b, -50, 50)))
        g = np.array([np.sum((q - y) * x) + prior * (a - 1.0), np.sum(q - y) + prior * b])
        w = q * (1 - q)
        h = np.array([[np.sum(w * x * x), np.sum(w * x)], [np.sum(w * x), np.sum(w)]]) + prior * np.eye(2)
        step = np.linalg.solve(h, g)
        t, before = 1.0, loss(a, b)
        while t > 1e-6 and loss(a - t * step[0], b - t * step[1]) > before:
            t /= 2
        a_new, b = max(MIN_SLOPE, a - t * step[0]), b - t * step[1]   # a map must increase
        if abs(a_new - a) < 1e-9 and abs(t * step[1]) < 1e-9:
            break
        a = a_new
    return float(a), float(b)


def _mapped(p: np.ndarray, a: float, b: float) -> np.ndarray:
    """The Platt map; a certain value (0 or 1: every iteration ended the game) stays certain, as shown."""
    q = np.clip(p, 1e-6, 1 - 1e-6)
    out = 1 / (1 + np.exp(-(a * np.log(q / (1 - q)) + b)))
    return np.where((p <= 0) | (p >= 1), p, out)


def _log_loss(p: np.ndarray, y: np.ndarray) -> float:
    q = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-np.mean(y * np.log(q) + (1 - y) * np.log(1 - q)))


def _raw(r: dict) -> float:
    """The search's own win value of the hint's top turn for the deciding seat (before any map)."""
    seats = r.get("turn_seats_raw")
    return seats[r["seat"]] if seats else r["win_raw"]


def _shown(rows: list[dict], a: float, b: float) -> np.ndarray:
    """The win % a player would read under the map (a, b): every seat's raw share through the map and the
    shares normalised again (search.shown_win), the deciding seat's share."""
    out = np.empty(len(rows))
    for i, r in enumerate(rows):
        seats = r.get("turn_seats_raw")
        if seats and sum(seats) > 0:
            m = _mapped(np.array(seats, float), a, b)
            out[i] = m[r["seat"]] / m.sum() if m.sum() > 0 else seats[r["seat"]]
        else:
            out[i] = _mapped(np.array([r["win_raw"]]), a, b)[0]
    return out


def fit_shown(rows: list[dict]) -> tuple[float, float]:
    """The map's (a, b): the Platt fit of the outcome on the raw value, then refined on a grid to the lowest
    log loss of the figure actually shown (after the shares are normalised, which the Platt fit ignores)."""
    y = np.array([r["won"] for r in rows], float)
    a0, b0 = fit_platt(np.array([_raw(r) for r in rows]), y)
    best = (_log_loss(_shown(rows, a0, b0), y), a0, b0)
    for a in np.linspace(max(MIN_SLOPE, a0 * 0.6), max(MIN_SLOPE, a0 * 1.4), 17):
        for b in np.linspace(b0 - 0.6, b0 + 0.6, 17):
            loss = _log_loss(_shown(rows, a, b), y)
            if loss < best[0]:
                best = (loss, float(a), float(b))
    return best[1], best[2]


def _cross_fit(rows: list[dict], groups: list[list[int]]) -> dict:
    """Maps fitted on the even game ids and measured on the odd ones and the other way round, one map per
    group of player counts: every row gets the figure it would show under a map that never saw its game."""
    pred = {}
    for fit_on in (0, 1):
        for g in groups:
            train = [r for r in rows if r["game"] % 2 == fit_on and r["players"] in g]
            test = [r for r in rows if r["game"] % 2 != fit_on and r["players"] in g]
            if not train or not test:
                continue
            a, b = fit_shown(train)
            for r, q in zip(test, _shown(test, a, b)):
                pred[id(r)] = float(q)
    used = [r for r in rows if id(r) in pred]
    if not used:      # no group had games on both sides of the split
        return dict(positions=0, ece=None, log_loss=None, brier=None, per_players={})
    p, y = np.array([pred[id(r)] for r in used]), np.array([r["won"] for r in used], float)
    out = dict(positions=len(used), ece=round(reliability(p, y)[0], 4), log_loss=round(_log_loss(p, y), 4),
               brier=round(float(np.mean((p - y) ** 2)), 4), per_players={})
    for n in sorted({r["players"] for r in used}):
        m = np.array([r["players"] == n for r in used])
        out["per_players"][str(n)] = dict(positions=int(m.sum()), ece=round(reliability(p[m], y[m])[0], 4))
    return out


def fit_map(rows: list[dict], path: Path, args) -> dict:
    """The Platt maps of this run's setting (its evaluation per player count, its budget), merged into the
    calibration file at `path` (maps of other settings are kept; concordia_ai/ai/calibration.py).

    The player counts that share an evaluation get one map together or one map each, whichever predicts
    better held out: both are cross-fitted (even game ids -> odd ones and back) and the lower log loss wins.
    The maps written are then fitted on every row of their group."""
    _, options = parse_spec(args.search)
    config = SearchConfig(**options)
    seconds = calibration.budget_seconds(config.seconds, config.iterations, config.jobs)
    counts = sorted({r["players"] for r in rows})
    by_eval: dict[str, list[int]] = {}
    for n in counts:
        by_eval.setdefault(effective_eval(config.eval, n), []).append(n)
    maps, report = [], {}
    for kind, ns in by_eval.items():
        rs = [r for r in rows if r["players"] in ns]
        pooled = _cross_fit(rs, [ns])
        split = _cross_fit(rs, [[n] for n in ns]) if len(ns) > 1 else None
        better = split is not None and split["log_loss"] is not None and (
            pooled["log_loss"] is None or split["log_loss"] < pooled["log_loss"])
        groups = [[n] for n in ns] if better else [ns]
        report[kind] = dict(players=ns, one_map=pooled, map_per_count=split,
                            chosen="one map" if groups == [ns] else "a map per player count")
        for g in groups:
            gr = [r for r in rs if r["players"] in g]
            a, b = fit_shown(gr)
            maps.append(dict(eval=kind, players=g, seconds=seconds, a=round(a, 6), b=round(b, 6),
                             positions=len(gr), search=args.search, play=args.play, seed=args.seed,
                             games=args.games, command="python3 scripts/calibration.py " + " ".join(sys.argv[1:])))
    old = []
    if path.exists():
        calibration.load(path)      # refuses a damaged file before anything is replaced
        info = json.loads(path.read_text(encoding="utf-8"))
        old = info.get("maps", [])
    fitted = {(m["eval"], n) for m in maps for n in m["players"]}
    kept = [m for m in old
            if not (abs(m["seconds"] - seconds) < 1e-9 and any((m["eval"], n) in fitted for n in m["players"]))]
    info = dict(format=calibration.FORMAT, maps=kept + maps)
    write_atomic(str(path), json.dumps(info, indent=2) + "\n")
    return dict(maps=maps, cross_fitted=report)


def margin_deciles(rows: list[dict]) -> list[dict]:
    """The shown VP margin (the hint's top turn's, else the top move's) against the real final one, in
    deciles of the shown margin."""
    key = "turn_margin" if all("turn_margin" in r for r in rows) else "margin"
    rs = sorted((r for r in rows if key in r), key=lambda r: r[key])
    out = []
    for k in range(10):
        part = rs[len(rs) * k // 10: len(rs) * (k + 1) // 10]
        if part:
            shown = float(np.mean([r[key] for r in part]))
            real = float(np.mean([r["final_margin"] for r in part]))
            out.append(dict(decile=k + 1, positions=len(part), shown=round(shown, 2), real=round(real, 2),
                            gap=round(real - shown, 2)))
    return out


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
                    help="fit the calibration maps of this setting (--search's evaluation per player count "
                         "and its budget; one map or a map per count, whichever is better cross-fitted) and "
                         "merge them into FILE, keeping its maps of other settings "
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
    fit = fit_map(rows, Path(args.fit), args) if args.fit else None
    res = dict(command="python3 scripts/calibration.py " + " ".join(sys.argv[1:]), search=args.search,
               play=args.play, games=args.games, seed=args.seed, seconds=round(time.time() - t0, 1),
               search_reported=summary(rows, "win", "vp"), search_raw=summary(rows, "win_raw", "vp"),
               top_turn_reported=summary(rows, "turn_win", "turn_vp") if all("turn_win" in r for r in rows) else None,
               value_model=summary(rows, "net_win", "net_vp"),
               per_players={str(n): summary([r for r in rows if r["players"] == n], "win", "vp")
                            for n in sorted({r["players"] for r in rows})},
               margin_deciles=margin_deciles(rows), fit=fit)
    write_atomic(str(out / "calibration.json"), json.dumps(res, indent=2) + "\n")
    plot(rows, out / "calibration.png", f"{args.search}, {len(rows)} positions of {args.games} held-out games")
    print(json.dumps(res))


if __name__ == "__main__":
    main()
