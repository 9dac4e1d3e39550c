#!/usr/bin/env python3
"""Fit the final-result model (concordia_ai/ai/outcome.py) on the held-out positions of scripts/outcome_data.py,
and measure the figures exactly as a hint shows them.

    python3 scripts/outcome_fit.py --logs 'results/outcome/positions-*p.jsonl' \
        --write concordia_ai/data/value/outcome.json --report results/outcome/report.json

For every setting (player count; budget: each searched budget, and 0 = the position's own evaluation) the
positions are cross-fitted: the model is fitted on the games with even ids and measured on the odd ones,
and the other way round, so every measured figure comes from a model that never saw its game. A search's
figure is replayed as the hint makes it: every whole turn the final choice looked at gets its figures
under the model (outcome.predict_stats), the pick is made by search.final_pick (the recorded end-of-turn
evaluations stand in for the tie rule's), and the picked turn's win share, VP and margin are the shown
figures. With --write, the models fitted on all the positions are written (with their measured figures),
with the search they were fitted on (`search`, outcome.search_record: a hint on another search says so,
outcome.search_note): the records' own `config` (scripts/outcome_data.py records it), or for records made
before it was recorded their --search knobs over LEGACY, the hint's search then, with the sha256 of the
learned weights installed now: this assumes the weights did not change since those logs were made (true of
every log in results/outcome/ as of 2026-12-04). Logs of different searches are refused with --write: a model
file holds the models of one search.

With --held-out-with FILE nothing is fitted: the models of a written model file (the installed one, say)
are measured as they are on the logs' positions, which must be others than those it was fitted on (the file's
`logs`): the test of an installed model on new games.

Prints JSON: per setting and over all player counts, the expected calibration error (10 equal-width bins),
the reliability table, the positions shown at 90 % or more (10 % or less) against their real rate, the
shown VP and margin against the real final ones (by decile of the shown margin, with the worst decile gap's
floor: what sampling noise alone gives, each decile's standard error taken with the positions of one game as
one draw, since they share its final scores), and the ECE by stage
(horizon thirds); the raw figure of the old display (the search's own mean win value) beside it. Each ECE
comes with its floor: the mean ECE of a perfectly calibrated figure on the same positions (outcomes drawn
from the figures), which is what sampling noise alone gives.

The model form: with the win values' term w, or the margin alone, whichever gives the lower cross-fitted log
loss; except at a searched budget whose seed-to-seed spread (--between) was measured through one form only,
which keeps that form, since the spread is measured in VP through that form's slopes and means another error
through the other (results/outcome/README.md: a 3-player fit without w showed every turn at +-9 points).
"""
from __future__ import annotations

import argparse
import glob
import json
import math
import shlex
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from concordia_ai.ai import outcome  # noqa: E402
from concordia_ai.ai.search import SearchConfig, TurnCandidate, effective_eval, final_pick  # noqa: E402
from concordia_ai.ai.value import reliability  # noqa: E402
from concordia_ai.io import safe_read  # noqa: E402
from concordia_ai.io.atomic_write import write_atomic  # noqa: E402
from concordia_ai.io.jsonl import read_records  # noqa: E402


def read_logs(logs: list[str]) -> list[dict]:
    """Every record (one game each) of the logs."""
    return [rec for path in logs for rec in read_records(path, repair=True, error=ValueError)]


def positions(logs: list[str], records: list[dict] | None = None) -> list[dict]:
    """Every position of every game, with the game's outcome (`records`: the logs' records, already read)."""
    out = []
    for rec in read_logs(logs) if records is None else records:
        for row in rec["rows"]:
            out.append(dict(row, players=rec["players"], game=rec["game"], seed=rec["seed"], board=rec["board"],
                            final=rec["final"], winner=rec["winner"]))
    return out


# The hint's search when the logs without a `config` were made (every log of results/outcome/ up to 2026-12-04):
# these knobs over SearchConfig's defaults (search.TABLE_SEARCH then; written out, as TABLE_SEARCH may move on)
LEGACY = dict(focus=0.25, select="ucb", policy=0.0)


