"""Figures of the research tables (matplotlib, Agg backend: no display needed), written as PNG.

Every point carries its 95 % interval as an error bar; a figure reported as too few is left out.
"""
from __future__ import annotations

import io

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from .games import ResearchError  # noqa: E402
from ...io.atomic_write import write_atomic  # noqa: E402
from .tables import PHASES  # noqa: E402

DPI = 110


def _has(fig: dict | None) -> bool:
    return bool(fig) and fig.get("value") is not None and fig.get("lo") is not None


def _err(figs: list[dict]) -> list[list[float]]:
    return [[f["value"] - f["lo"] for f in figs], [f["hi"] - f["value"] for f in figs]]


def _save(fig, path: str) -> str:
    """The PNG drawn in memory, then written atomically (never through a planted link)."""
    fig.tight_layout()
    png = io.BytesIO()
    fig.savefig(png, dpi=DPI, format="png")
    plt.close(fig)
    try:
        write_atomic(path, png.getvalue())
    except OSError as e:
        raise ResearchError(f"cannot write {path}: {e.strerror or e}") from None
    return path


def card_values(rows: list[dict], path: str, title: str = "") -> str:
    """rftgstats style: the buyers' normalised win rate against the buy rate, and the gap to skippers."""
    cards = [r for r in rows if r["group"] == "card"]
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(12, 5.2))
    pts = [r for r in cards if _has(r["buy_rate"]) and _has(r["bought"]["norm_win"])]
    if pts:
        ax.errorbar([r["buy_rate"]["value"] for r in pts], [r["bought"]["norm_win"]["value"] for r in pts],
                    xerr=_err([r["buy_rate"] for r in pts]), yerr=_err([r["bought"]["norm_win"] for r in pts]),
                    fmt="o", capsize=3, alpha=0.8)
        for r in pts:
            ax.annotate(r["card"], (r["buy_rate"]["value"], r["bought"]["norm_win"]["value"]), fontsize=8,
                        xytext=(4, 4), textcoords="offset points")
    ax.axhline(1.0, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("buy rate (seat-games that bought it / seat-games where it was affordable)")
    ax.set_ylabel("buyers' win rate / seat baseline")
    ax.set_title("buyers' normalised win rate vs buy rate")
    gaps = sorted((r for r in cards if _has(r["gap"]["norm_win"])), key=lambda r: r["gap"]["norm_win"]["value"])
    if gaps:
        bx.errorbar([r["gap"]["norm_win"]["value"] for r in gaps], range(len(gaps)),
                    xerr=_err([r["gap"]["norm_win"] for r in gaps]), fmt="o", capsize=3)
        bx.set_yticks(range(len(gaps)), [f"{r['card']} (n={r['gap']['n']})" for r in gaps], fontsize=8)
    bx.axvline(0.0, color="grey", lw=0.8, ls="--")
    bx.set_xlabel("normalised win rate: bought - skipped (observational)")
    bx.set_title("bought vs could have and did not")
    if title:
        fig.suptitle(title)
    return _save(fig, path)


def timing(rows: list[dict], path: str, title: str = "") -> str:
    """CouncilRoom style: the buyers' normalised win rate by the game phase of their first purchase."""
    cards = [r for r in rows if r["group"] == "card"]
    fig, ax = plt.subplots(figsize=(max(8, 0.7 * len(cards) + 2), 5))
    for j, ph in enumerate(PHASES):
        xs, figs = [], []
        for i, r in enumerate(cards):
            f = r["by_first_purchase"][ph]["norm_win"]
            if _has(f):
                xs.append(i + (j - 1) * 0.22)
                figs.append(f)
        if figs:
            ax.errorbar(xs, [f["value"] for f in figs], yerr=_err(figs), fmt="o", capsize=2, label=f"first bought {ph}")
    ax.axhline(1.0, color="grey", lw=0.8, ls="--")
    ax.set_xticks(range(len(cards)), [r["card"] for r in cards], rotation=45, ha="right", fontsize=8)
    ax.set_ylabel("buyers' win rate / seat baseline")
    ax.set_title(title or "value by purchase timing (observational)")
    ax.legend(fontsize=8)
    return _save(fig, path)


def seats(table: dict, path: str, title: str = "") -> str:
    """Win rate and VP against the game mean by seat, with the fair share."""
    rows = table["seats"]
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(10, 4.2))
    labels = [f"seat {r['seat']}\n{r['start_coins']} coins" + ("\n+ PM" if r["praefectus_magnus"] else "")
              for r in rows]
    for axis, key, ref, ylabel in ((ax, "win", table["fair_share"], "win rate"),
                                   (bx, "vp_vs_mean", 0.0, "VP minus the game's mean VP")):
        ok = [i for i, r in enumerate(rows) if _has(r[key])]
        if ok:
            axis.bar([i for i in ok], [rows[i][key]["value"] for i in ok], yerr=_err([rows[i][key] for i in ok]),
                     capsize=4, color="#7a9cc6")
        if ref is not None:
            axis.axhline(ref, color="grey", lw=0.8, ls="--")
        axis.set_xticks(range(len(rows)), labels, fontsize=8)
        axis.set_ylabel(ylabel)
    ax.set_title("win rate by seat (dashed: fair share)")
    bx.set_title("VP by seat")
    if title:
        fig.suptitle(title)
    return _save(fig, path)


def gods(rows: list[dict], path: str, title: str = "") -> str:
    """The VP one more card of each god would score, at a seat's k-th turn and at the end."""
    fig, ax = plt.subplots(figsize=(9, 5))
    points = [r["point"] for r in rows]
    cols = list(rows[0]["vp"]) if rows else []
    for c in cols:
        xs = [i for i, r in enumerate(rows) if _has(r["vp"][c])]
        if not xs:
            continue
        figs = [rows[i]["vp"][c] for i in xs]
        ax.errorbar(xs, [f["value"] for f in figs], yerr=_err(figs), marker="o", capsize=2, label=c,
                    ls="--" if c.startswith("Minerva/") else "-")
    ax.set_xticks(range(len(points)), [p if p == "end" else f"turn {p}" for p in points])
    ax.set_ylabel("VP of one more card (if the game ended there)")
    ax.set_title(title or "score by god: the marginal VP of one more card")
    ax.legend(fontsize=8, ncol=2)
    return _save(fig, path)


def interventions(rows: list[dict], path: str, title: str = "") -> str:
    """The paired effect of buying a card at its first chance rather than never, in win rate and VP."""
    ok = [r for r in rows if _has(r["vp_diff"])]
    ok.sort(key=lambda r: r["vp_diff"]["value"])
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(11, max(3, 0.45 * len(ok) + 1.5)), sharey=True)
    for axis, key, xlabel in ((ax, "win_diff", "win rate: forced - forbidden"),
                              (bx, "vp_diff", "final VP: forced - forbidden")):
        figs = [r[key] for r in ok]
        if figs:
            axis.errorbar([f["value"] for f in figs], range(len(ok)), xerr=_err(figs), fmt="o", capsize=3)
        axis.axvline(0.0, color="grey", lw=0.8, ls="--")
        axis.set_xlabel(xlabel)
    ax.set_yticks(range(len(ok)), [f"{r['card']} (n={r['n']}, {r['price']['value']:.0f} coins)" for r in ok],
                  fontsize=8)
    fig.suptitle(title or "controlled experiment: buy at the first chance vs never")
    return _save(fig, path)
