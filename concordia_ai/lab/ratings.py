"""Statistics of tournament results: win rates with confidence intervals, Plackett-Luce ratings with
bootstrap intervals, and the sequential probability ratio test (SPRT) between two bots.

Everything here reads plain game records (the lines of a tournament log, see concordia_ai.lab.tournament)
and returns plain dicts; nothing plays games or prints.

Ratings: a batch Plackett-Luce maximum-likelihood fit of the finishing orders (the `choix` package,
iterative Luce spectral ranking), reported on the Elo scale (400 / ln 10 per unit of log-strength, so
a 100-point gap means the stronger bot beats the weaker one in 64 % of head-to-head comparisons),
centred on the mean of the bots. A bot that sits in several seats of one game (copies) shares one
strength. Confidence intervals come from a bootstrap over seed blocks (a block's games are resampled
together because they share a seed).
"""
from __future__ import annotations

import math
import random
from collections import defaultdict

ELO_PER_LOG = 400.0 / math.log(10.0)
PL_ALPHA = 0.1          # regularisation of the Plackett-Luce fit (a small prior comparison between every pair)
BOOTSTRAP = 200         # bootstrap resamples for the rating intervals
Z95 = 1.959963984540054


# ---------------------------------------------------------------- win rates

def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (good also near 0 and 1)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == n else min(1.0, centre + half)
    return lo, hi


# ---------------------------------------------------------------- Plackett-Luce

def plackett_luce(rankings: list[list[int]], n_items: int, alpha: float = PL_ALPHA, start=None,
                  tol: float = 1e-9) -> list[float]:
    """Elo-scale strengths (mean 0) from finishing orders (item indices, best first)."""
    import choix  # imported here: the rest of the module works without it
    import numpy as np

    if n_items < 2 or not rankings:
        return [0.0] * n_items
    try:
        init = None if start is None else np.asarray(start, dtype=float) / ELO_PER_LOG
        params = choix.ilsr_rankings(n_items, rankings, alpha=alpha, initial_params=init, max_iter=1000, tol=tol)
    except RuntimeError:  # no convergence: fall back to the regularised single-step estimate
        params = choix.lsr_rankings(n_items, rankings, alpha=alpha)
    params = np.asarray(params, dtype=float)
    params -= params.mean()
    return [float(x) * ELO_PER_LOG for x in params]


def bootstrap_ratings(blocks: list[list[list[int]]], n_items: int, reps: int = BOOTSTRAP,
                      seed: int = 0) -> list[tuple[float, float]]:
    """95 % percentile intervals of the ratings, resampling whole blocks (lists of rankings)."""
    if not blocks or n_items < 2:
        return [(0.0, 0.0)] * n_items
    rng = random.Random(seed)
    samples: list[list[float]] = [[] for _ in range(n_items)]
    start = plackett_luce([r for bl in blocks for r in bl], n_items)
    for _ in range(reps):
        data = [r for _ in blocks for r in blocks[rng.randrange(len(blocks))]]
        for i, x in enumerate(plackett_luce(data, n_items, start=start, tol=1e-6)):
            samples[i].append(x)
    out = []
    for xs in samples:
        xs.sort()
        lo = xs[int(0.025 * (len(xs) - 1))]
        hi = xs[int(math.ceil(0.975 * (len(xs) - 1)))]
        out.append((lo, hi))
    return out


# ---------------------------------------------------------------- SPRT

SPRT_ALPHA = 0.05
SPRT_BETA = 0.05


def win_share_to_elo(share: float, players: int) -> float:
    """The rating (Elo scale, ELO_PER_LOG) above `players - 1` equal opponents at which the Plackett-Luce model
    gives a bot `share` of the wins: its strength's part of the table's, e^r / (e^r + players - 1) = share. A
    fair share is 0; half the wins against three copies is ln 3, 190.8 Elo. The inverse of elo_to_win_share."""
    if not 0.0 < share < 1.0:
        raise ValueError(f"share {share} is not strictly between 0 and 1")
    return ELO_PER_LOG * math.log(share * (players - 1) / (1.0 - share))