class MixedSearchError(ValueError):
    """Records searched with different searches: one model file is fitted on one search."""


def record_search(rec: dict) -> dict:
    """The search a record's positions were searched with (outcome.search_record's keys): its `config`, or for
    a record made before that was recorded, its --search knobs (`search`) over LEGACY over today's defaults,
    with the sha256 of the weights installed now (assumed unchanged since the log was made: true of every log
    in results/outcome/ as of 2026-12-04). A knob added after the record was made counts at the value it had
    then (outcome.complete_record), so logs of one search made before and after a new knob fit together."""
    if "config" in rec:
        return outcome.complete_record(rec["config"])
    budget = dict(iterations=1, seconds=0.0, jobs=1, seed=0)      # not part of the search (UNFITTED_KNOBS)
    record = outcome.search_record(SearchConfig(**{**LEGACY, **rec.get("search", {}), **budget}))
    return {k: v for k, v in record.items() if k != "auto_eval"}   # eval auto as it meant then (recorded_eval)


def search_of(records: list[dict]) -> dict:
    """The one search the records' positions were searched with (what --write records as `search`);
    MixedSearchError when they name more than one (records of truncated games, without positions, count not).
    Each record's evaluation counts as it resolved for its player count (outcome.recorded_eval: eval "auto"
    meant the hand formula with 2 players until 2026-12-04), so eval=net and auto are one search wherever auto
    means net now, and the search recorded names auto with today's meaning. The value model's sha256 counts
    only for the records whose search evaluates with it: hand-formula records of different value models are
    one search, since nothing in them came from the model."""
    searches = [(record_search(rec), rec["players"]) for rec in records if rec.get("rows")]
    net = {s["value_sha256"] for s, n in searches if outcome.recorded_eval(s, n) == "net"}
    found = []
    for s, n in searches:
        kind = outcome.recorded_eval(s, n)
        s = dict(s, eval="auto" if kind == effective_eval("auto", n) else kind, auto_eval=outcome.auto_eval_record())
        if kind != "net":     # nothing here came from the value model: its sha256 is the others' (if one) or none
            s = dict(s, value_sha256=next(iter(net)) if len(net) == 1 else None)
        if s not in found:
            found.append(s)
    if not found:
        raise MixedSearchError("the logs hold no positions, so no search to record")
    if len(found) > 1:
        keys = sorted(k for k in {*found[0], *found[1]} if found[0].get(k) != found[1].get(k))
        raise MixedSearchError(f"the logs hold positions of {len(found)} different searches (they differ in "
                               f"{', '.join(keys)}); a model file is fitted on one search: fit each one's logs apart")
    return found[0]


def _stats(t: dict) -> outcome.NodeStats:
    return outcome.NodeStats(t["visits"], t["seat_vp"], t["margin"], t["margin2"], t["term"], t["term_win"],
                             t["term_vp"], t["term_margin"], t.get("seat_win", []), t.get("win2"), t.get("margin_win"))


def first_round(p: dict) -> bool:
    """The position is in every seat's first turn (outcome.first_round: the first round's own sigma)."""
    return p["turn"] < p["players"]


def chosen_turn(p: dict, budget: str, model: outcome.Model | None) -> dict:
    """The turn the hint shows first: with a model, the pick replayed under it; without, as recorded."""
    turns = p["searches"][budget]["turns"]
    if model is None:
        return next(t for t in turns if t["chosen"])
    model = model.for_position(first_round(p))
    cands = []
    for t in turns:
        out, se = outcome.predict_stats(_stats(t), p["decider"], p["h"], model)
        tc = TurnCandidate(t["moves"], [], t["visits"], 0.0, out.win, out.vp[p["decider"]], out.margin, se,
                           focus=t["focus"], candidate=t["candidate"], scale=model.weight)
        tc.record = t
        cands.append(tc)
    pick = final_pick(None, cands, advantage=lambda tc: tc.record["adv"])
    return pick.record if pick is not None else next(t for t in turns if t["chosen"])


def has_win_values(p: dict, budget: str) -> bool:
    """The position recorded the seats' win values at this budget (the second round's positions did)."""
    if budget == "0":
        return p.get("q_net") is not None
    return all("seat_win" in t for t in p["searches"][budget]["turns"])


