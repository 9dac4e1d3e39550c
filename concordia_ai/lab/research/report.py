"""The report of a research run folder: report.json (every figure), report.md (tables), plots/*.png.

The report depends only on the logged games and the configuration (the bootstrap is seeded with the
run's seed), so the same run gives the same report byte for byte; timings are not part of it.
"""
from __future__ import annotations

import os
import shlex

from ...io.atomic_write import write_atomic
from . import plots, tables
from .games import LOG_NAME, ResearchConfig, ResearchError, load_config, load_records, resolve_cards, write_json
from .stats import FEW_BLOCKS, MIN_N, REPS

REPORT_FORMAT = "concordia-research-report"
VERSION = 1
PLOT_DIR = "plots"


def build(config: ResearchConfig, records: list[dict], reps: int = REPS, min_n: int = MIN_N) -> dict:
    """Every table of the run's experiment, as plain data."""
    rep = dict(format=REPORT_FORMAT, version=VERSION, config=config.to_json(), games=len(records),
               planned_games=len(config.keys()), truncated=sum(1 for r in records if r.get("truncated")),
               blocks=len({r["block"] for r in records}),
               statistics=dict(interval="95 % percentile bootstrap over seed blocks", bootstrap=reps,
                               bootstrap_seed=config.seed, min_n=min_n))
    if config.experiment == "selfplay":
        rep["cards"] = tables.card_table(records, reps, config.seed, min_n)
        rep["seats"] = tables.seat_table(records, reps, config.seed, min_n)
        rep["marginal"] = tables.marginal_table(records, reps, config.seed, min_n)
    else:
        rep["interventions"] = tables.intervention_table(records, reps, config.seed, min_n)
    return rep


def write(out: str, rep: dict, with_plots: bool = True) -> dict:
    """Write report.json, report.md and the plots into OUT; returns the report with the plot paths."""
    name = f"{rep['config']['map'].title()}, {rep['config']['players']} players, bot {rep['config']['bot']}"
    made = []
    if with_plots and rep["games"]:
        folder = plot_folder(out)
        figures = []
        if "cards" in rep:
            figures += [("card-values.png", plots.card_values, rep["cards"]), ("timing.png", plots.timing, rep["cards"]),
                        ("seats.png", plots.seats, rep["seats"]), ("gods.png", plots.gods, rep["marginal"])]
        if "interventions" in rep:
            figures.append(("interventions.png", plots.interventions, rep["interventions"]))
        for file, draw, data in figures:
            draw(data, os.path.join(folder, file), name)
            made.append(f"{PLOT_DIR}/{file}")
    rep = dict(rep, plots=made)
    write_json(os.path.join(out, "report.json"), rep)
    md = os.path.join(out, "report.md")
    try:
        write_atomic(md, markdown(rep, out))
    except OSError as e:
        raise ResearchError(f"cannot write {md}: {e.strerror or e}") from None
    return rep


def plot_folder(out: str) -> str:
    """OUT/plots, made if missing; refused when it is a link or not a folder (no plot is written out of OUT)."""
    folder = os.path.join(out, PLOT_DIR)
    try:
        os.mkdir(folder)
    except FileExistsError:
        pass
    except OSError as e:
        raise ResearchError(f"cannot create {folder}: {e.strerror or e}") from None
    if os.path.islink(folder) or not os.path.isdir(folder):
        what = "a symbolic link" if os.path.islink(folder) else "not a folder"
        raise ResearchError(f"{folder} is {what}; a research run writes its plots only into a folder of its own "
                            f"(remove it, or choose another --out)")
    return folder


def from_folder(out: str, reps: int = REPS, min_n: int = MIN_N, with_plots: bool = True) -> dict:
    """Recompute and rewrite the report of a run folder from its log."""
    if not os.path.isdir(out):
        raise ResearchError(f"{out}: no such run folder (give the --out folder of a research run)")
    config = load_config(out)
    records = load_records(out, config)
    if not records:
        raise ResearchError(f"{os.path.join(out, LOG_NAME)}: no finished games to report on")
    return write(out, build(config, records, reps, min_n), with_plots)


# ---------------------------------------------------------------- text

def fmt(fig: dict | None, pct: bool = False, signed: bool = False, digits: int = 2) -> str:
    """'0.62 [0.54, 0.69]', or 'too few (n=12)'."""
    if not fig or fig.get("value") is None:
        return f"too few (n={fig['n']})" if fig else "-"
    scale, d = (100, 1) if pct else (1, digits)
    sign = "+" if signed else ""
    v, lo, hi = (x * scale if x is not None else None for x in (fig["value"], fig["lo"], fig["hi"]))
    if lo is None or hi is None:
        return f"{v:{sign}.{d}f} (no interval)"
    return f"{v:{sign}.{d}f} [{lo:{sign}.{d}f}, {hi:{sign}.{d}f}]"