def elo_to_win_share(elo: float, players: int) -> float:
    """The share of the wins the Plackett-Luce model gives a bot `elo` above `players - 1` equal opponents."""
    e = math.exp(elo / ELO_PER_LOG)
    return e / (e + players - 1)


def elo_to_score(elo: float) -> float:
    """Expected head-to-head score of a bot `elo` points stronger."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def sprt_bounds(alpha: float = SPRT_ALPHA, beta: float = SPRT_BETA) -> tuple[float, float]:
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def sprt_llr(block_scores: list[float], elo0: float, elo1: float) -> float:
    """Log-likelihood ratio of H1 (elo = elo1) against H0 (elo = elo0) from block scores.

    Each observation is one seed block's score of the candidate: the mean over the block's games of
    its head-to-head score (the share of opponents it finished ahead of), a number in [0, 1] whose
    expectation is elo_to_score(elo). Like fishtest's pentanomial test on game pairs, the block is the
    unit (its games share a seed and are not independent), and the LLR is the generalised SPRT in its
    normal approximation: n (s1 - s0) (2 mean - s0 - s1) / (2 var). The variance is regularised with
    half a pseudo-block at score 0 and half at 1, so a short run of identical blocks does not decide
    on a zero variance."""
    n = len(block_scores)
    if n == 0:
        return 0.0
    s0, s1 = elo_to_score(elo0), elo_to_score(elo1)
    mean = sum(block_scores) / n
    pts = [(x, 1.0) for x in block_scores] + [(0.0, 0.5), (1.0, 0.5)]
    w = sum(wt for _, wt in pts)
    m = sum(x * wt for x, wt in pts) / w
    var = sum(wt * (x - m) ** 2 for x, wt in pts) / w
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)


def sprt_status(block_scores: list[float], elo0: float, elo1: float) -> dict:
    lower, upper = sprt_bounds()
    llr = sprt_llr(block_scores, elo0, elo1)
    decision = "H1" if llr >= upper else "H0" if llr <= lower else None
    n = len(block_scores)
    return dict(elo0=elo0, elo1=elo1, alpha=SPRT_ALPHA, beta=SPRT_BETA, llr=llr, lower=lower, upper=upper,
                blocks=n, score=(sum(block_scores) / n if n else None), decision=decision)


# ---------------------------------------------------------------- summary of a log

def head_to_head_score(rank: int, players: int) -> float:
    """Share of the other players a seat finished ahead of (rank 1 = best)."""
    return (players - rank) / (players - 1)


def summarize(records: list[dict], bot_names: list[str] | None = None, sprt: tuple[float, float] | None = None,
              block_size: int | None = None, bootstrap: int = BOOTSTRAP, seed: int = 0) -> dict:
    """The tournament table from game records: per bot games, wins, win rate with Wilson 95 % interval,
    mean rank, mean VP, mean VP margin to the best opponent, Plackett-Luce rating with bootstrap interval;
    and the SPRT state if `sprt` = (elo0, elo1) (the candidate is bot_names[0])."""
    if bot_names is None:
        bot_names = []
        for rec in records:
            for seat in rec["seats"]:
                if seat["bot"] not in bot_names:
                    bot_names.append(seat["bot"])
    index = {name: i for i, name in enumerate(bot_names)}
    n = len(bot_names)
    games = [0] * n
    wins = [0] * n
    rank_sum = [0.0] * n
    vp_sum = [0.0] * n
    margin_sum = [0.0] * n
    seconds = [0.0] * n
    blocks: dict[int, list[list[int]]] = defaultdict(list)
    for rec in records:
        totals = [s["total"] for s in rec["scores"]]
        ranks = rec["ranks"]
        for seat, info in enumerate(rec["seats"]):
            i = index[info["bot"]]
            games[i] += 1
            wins[i] += ranks[seat] == 1
            rank_sum[i] += ranks[seat]
            vp_sum[i] += totals[seat]
            margin_sum[i] += totals[seat] - max(t for j, t in enumerate(totals) if j != seat)
            seconds[i] += rec.get("think", [0.0] * len(totals))[seat]
        blocks[rec["block"]].append([index[rec["seats"][s]["bot"]] for s in rec["ranking"]])
    block_list = [blocks[b] for b in sorted(blocks)]
    ratings = plackett_luce([r for bl in block_list for r in bl], n)
    intervals = bootstrap_ratings(block_list, n, bootstrap, seed) if bootstrap else [(None, None)] * n
    rows = []
    for i, name in enumerate(bot_names):
        lo, hi = wilson(wins[i], games[i])
        g = max(1, games[i])
        rows.append(dict(bot=name, games=games[i], wins=wins[i], win_rate=wins[i] / g, win_ci=[lo, hi],
                         mean_rank=rank_sum[i] / g, mean_vp=vp_sum[i] / g, mean_margin=margin_sum[i] / g,
                         seconds_per_game=seconds[i] / g, rating=ratings[i],
                         rating_ci=list(intervals[i])))
    out = dict(games=len(records), blocks=len(block_list), bots=rows,
               rating_model=dict(kind="plackett-luce", fit="choix.ilsr_rankings", alpha=PL_ALPHA,
                                 scale="elo (400/ln10 per log-strength unit), mean 0",
                                 bootstrap=bootstrap, resampled="seed blocks"))
    if sprt is not None and len(bot_names) >= 2:
        out["sprt"] = dict(candidate=bot_names[0], baseline=bot_names[1],
                           **sprt_status(sprt_block_scores(records, bot_names[0], block_size), *sprt))
    return out


def sprt_block_scores(records: list[dict], candidate: str, block_size: int | None = None) -> list[float]:
    """The candidate's score per complete block (all rotations played), in block order."""
    by_block: dict[int, list[float]] = defaultdict(list)
    sizes: dict[int, int] = {}
    for rec in records:
        players = len(rec["seats"])
        sizes[rec["block"]] = block_size or rec.get("block_size", players)
        for seat, info in enumerate(rec["seats"]):
            if info["bot"] == candidate:
                by_block[rec["block"]].append(head_to_head_score(rec["ranks"][seat], players))
    return [sum(v) / len(v) for b, v in sorted(by_block.items()) if len(v) >= sizes[b]]