def fit_rows(ps: list[dict], budget: str, eval_kind: str, picks_model, use_q: bool = True) -> list[dict]:
    """The rows outcome.fit takes: the shown turn's cut-off mean VPs (or the position's own evaluation at
    budget 0) and the share of its iterations that reached the end, with how the game ended."""
    rows = []
    for p in ps:
        if budget == "0":
            mu, wt, tw = p["mu_net"] if eval_kind == "net" else p["mu_hand"], 0.0, 0.0
            q = p.get("q_net") if eval_kind == "net" else None
        else:
            st = _stats(chosen_turn(p, budget, picks_model))
            if st.visits - st.term <= 0:
                continue
            mu, q = outcome.cut_means(st)
            wt = st.term / st.visits if st.visits else 0.0
            tw = st.term_win[p["winner"]] if st.term else 0.0
        rows.append(dict(mu=mu, q=q if use_q else None, decider=p["decider"], h=p["h"], final=p["final"],
                         winner=p["winner"], wt=wt, tw=tw, first_round=first_round(p)))
    return rows


BETWEEN: dict[int, float] = {}   # players -> the measured seed-to-seed spread (--between), for searched budgets
BETWEEN_FORM: dict[int, str] = {}   # players -> the model form that spread was measured through (its `form`)


def model_form(players: int, budget: str, lower_with: bool) -> tuple[bool, str]:
    """(use the win values' term w, why): the form with the lower cross-fitted log loss (`lower_with`: the
    form with w has it), unless the seed-to-seed spread of this searched setting was measured through one
    form (--between's `form`, stability_replay.model_form): it holds only for that form, since through the
    other's slopes the same tau is another error."""
    measured = BETWEEN_FORM.get(players) if budget != "0" and BETWEEN.get(players) else None
    if measured in ("win values", "margin"):
        return measured == "win values", f"the form --between was measured through ({measured})"
    return lower_with, "lower log loss"


def fit_setting(ps: list[dict], players: int, budget: str, eval_kind: str, use_q: bool = True) -> outcome.Model:
    """The model of one setting (with the win values' term w when use_q and every position has them), with
    the measured seed-to-seed spread of a search's figures (--between) at a searched budget."""
    if budget != "0" and BETWEEN.get(players):
        return replace(_fit_setting(ps, players, budget, eval_kind, use_q), between_sd=BETWEEN[players])
    return _fit_setting(ps, players, budget, eval_kind, use_q)


def _fit_setting(ps: list[dict], players: int, budget: str, eval_kind: str, use_q: bool) -> outcome.Model:
    seconds = float(budget)
    # the pick depends on the model: fit on the recorded picks, then once more on the picks the first fit makes
    model = outcome.fit(fit_rows(ps, budget, eval_kind, None, use_q), eval_kind, players, seconds)
    if budget != "0":
        model = replace(model, between_sd=BETWEEN.get(players, 0.0))
        model = outcome.fit(fit_rows(ps, budget, eval_kind, model, use_q), eval_kind, players, seconds)
    return model


def cross_fitted(group: list[dict], test_filter, n: int, budget: str, eval_kind: str, use_q: bool,
                 train_filter=lambda p: True) -> list[dict]:
    """The figures of the positions passing test_filter, each under the model fitted on the games of the
    other parity (those passing train_filter)."""
    figs = []
    for half in (0, 1):
        train = [p for p in group if p["game"] % 2 != half and train_filter(p)]
        test = [p for p in group if p["game"] % 2 == half and test_filter(p)]
        if train and test:
            model = fit_setting(train, n, budget, eval_kind, use_q)
            figs += [shown(p, budget, model, eval_kind) for p in test]
    return figs


def log_loss(figs: list[dict]) -> float:
    w = np.clip(np.array([f["win"] for f in figs]), 1e-6, 1 - 1e-6)
    y = np.array([f["won"] for f in figs], float)
    return float(-np.mean(y * np.log(w) + (1 - y) * np.log(1 - w)))