def _table(head: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def cards_text(rep: dict) -> str:
    head = ["card", "decks", "buy rate %", "bought: n", "win %", "norm. win", "skipped: n", "win %", "norm. win",
            "gap norm. win", "gap VP"]
    rows = []
    for r in rep["cards"]:
        b, s, g = r["bought"], r["skipped"], r["gap"]
        name = r["card"] if r["group"] == "card" else f"god {r['card']}"
        rows.append([name, ",".join(r["decks"]), fmt(r["buy_rate"], pct=True), str(b["n"]), fmt(b["win"], pct=True),
                     fmt(b["norm_win"]), str(s["n"]), fmt(s["win"], pct=True), fmt(s["norm_win"]),
                     fmt(g["norm_win"], signed=True), fmt(g["vp"], signed=True, digits=1)])
    return _table(head, rows)


def purchases_text(rep: dict) -> str:
    head = ["card", "copies", "per game", "slot 1-7 % (of its copies)", "early / mid / late %"]
    rows = []
    for r in rep["cards"]:
        if r["group"] != "card":
            continue
        pct = lambda f: "-" if f.get("value") is None else f"{100 * f['value']:.0f}"  # noqa: E731
        rows.append([r["card"], str(r["copies"]), fmt(r["copies_per_game"]),
                     " ".join(pct(f) for f in r["by_slot"]),
                     " / ".join(pct(r["by_phase"][p]) for p in tables.PHASES)])
    return _table(head, rows)


def seats_text(rep: dict) -> str:
    t = rep["seats"]
    head = ["seat", "start coins", "win %", "mean VP", "VP vs game mean", "mean rank", "n"]
    rows = [[str(r["seat"]) + (" (Praefectus Magnus)" if r["praefectus_magnus"] else ""), str(r["start_coins"]),
             fmt(r["win"], pct=True), fmt(r["vp"], digits=1), fmt(r["vp_vs_mean"], signed=True, digits=1),
             fmt(r["rank"]), str(r["n"])] for r in t["seats"]]
    return (_table(head, rows) + f"\n\nFair share {100 * (t['fair_share'] or 0):.1f} %; best minus worst seat "
            f"win rate {fmt(t['spread'], pct=True)} points; seat 1 minus last seat {fmt(t['first_minus_last'], pct=True, signed=True)} points.")


def marginal_text(rep: dict) -> str:
    rows = rep["marginal"]
    if not rows:
        return "(no checkpoints)"
    cols = list(rows[0]["vp"])
    head = ["god"] + [(p["point"] if p["point"] == "end" else f"turn {p['point']}") + f" (n={p['n']})" for p in rows]
    return _table(head, [[c] + [fmt(p["vp"][c], digits=1) for p in rows] for c in cols])


def interventions_text(rep: dict) -> str:
    head = ["card", "pairs", "treated", "turn", "price (coins)", "win % forced", "win % forbidden", "win diff (points)",
            "VP forced", "VP forbidden", "VP diff"]
    rows = [[r["card"], str(r["pairs"]), str(r["n"]), fmt(r["round"], digits=1), fmt(r["price"], digits=1),
             fmt(r["win_force"], pct=True), fmt(r["win_forbid"], pct=True), fmt(r["win_diff"], pct=True, signed=True),
             fmt(r["vp_force"], digits=1), fmt(r["vp_forbid"], digits=1), fmt(r["vp_diff"], signed=True, digits=1)]
            for r in rep["interventions"]]
    return _table(head, rows)


def commands(rep: dict, folder: str | None = None) -> list[str]:
    """The command lines that play this run again (the same games: every seed derives from the logged
    configuration) and that recompute this report from its log."""
    c, st = rep["config"], rep["statistics"]
    q = shlex.quote
    play = ["concordia", "research", "cards" if c["experiment"] == "selfplay" else "intervene",
            "--map", c["map"], "--players", str(c["players"]), "--bot", q(c["bot"]), "--seed", str(c["seed"]),
            "--games", str(c["games"])]
    if c["experiment"] == "intervene":
        every = resolve_cards(["all"], c["players"])
        play += ["--card", "all" if tuple(c["cards"]) == every else q(",".join(c["cards"]))]
        if c["from_round"] != 1:
            play += ["--from-turn", str(c["from_round"])]
    play += [f"--{k.replace('_', '-')}" for k in sorted(c["game_options"]) if c["game_options"][k]]
    figures = ["--bootstrap", str(st["bootstrap"]), "--min-n", str(st["min_n"])]
    where = ["--out", q(folder)] if folder else []
    return [" ".join(play + where + figures),
            " ".join(["concordia", "research", "report", q(folder) if folder else "DIR"] + figures)]


def markdown(rep: dict, folder: str | None = None) -> str:
    c = rep["config"]
    st = rep["statistics"]
    play, again = commands(rep, folder)
    out = [f"# Research run: {c['experiment']}, {c['map'].title()}, {c['players']} players", "",
           f"- bot (every seat): `{c['bot']}`; seed {c['seed']}; game options: {c['game_options'] or 'none'}",
           f"- games logged: {rep['games']} of {rep['planned_games']} planned, in {rep['blocks']} seed blocks"
           + (f"; {rep['truncated']} stopped at the turn limit" if rep["truncated"] else ""),
           f"- every figure: value [{st['interval']}, {st['bootstrap']} resamples]; below n = {st['min_n']}: too few",
           f"- made by `{play}` (add `--resume` to continue or extend a run folder, `--jobs` to spread it);"
           f" this report again from the log: `{again}`",
           ""]
    if rep["blocks"] < FEW_BLOCKS:
        out[-1:] = [f"- **only {rep['blocks']} seed blocks: the intervals are rough** (a bootstrap over fewer than "
                    f"{FEW_BLOCKS} blocks understates the spread; play more games)", ""]
    if "cards" in rep:
        out += ["## Cards and gods (observational: bought vs could have bought and did not)", "",
                "norm. win = wins / the wins expected at the seats' baseline rates (1 = average).", "",
                cards_text(rep), "", "## Purchases by display position and game phase", "", purchases_text(rep), "",
                "## Seats", "", seats_text(rep), "",
                "## Score by god: the VP one more card would score (at a seat's k-th turn; end = final)", "",
                marginal_text(rep), ""]
    if "interventions" in rep:
        out += ["## Controlled experiments: buy at the first affordable turn (forced) vs never (forbidden)", "",
                interventions_text(rep), ""]
    if rep.get("plots"):
        out += ["## Plots", ""] + [f"![{p}]({p})" for p in rep["plots"]] + [""]
    return "\n".join(out)