def format_table(summary: dict) -> str:
    """The summary as a text table."""
    head = ["bot", "games", "win %", "95% CI", "mean rank", "mean VP", "margin", "rating", "95% CI", "s/game"]
    lines = []
    for r in summary["bots"]:
        lo, hi = r["rating_ci"]
        rci = "-" if lo is None else f"[{lo:+.0f}, {hi:+.0f}]"
        lines.append([r["bot"], str(r["games"]), f"{100 * r['win_rate']:.1f}",
                      f"[{100 * r['win_ci'][0]:.1f}, {100 * r['win_ci'][1]:.1f}]", f"{r['mean_rank']:.2f}",
                      f"{r['mean_vp']:.1f}", f"{r['mean_margin']:+.1f}", f"{r['rating']:+.0f}", rci,
                      f"{r['seconds_per_game']:.2f}"])
    widths = [max(len(h), *(len(row[i]) for row in lines)) if lines else len(h) for i, h in enumerate(head)]
    fmt = lambda row: "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths)))  # noqa: E731
    out = [fmt(head), "  ".join("-" * w for w in widths)] + [fmt(row) for row in lines]
    out.append(f"{summary['games']} games in {summary['blocks']} seed blocks; rating: Plackett-Luce (Elo scale, "
               f"mean 0), 95% CI from {summary['rating_model']['bootstrap']} bootstrap resamples of the blocks")
    if "sprt" in summary:
        s = summary["sprt"]
        verdict = {"H1": f"H1 accepted: {s['candidate']} is about elo1 stronger rather than elo0",
                   "H0": f"H0 accepted: {s['candidate']} is about elo0 stronger (or weaker) rather than elo1",
                   None: "undecided"}[s["decision"]]
        score = "-" if s["score"] is None else f"{s['score']:.3f}"
        out.append(f"SPRT {s['candidate']} vs {s['baseline']} (elo0={s['elo0']:g}, elo1={s['elo1']:g}, "
                   f"alpha=beta={s['alpha']:g}): {s['blocks']} blocks, score {score}, LLR {s['llr']:.2f} "
                   f"(bounds {s['lower']:.2f}, {s['upper']:.2f}): {verdict}")
    return "\n".join(out)