def shown(p: dict, budget: str, model: outcome.Model, eval_kind: str) -> dict:
    """The figures a player reads at position p under the model, and the raw figure of the old display."""
    d = p["decider"]
    model = model.for_position(first_round(p))
    if budget == "0":
        mu = p["mu_net"] if eval_kind == "net" else p["mu_hand"]
        out, raw = outcome.predict(mu, d, p["h"], model, p.get("q_net") if eval_kind == "net" else None), None
    else:
        t = chosen_turn(p, budget, model)
        out, _ = outcome.predict_stats(_stats(t), d, p["h"], model)
        raw = t["win_raw"]
    final = p["final"]
    return dict(win=out.win, vp=out.vp[d], margin=out.margin, raw=raw, won=int(p["winner"] == d),
                final_vp=final[d], final_margin=final[d] - max(v for i, v in enumerate(final) if i != d), h=p["h"],
                game=(p["players"], p["seed"], p["game"]), first_round=first_round(p))


def worst_gap_floor(ses: list[float], rng, draws: int = 2000) -> float:
    """The mean worst decile gap a perfectly calibrated margin would show on these deciles: each decile's gap
    is then only the sampling error of its mean real margin, normal with its standard error; the worst of
    ten such gaps is what sampling noise alone gives (the margin's analogue of the ECE's floor)."""
    se = np.array([x for x in ses if x == x], float)
    if not len(se):
        return float("nan")
    return float(np.abs(rng.standard_normal((draws, len(se))) * se).max(axis=1).mean())


def clustered_se(values: np.ndarray, games: list) -> float:
    """The standard error of the mean of `values` with the positions of one game as one draw (cluster-robust:
    the positions of a game share its final scores, so they are not independent); nan with fewer than two
    games."""
    groups: dict = {}
    for v, g in zip(values - values.mean(), games):
        groups[g] = groups.get(g, 0.0) + v
    n_games = len(groups)
    if n_games < 2:
        return float("nan")
    return float(math.sqrt(sum(x * x for x in groups.values()) * n_games / (n_games - 1)) / len(values))


