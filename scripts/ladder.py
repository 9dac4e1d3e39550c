#!/usr/bin/env python3
"""The strength ladder report: Plackett-Luce ratings with bootstrap intervals for the tournaments of
scripts/ladder.sh, the rating gain per doubling of thinking time, results/ladder.md and ladder.png.

    python3 scripts/ladder.py                      # reads results/ladder/*/, writes results/ladder.{md,json,png}
    python3 scripts/ladder.py --bootstrap 1000 --json

Ratings are on the Elo scale (concordia_ai.lab.ratings: a 100-point gap means the stronger bot finishes
ahead of the weaker one in 64 % of their meetings) and anchored at the heuristic bot (0), so the three
settings share a zero (--anchor names another bot, for a tournament without it). The intervals resample
whole seed blocks. The gain per doubling is the
least-squares slope of rating against log2(seconds per move) over the four fixed-time ISMCTS bots,
with its interval from the same bootstrap samples (left out where fewer than two of them played). Prints the whole report as JSON.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from concordia_ai.lab import ratings  # noqa: E402
from concordia_ai.lab.tournament import TournamentConfig, read_log  # noqa: E402

SETTINGS = (("imperium-4p", "4-player Imperium"), ("italia-3p", "3-player Italia"), ("italia-2p", "2-player Italia"))
ANCHOR = "heuristic"     # a mid-ladder bot: random never wins, so its rating rests on the prior alone
TIMED = {"ismcts-10ms": 0.01, "ismcts-30ms": 0.03, "ismcts-100ms": 0.1, "ismcts-300ms": 0.3}


def slope(xs: list[float], ys: list[float]) -> float:
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def percentile_interval(xs: list[float]) -> list[float]:
    xs = sorted(xs)
    return [xs[int(0.025 * (len(xs) - 1))], xs[int(math.ceil(0.975 * (len(xs) - 1)))]]


def analyse(folder: str, reps: int, seed: int, anchor: str = ANCHOR) -> dict:
    with open(os.path.join(folder, "tournament.json")) as f:
        config = TournamentConfig.from_json(json.load(f))
    records = read_log(os.path.join(folder, "games.jsonl"))
    names = [b.name for b in config.bots]
    index = {n: i for i, n in enumerate(names)}
    if anchor not in index:
        raise ValueError(f"--anchor {anchor}: not a bot of {folder} ({', '.join(names)})")
    blocks: dict[int, list[list[int]]] = defaultdict(list)
    decisions = defaultdict(int)
    for rec in records:
        blocks[rec["block"]].append([index[rec["seats"][s]["bot"]] for s in rec["ranking"]])
    block_list = [blocks[b] for b in sorted(blocks)]
    table = ratings.summarize(records, names, bootstrap=0)

    def fit(data):
        r = ratings.plackett_luce([x for bl in data for x in bl], len(names))
        base = r[index[anchor]]
        return [x - base for x in r]

    point = fit(block_list)
    timed = [n for n in TIMED if n in index]
    xs = [math.log2(TIMED[n]) for n in timed]
    rng = random.Random(seed)
    samples, slopes = [], []
    for _ in range(reps):
        r = fit([block_list[rng.randrange(len(block_list))] for _ in block_list])
        samples.append(r)
        if len(timed) > 1:
            slopes.append(slope(xs, [r[index[n]] for n in timed]))
    rows = []
    for i, row in enumerate(table["bots"]):
        rows.append(dict(bot=row["bot"], spec=config.bots[i].spec, games=row["games"], wins=row["wins"],
                         win_rate=row["win_rate"], win_ci=row["win_ci"], mean_vp=row["mean_vp"],
                         mean_rank=row["mean_rank"], think_seconds_per_game=row["seconds_per_game"],
                         rating=point[i], rating_ci=percentile_interval([s[i] for s in samples])))
    rows.sort(key=lambda r: -r["rating"])
    steps = []
    for a, b in zip(timed, timed[1:]):
        d = math.log2(TIMED[b] / TIMED[a])
        gains = [(s[index[b]] - s[index[a]]) / d for s in samples]
        steps.append(dict(low=a, high=b, doublings=d, gain_per_doubling=(point[index[b]] - point[index[a]]) / d,
                          ci=percentile_interval(gains)))
    return dict(folder=folder, map=config.board, players=config.players, seed=config.seed,
                games=len(records), blocks=len(block_list), planned_games=config.games,
                fair_share=1 / config.players, anchor=anchor, bots=rows,
                gain_per_doubling=dict(fit="least squares over " + ", ".join(timed),
                                       elo=slope(xs, [point[index[n]] for n in timed]),
                                       ci=percentile_interval(slopes)) if len(timed) > 1 else None,
                steps=steps)


def markdown(report: dict) -> str:
    bots = {}
    for st in report["settings"]:
        bots.update({r["bot"]: r["spec"] for r in st["bots"]})
    made = (f"python3 scripts/ladder.py --root {report.get('root', 'results/ladder')} "
            f"--out {report.get('out', 'results')} --bootstrap {report['bootstrap']}"
            + (f" --anchor {anchor}" if (anchor := report["settings"][0].get("anchor", ANCHOR)) != ANCHOR else ""))
    out = ["# Strength ladder", "",
           f"{len(bots)} bots in one tournament per setting: "
           + ", ".join(f"`{name}` (`{spec}`)" if spec != name else f"`{name}`" for name, spec in bots.items())
           + ". Lineups are drawn balanced (every bot plays the same number of seed blocks, give or take one) and "
           "every block rotates its lineup through all seats on one deal. Ratings: Plackett-Luce on the finishing "
           "orders, Elo scale (+100 = finishes ahead in 64 % of meetings), anchored at "
           f"`{report['settings'][0].get('anchor', ANCHOR)}` = 0, with 95 % bootstrap intervals over seed blocks ({report['bootstrap']} resamples).", "",
           "Made by:", "", "```", "the tournaments (`concordia tournament`, resumable): scripts/ladder.sh or the "
           "folder's run script", f"{made}   # this report, ladder.json and ladder.png",
           "```", "", "What the ladder shows, and what it does not, is in "
           f"[judgement.md]({os.path.relpath('results/judgement.md', report.get('out', 'results'))}"
           "#6-the-strength-ladder).",
           "", "![ladder](ladder.png)", ""]
    for s in report["settings"]:
        g = s["gain_per_doubling"]
        out += [f"## {s['title']}", "",
                f"{s['games']} games ({s['blocks']} seed blocks of {s['players']}; {s['planned_games']} planned), "
                f"seed {s['seed']}, log `{s['folder']}/games.jsonl`. Fair share {s['fair_share']:.0%}.", "",
                *(["The ISMCTS bots of this setting searched with the value model (`eval=net` in their specs): the "
                   "default before 2-player games switched to the hand formula (judgement.md, section 7).", ""]
                  if any("eval=net" in r["spec"] for r in s["bots"]) else []),
                "| bot | rating | 95% CI | games | win % | 95% CI | mean VP | think s/game |",
                "|---|---:|---|---:|---:|---|---:|---:|"]
        for r in s["bots"]:
            out.append(f"| {r['bot']} | {r['rating']:+.0f} | {r['rating_ci'][0]:+.0f} .. {r['rating_ci'][1]:+.0f} | "
                       f"{r['games']} | {100 * r['win_rate']:.1f} | {100 * r['win_ci'][0]:.0f}-{100 * r['win_ci'][1]:.0f} | "
                       f"{r['mean_vp']:.1f} | {r['think_seconds_per_game']:.1f} |")
        if g:
            out += ["", f"Rating gain per doubling of thinking time ({g['fit']}): **{g['elo']:+.0f} Elo** "
                    f"(95% CI {g['ci'][0]:+.0f} .. {g['ci'][1]:+.0f}). Step by step:", ""]
        for st in s["steps"]:
            out.append(f"- {st['low']} to {st['high']} ({st['doublings']:.2f} doublings): "
                       f"{st['gain_per_doubling']:+.0f} Elo per doubling (95% CI {st['ci'][0]:+.0f} .. {st['ci'][1]:+.0f})")
        out.append("")
    return "\n".join(out) + "\n"


def plot(report: dict, path: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    settings = report["settings"]
    fig, axes = plt.subplots(1, len(settings), figsize=(5.2 * len(settings), 4.6), sharex=False)
    axes = axes if len(settings) > 1 else [axes]
    for ax, s in zip(axes, settings):
        bots = list(reversed(s["bots"]))
        ys = range(len(bots))
        for y, r in zip(ys, bots):
            colour = "tab:blue" if r["bot"].startswith("ismcts") or r["bot"] == "default" else "tab:gray"
            ax.errorbar(r["rating"], y, xerr=[[r["rating"] - r["rating_ci"][0]], [r["rating_ci"][1] - r["rating"]]],
                        fmt="o", color=colour, capsize=3)
        ax.set_yticks(list(ys))
        ax.set_yticklabels([r["bot"] for r in bots])
        ax.axvline(0, color="black", lw=0.5)
        g = s["gain_per_doubling"]
        ax.set_title(f"{s['title']} ({s['games']} games)" + (f"\n{g['elo']:+.0f} Elo per doubling "
                     f"[{g['ci'][0]:+.0f}, {g['ci'][1]:+.0f}]" if g else ""), fontsize=10)
        ax.set_xlabel(f"Plackett-Luce rating (Elo scale, {s.get('anchor', ANCHOR)} = 0), 95% CI")
        ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default="results/ladder", help="the folder of the tournaments")
    ap.add_argument("--bootstrap", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0, help="bootstrap seed")
    ap.add_argument("--out", default="results", help="where ladder.md, ladder.json and ladder.png go")
    ap.add_argument("--json", action="store_true", help="print the report (it is always written)")
    ap.add_argument("--anchor", default=ANCHOR, help=f"the bot rated 0 (default {ANCHOR})")
    args = ap.parse_args()
    settings = []
    for key, title in SETTINGS:
        folder = os.path.join(args.root, key)
        if os.path.exists(os.path.join(folder, "games.jsonl")):
            try:
                settings.append(dict(title=title, **analyse(folder, args.bootstrap, args.seed, args.anchor)))
            except ValueError as e:
                print(f"error: {e}", file=sys.stderr)
                return 2
    if not settings:
        print(f"no ladder tournaments under {args.root}; run scripts/ladder.sh first", file=sys.stderr)
        return 2
    report = dict(bootstrap=args.bootstrap, bootstrap_seed=args.seed, root=args.root, out=args.out,
                  settings=settings)
    with open(os.path.join(args.out, "ladder.json"), "w") as f:
        json.dump(report, f, indent=1)
    with open(os.path.join(args.out, "ladder.md"), "w") as f:
        f.write(markdown(report))
    plot(report, os.path.join(args.out, "ladder.png"))
    print(json.dumps(report, indent=1) if args.json else json.dumps(
        {s["title"]: dict(games=s["games"], gain_per_doubling=s["gain_per_doubling"]) for s in settings}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