def measure(figs: list[dict]) -> dict:
    if not figs:
        return {}
    win = np.array([f["win"] for f in figs])
    won = np.array([f["won"] for f in figs], float)
    ece, table = reliability(win, won)
    # what the ECE of a perfectly calibrated figure would be on these many positions (outcomes drawn from
    # the figures themselves): an ECE near it is as good as this sample can tell
    rng = np.random.default_rng(0)
    floor = float(np.mean([reliability(win, (rng.random(len(win)) < win).astype(float))[0] for _ in range(200)]))
    out = dict(positions=len(figs), ece=round(ece, 4), ece_floor=round(floor, 4), reliability=table,
               brier=round(float(np.mean((win - won) ** 2)), 4),
               mean_shown=round(float(win.mean()), 4), rate=round(float(won.mean()), 4))
    for name, sel in (("shown_90_or_more", win >= 0.9), ("shown_10_or_less", win <= 0.1)):
        if sel.any():
            out[name] = dict(n=int(sel.sum()), mean_shown=round(float(win[sel].mean()), 4),
                             rate=round(float(won[sel].mean()), 4))
    if figs[0]["raw"] is not None:
        raw = np.array([f["raw"] for f in figs])
        out["ece_raw"] = round(reliability(raw, won)[0], 4)
        hi = raw >= 0.9
        if hi.any():
            out["raw_90_or_more"] = dict(n=int(hi.sum()), mean_shown=round(float(raw[hi].mean()), 4),
                                         rate=round(float(won[hi].mean()), 4))
    vp = np.array([f["vp"] for f in figs])
    fvp = np.array([f["final_vp"] for f in figs], float)
    margin = np.array([f["margin"] for f in figs])
    fm = np.array([f["final_margin"] for f in figs], float)
    out["vp"] = dict(mean_shown=round(float(vp.mean()), 2), mean_final=round(float(fvp.mean()), 2),
                     mean_abs_error=round(float(np.abs(vp - fvp).mean()), 2))
    order = np.argsort(margin)
    deciles, gaps = [], []
    games = [f["game"] for f in figs]
    for part in np.array_split(order, 10):
        if len(part):
            gaps.append(float(margin[part].mean() - fm[part].mean()))
            # the standard error of the decile's mean real margin: how far its gap can come from the sample,
            # with a game's positions as one draw (they share its final scores)
            se = clustered_se(fm[part], [games[i] for i in part]) if len(part) > 1 else float("nan")
            deciles.append(dict(n=len(part), games=len({games[i] for i in part}),
                                first_round=sum(figs[i]["first_round"] for i in part),
                                players={str(k): v for k, v in sorted(Counter(games[i][0] for i in part).items())},
                                mean_shown=round(float(margin[part].mean()), 2),
                                mean_final=round(float(fm[part].mean()), 2),
                                gap=round(gaps[-1], 2), final_se=round(se, 2)))
    out["margin_deciles"] = deciles
    # from the unrounded gaps: the target (3 VP) is read on this figure
    out["margin_worst_decile_gap"] = round(max(abs(g) for g in gaps), 3)
    out["margin_deciles_beyond_2se"] = sum(abs(x["gap"]) > 2 * x["final_se"] for x in deciles)
    out["margin_worst_decile_floor"] = round(worst_gap_floor([x["final_se"] for x in deciles], rng), 2)
    h = np.array([f["h"] for f in figs])
    stages = {}
    for name, lo, hi_ in (("late (h < 1/3)", -1, 1 / 3), ("middle", 1 / 3, 2 / 3), ("early (h >= 2/3)", 2 / 3, 2)):
        sel = (h >= lo) & (h < hi_) if lo >= 0 else h < hi_
        if sel.sum() >= 10:
            stages[name] = dict(n=int(sel.sum()), ece=round(reliability(win[sel], won[sel])[0], 4),
                                ece_floor=round(float(np.mean([reliability(win[sel], (rng.random(int(sel.sum())) <
                                                                                    win[sel]).astype(float))[0]
                                                               for _ in range(200)])), 4),
                                mean_shown=round(float(win[sel].mean()), 4), rate=round(float(won[sel].mean()), 4))
    out["by_stage"] = stages
    return out


def held_out_report(by_players: dict[int, list[dict]], path: str) -> dict:
    """The figures of the models in the model file at `path` on these positions, no fitting: a test of an
    installed file on positions it was not fitted on. Per player count and budget as the cross-fitted report
    (every searched budget of the positions, and 0), then over all player counts per budget. A setting the
    file has no fitted model for raises outcome.OutcomeModelError."""
    report, pooled = {}, {}
    for n, everything in sorted(by_players.items()):
        searched = [p for p in everything if not p.get("forced")]
        eval_kind = next(iter(searched[0]["searches"].values()))["eval"]
        for budget in sorted(searched[0]["searches"], key=float) + ["0"]:
            model = outcome.find(eval_kind, n, float(budget), path)
            if not model.fitted:
                raise outcome.OutcomeModelError(f"{path} has no model for eval {eval_kind}, {n} players, "
                                                f"{'the position itself' if budget == '0' else budget + ' s'}")
            group = everything if budget == "0" else searched
            figs = [shown(p, budget, model, eval_kind) for p in group]
            report[f"{n}p {budget}s"] = dict(eval=eval_kind, games=len({(p["seed"], p["game"]) for p in group}),
                                             **measure(figs))
            pooled.setdefault(budget, []).extend(figs)
    for budget, figs in pooled.items():
        report[f"all {budget}s"] = measure(figs)
    return report


def markdown(report: dict, command: str, how: str = "cross-fitted") -> str:
    """The main cross-fitted figures per setting, one table row each, under the command that made them."""
    head = ("| setting | positions | ECE (floor) | ECE of the search's own mean win value | shown >= 90 %: n, mean, real | "
            "shown <= 10 %: n, mean, real | VP: shown, real | margin: worst decile gap (floor; deciles beyond 2 SE) | "
            "ECE early / middle / late |")
    lines = [f"Made by `{command}` ({how}; results/outcome/README.md explains the columns).", "", head,
             "|" + "---|" * 9]

    def hi(x):
        return f"{x['n']}, {100 * x['mean_shown']:.1f}, {100 * x['rate']:.1f}" if x else "-"
    for name, v in report.items():
        if not v:
            continue
        st = v.get("by_stage", {})
        stages = " / ".join(f"{st[k]['ece']:.3f}" if k in st else "-"
                            for k in ("early (h >= 2/3)", "middle", "late (h < 1/3)"))
        kept = v.get("win_values", {}).get("kept")
        label = name + (" (with win values)" if kept else "")
        m = v["win_values"]["with_"] if kept else v
        lines.append(f"| {label} | {m['positions']} | {m['ece']:.3f} ({m['ece_floor']:.3f}) | "
                     f"{m['ece_raw']:.3f} | " if m.get("ece_raw") is not None else
                     f"| {label} | {m['positions']} | {m['ece']:.3f} ({m['ece_floor']:.3f}) | - | ")
        lines[-1] += (f"{hi(m.get('shown_90_or_more'))} | {hi(m.get('shown_10_or_less'))} | "
                      f"{m['vp']['mean_shown']:.1f}, {m['vp']['mean_final']:.1f} | {m['margin_worst_decile_gap']:.2f} "
                      f"({m['margin_worst_decile_floor']:.1f}; {m['margin_deciles_beyond_2se']} of "
                      f"{len(m['margin_deciles'])}) | {stages} |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--logs", nargs="+", default=["results/outcome/positions-*p.jsonl"], metavar="GLOB",
                    help="the outcome_data.py logs: one or more glob patterns (quoted), e.g. the 2-player logs of "
                         "one folder and the 3-5 player ones of another")
    ap.add_argument("--write", default=None, metavar="FILE", help="write the models fitted on all positions")
    ap.add_argument("--report", default=None, metavar="FILE")
    ap.add_argument("--markdown", default=None, metavar="FILE", help="the main figures as a Markdown table")
    ap.add_argument("--between", default=None, metavar="FILE",
                    help="a stability_replay.py answer: its per-player-count seed-to-seed spread (`between`, "
                         "tau_vp) goes into every searched setting's model (between_sd); where it names the "
                         "model form it was measured through (`form`), that setting keeps that form instead of "
                         "the one with the lower log loss")
    ap.add_argument("--held-out-with", default=None, metavar="FILE",
                    help="no fitting: measure the models of this model file (e.g. the installed "
                         "concordia_ai/data/value/outcome.json) on the logs' positions, which it must not have "
                         "been fitted on; with --report and --markdown, not --write or --between")
    args = ap.parse_args()
    if args.held_out_with and (args.write or args.between):
        ap.exit(2, "error: --held-out-with measures a model file as it is: it takes no --write or --between\n")
    if args.between:
        try:
            info = safe_read.read_json(args.between)
        except safe_read.UserFileError as e:
            ap.exit(2, f"error: --between: {e}\n")
        try:
            BETWEEN.update({int(n): float(v["tau_vp"]) for n, v in info["between"].items() if n.isdigit()})
            BETWEEN_FORM.update({int(n): str(v.get("form", "unknown")) for n, v in info["between"].items()
                                 if n.isdigit()})
        except (AttributeError, KeyError, TypeError, ValueError):
            ap.exit(2, f"error: --between: {args.between} is not a stability_replay.py answer with per-player "
                       f"`between` figures (tau_vp)\n")
    logs = sorted({f for pattern in args.logs for f in glob.glob(pattern)})
    records = read_logs(logs)
    search = None
    if args.write:
        try:
            search = search_of(records)
        except MixedSearchError as e:
            ap.exit(2, f"error: --write: {e}\n")
    ps = positions(logs, records)
    by_players: dict[int, list[dict]] = {}
    for p in ps:
        by_players.setdefault(p["players"], []).append(p)
    if args.held_out_with:
        held_out(args, logs, ps, by_players)
        return
    searched = {n: [p for p in group if not p.get("forced")] for n, group in by_players.items()}
    report, models, pooled = {}, [], {}
    for n, everything in sorted(by_players.items()):
        eval_kind = next(iter(searched[n][0]["searches"].values()))["eval"]
        budgets = sorted(searched[n][0]["searches"], key=float) + ["0"]
        for budget in budgets:
            # a position with one legal turn is shown without a search: it counts at 0 s only
            group = everything if budget == "0" else searched[n]
            # the model without the win values (w = 0), on every position
            figs = cross_fitted(group, lambda p: True, n, budget, eval_kind, False)
            m = measure(figs)
            entry = dict(eval=eval_kind, games=len({(p["seed"], p["game"]) for p in group}), **m)
            use_q = False
            with_q = [p for p in group if has_win_values(p, budget)]
            if len(with_q) >= 100:
                # and with them, on the positions that recorded them; the one with the lower cross-fitted log
                # loss of the winner there (the same positions for both) is kept
                q_only = lambda p: has_win_values(p, budget)   # noqa: E731
                figs_q = cross_fitted(group, q_only, n, budget, eval_kind, True, q_only)
                figs_plain = cross_fitted(group, q_only, n, budget, eval_kind, False)
                use_q, why = model_form(n, budget, log_loss(figs_q) < log_loss(figs_plain))
                entry["win_values"] = dict(positions=len(with_q), log_loss_with=round(log_loss(figs_q), 4),
                                           log_loss_without=round(log_loss(figs_plain), 4), kept=use_q, why=why,
                                           with_=measure(figs_q), without=measure(figs_plain))
                if use_q:
                    figs, m = figs_q, entry["win_values"]["with_"]
            report[f"{n}p {budget}s"] = entry
            pooled.setdefault(budget, []).extend(figs)
            final = fit_setting(with_q if use_q else group, n, budget, eval_kind, use_q)
            models.append(dict(final.to_dict(), positions=len(with_q if use_q else group),
                               games=len({(p["seed"], p["game"]) for p in (with_q if use_q else group)}),
                               cross_fitted_ece=m.get("ece")))
    for budget, figs in pooled.items():
        report[f"all {budget}s"] = measure(figs)
    command = "python3 " + shlex.join(sys.argv)
    summary = dict(command=command, logs=logs, positions=len(ps), settings=report)
    if args.write:
        write_atomic(args.write, json.dumps(dict(format=outcome.FORMAT, command=command, logs=logs,
                                                 search=search, models=models), indent=1) + "\n")
    text = json.dumps(summary, indent=1)
    if args.markdown:
        write_atomic(args.markdown, markdown(report, command) + "\n")
    if args.report:
        write_atomic(args.report, text + "\n")
    print(text)


def refuse(message: str) -> None:
    """Bad input: one line on stderr, exit code 2."""
    print(f"error: {message}", file=sys.stderr)
    sys.exit(2)


def held_out(args, logs: list[str], ps: list[dict], by_players: dict[int, list[dict]]) -> None:
    """--held-out-with: the file's figures on the logs' positions, reported as the cross-fitted ones are."""
    try:
        info = safe_read.read_json(args.held_out_with)
    except safe_read.UserFileError as e:
        refuse(f"--held-out-with: {e}")
    named = info.get("logs", []) if isinstance(info, dict) else []
    fitted_on = {str(Path(f).resolve()) for f in named if isinstance(f, str)} if isinstance(named, list) else set()
    overlap = sorted(f for f in logs if str(Path(f).resolve()) in fitted_on)
    if overlap:
        refuse(f"--held-out-with: {args.held_out_with} was fitted on {overlap[0]}; give logs it was not fitted on")
    try:
        report = held_out_report(by_players, args.held_out_with)
    except outcome.OutcomeModelError as e:
        refuse(f"--held-out-with: {e}")
    command = "python3 " + shlex.join(sys.argv)
    text = json.dumps(dict(command=command, logs=logs, positions=len(ps), model_file=args.held_out_with,
                           settings=report), indent=1)
    if args.markdown:
        write_atomic(args.markdown, markdown(report, command, "the file's models, no fitting") + "\n")
    if args.report:
        write_atomic(args.report, text + "\n")
    print(text)


if __name__ == "__main__":
    main()
