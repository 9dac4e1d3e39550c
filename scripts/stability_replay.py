#!/usr/bin/env python3
"""Replay other final picks on a recorded stability sweep, without searching again.

    python3 scripts/stability.py --positions 52 --seeds 5 --budgets 3 --bot ismcts:focus=0.25 \
        --tie-rounds 99 --record --jobs 2 --out results/stability-focus/record_tie99.json
    python3 scripts/stability_replay.py --log results/stability-focus/record_tie99.json.positions.jsonl \
        --out results/stability-focus/replay.json

The sweep's log keeps every seed's whole turns with their shown figures (stability.py --record). For each
setting of the final pick's tie rule (search.TIE_WIN, TIE_Z, TIE_VISITS, TIE_ROUNDS) this replays
search.final_pick on every recorded search and prints JSON:

- `stable`: positions (of the log) where every seed's pick is the same turn;
- `regret`: the mean, over positions and seeds, of how much lower the pick's pooled win share is than the
  best pooled one among the turns any seed kept to the final round. "Pooled" is the visit-weighted mean of
  a turn's shown win share over the seeds that listed it: five searches' evidence, a better estimate of a
  turn's worth than any one search's. A rule that is stable by ignoring the evidence shows here.
- `se_ratio` (once, for the log): the spread of a turn's win share from seed to seed, over the shown
  standard error, for turns on at least 1,000 visits in at least three seeds: how far the shown ± can be
  read as the noise between searches (1 would be exact).
- `between` (once, for a log whose turns record their slope, stability.py since 2026-12-04): per player
  count, the seed-to-seed spread of a node's mean margin beyond its sampling error, in VP (what
  outcome.Model.between_sd adds to the standard error): the tau for which the median, over the turns of
  `se_ratio`, of the seeds' spread over sqrt(se^2 + slope^2 tau^2 / k) is 1 (0 when it is 1 or less without
  it), where k is the searches each hint merged (the sweep's `jobs`): tau is per search, as the model file
  holds it. The median, because the spread is heavy-tailed: a least-squares tau follows the few turns whose
  lines differ from seed to seed and makes the error too wide for most. Cross-checked: fitted on the
  positions of one parity, the median ratio of the other (`ratio_before`, `ratio_with`); and the share of
  turns whose spread is within one and two of the errors, before and after (`within_1`, `within_2`).
  One sweep of 52 positions pins tau down poorly (3 players: 0.52 VP on one sweep of a search, 3.04 on the
  next), so `--log` repeats: `between` then pools the sweeps (each with its own --sweep-models file, in the
  order of --log; `between_logs` lists them) and the tie rules are replayed on the first log. Each count's
  `form` names the model form the sweeps' figures came through (`win values`, `margin`, `mixed`, `unknown`):
  tau is fitted through that form's slopes and holds for it alone (scripts/outcome_fit.py keeps it). A player
  count is pooled only over the sweeps whose evaluation of it (read from their --sweep-models file) is the
  first log's: `between_logs` names each log's `evals` and the counts it `left_out`.

The halving itself (the core's) is as recorded: only the last pick among its turns is replayed. With several
--log, every rule is also replayed on every log (`today_all_logs`, `rules_all_logs`: a rule chosen on one sweep
must hold on the others). --between replays the picks with the errors another between_sd would show, and
--tie-key with the tie rule's key made again by another evaluation (search.end_advantage).
"""
from __future__ import annotations

import argparse
import itertools
import json
import math
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from concordia_ai.ai import outcome  # noqa: E402
from concordia_ai.ai import search  # noqa: E402
from concordia_ai.ai.search import TurnCandidate, final_pick  # noqa: E402
from concordia_ai.ai.bots import parse_spec  # noqa: E402
from concordia_ai.engine.errors import ConcordiaError  # noqa: E402
from concordia_ai.io import safe_read  # noqa: E402
from concordia_ai.io.atomic_write import write_atomic  # noqa: E402
from concordia_ai.io.jsonl import read_records  # noqa: E402

RULE_KEYS = ("TIE_WIN", "TIE_Z", "TIE_VISITS", "TIE_ROUNDS")


def candidates(records: list[dict]) -> list[TurnCandidate]:
    out = []
    for r in records:
        t = TurnCandidate(list(r["moves"]), [], r["visits"], 0.0, r["win"], r["vp"], 0.0, r["win_se"],
                          focus=r["focus"], candidate=r["candidate"])
        t._advantage = r["advantage"]
        out.append(t)
    return out


def pick(records: list[dict]) -> tuple | None:
    p = final_pick(None, candidates(records), advantage=lambda t: t._advantage)
    return tuple(p.moves) if p else None


def pooled(searches: list[list[dict]]) -> dict[tuple, float]:
    """Each turn's visit-weighted mean win share over the searches that listed it."""
    acc: dict[tuple, list[float]] = {}
    for recs in searches:
        for r in recs:
            a = acc.setdefault(tuple(r["moves"]), [0.0, 0.0])
            a[0] += r["win"] * r["visits"]
            a[1] += r["visits"]
    return {k: (w / n if n else 0.0) for k, (w, n) in acc.items()}


def reproduced(rows: list[dict], budget: str) -> str:
    """How many recorded searches today's rule picks again as recorded (a check of the replay itself)."""
    searches = [recs for row in rows for recs in row["turns"][budget]]
    same = sum(pick(recs) == next((tuple(r["moves"]) for r in recs if r["chosen"]), None) for recs in searches)
    return f"{same} of {len(searches)}"


def se_ratio(rows: list[dict], budget: str, min_visits: int = 1000) -> dict:
    ratios = []
    for row in rows:
        by_turn: dict[tuple, list[dict]] = {}
        for recs in row["turns"][budget]:
            for r in recs:
                if r["visits"] >= min_visits:
                    by_turn.setdefault(tuple(r["moves"]), []).append(r)
        for rs in by_turn.values():
            if len(rs) >= 3:
                spread = statistics.stdev(r["win"] for r in rs)
                se = statistics.fmean(r["win_se"] for r in rs)
                if se > 0:
                    ratios.append(spread / se)
    ratios.sort()
    if not ratios:
        return dict(turns=0)
    q = lambda f: round(ratios[min(len(ratios) - 1, int(f * len(ratios)))], 2)  # noqa: E731
    return dict(turns=len(ratios), median=q(0.5), p25=q(0.25), p75=q(0.75), p90=q(0.9))


def _spread_turns(rows: list[dict], budget: str, min_visits: int = 1000, included: dict | None = None):
    """(players, position, spread^2, mean se^2, mean slope^2) of every turn on min_visits or more visits in
    three seeds or more whose records hold the slope. `included`: per player count, the between_sd (VP) the
    sweep's shown errors already held (the model it ran with); its part slope^2 between^2 is taken out of
    se^2, so that tau is the whole seed-to-seed spread beyond the sampling error, as Model.between_sd means. A
    row's own `included` (a pooled sweep's: main) comes first."""
    out = []
    for row in rows:
        mine = row.get("included", included) or {}
        k = searches_of(row)
        by_turn: dict[tuple, list[dict]] = {}
        for recs in row["turns"][budget]:
            for r in recs:
                if r["visits"] >= min_visits and "slope" in r:
                    by_turn.setdefault(tuple(r["moves"]), []).append(r)
        for rs in by_turn.values():
            if len(rs) >= 3:
                b = mine.get(row["players"], 0.0)
                se2 = statistics.fmean(max(r["win_se"] ** 2 - (r["slope"] * b) ** 2 / k, 0.0) for r in rs)
                out.append((row["players"], row["position"], statistics.variance(r["win"] for r in rs),
                            se2, statistics.fmean(r["slope"] ** 2 for r in rs) / k))
    return out


def searches_of(row: dict) -> int:
    """How many searches each of the row's hints merged (its bot spec's `jobs`, 1 without): a hint pooling k
    searches shows between_sd^2 / k of seed-to-seed variance (outcome.predict_stats), so tau is fitted per
    search, as Model.between_sd means it, and a sweep of k threads reads its spread against slope^2 tau^2 / k."""
    try:
        return max(1, int(parse_spec(row.get("bot", "ismcts"))[1].get("jobs", 1)))
    except (ConcordiaError, ValueError, TypeError):
        return 1


def _median_ratio(turns, tau: float) -> float:
    return statistics.median(math.sqrt(sp / (se + sl * tau * tau)) for _, _, sp, se, sl in turns)


def _within(turns, tau: float, z: float) -> float:
    return sum(math.sqrt(sp) <= z * math.sqrt(se + sl * tau * tau) for _, _, sp, se, sl in turns) / len(turns)


def _tau(turns) -> float:
    """The tau (VP) that brings the median ratio to 1, by bisection (0 when it is 1 or less already)."""
    turns = [t for t in turns if t[3] > 0]
    if not turns or _median_ratio(turns, 0.0) <= 1.0:
        return 0.0
    lo, hi = 0.0, 20.0
    for _ in range(50):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if _median_ratio(turns, mid) > 1.0 else (lo, mid)
    return (lo + hi) / 2


def between(rows: list[dict], budget: str, included: dict | None = None) -> dict:
    turns = _spread_turns(rows, budget, included=included)
    if not turns:
        return dict(turns=0)
    out = {}
    for n in sorted({t[0] for t in turns}):
        mine = [t for t in turns if t[0] == n and t[3] > 0]
        ratios_before, ratios_after, within = [], [], {1: [0, 0], 2: [0, 0]}
        for half in (0, 1):
            tau = _tau([t for t in mine if t[1] % 2 != half])
            test = [t for t in mine if t[1] % 2 == half]
            for _, _, sp, se, sl in test:
                ratios_before.append(math.sqrt(sp / se))
                ratios_after.append(math.sqrt(sp / (se + sl * tau * tau)))
            for z in (1, 2):
                within[z][0] += _within(test, 0.0, z) * len(test) if test else 0
                within[z][1] += _within(test, tau, z) * len(test) if test else 0
        med = lambda xs: round(statistics.median(xs), 2) if xs else None  # noqa: E731
        share = lambda k: round(k / len(mine), 2) if mine else None  # noqa: E731
        out[str(n)] = dict(turns=len(mine), tau_vp=round(_tau(mine), 3), ratio_before=med(ratios_before),
                           ratio_with=med(ratios_after), within_1=[share(within[1][0]), share(within[1][1])],
                           within_2=[share(within[2][0]), share(within[2][1])])
    return out


def model_form(m: outcome.Model) -> str:
    """Which form of the final-result model a sweep's figures came through: `win values` (the term w, the
    seat's mean win value beside its margin) or `margin` alone. The seed-to-seed spread `between` is fitted in
    VP through the recorded slopes, which are the margin's slopes of that form: with w the margin carries less
    of the figure, so its slope is flatter and the same spread of the figure reads as a larger tau. A tau holds
    only for the form it was measured through (scripts/outcome_fit.py keeps that form)."""
    return "win values" if any(m.w) else "margin"


def with_forms(between_out: dict, forms: dict[int, set]) -> dict:
    """`between` with each player count's `form`: the model form every pooled sweep ran with, `mixed` when
    they differ, `unknown` without --sweep-models."""
    for n, v in between_out.items():
        if n.isdigit():
            f = forms.get(int(n), {"unknown"})
            v["form"] = next(iter(f)) if len(f) == 1 else "mixed"
    return between_out


def replay(rows: list[dict], budget: str, rule: dict) -> dict:
    saved = {k: getattr(search, k) for k in RULE_KEYS}
    try:
        for k, v in rule.items():
            setattr(search, k, v)
        stable, regrets = 0, []
        for row in rows:
            searches = row["turns"][budget]
            picks = [pick(recs) for recs in searches]
            stable += len(set(picks)) == 1
            worth = pooled(searches)
            kept = {tuple(r["moves"]) for recs in searches for r in recs
                    if r["candidate"] and r["focus"] == max((x["focus"] for x in recs), default=0)}
            best = max((worth[m] for m in kept), default=0.0)
            regrets += [max(0.0, best - worth[p]) for p in picks if p is not None]
        return dict(rule, stable=stable, positions=len(rows), stable_share=round(stable / len(rows), 3),
                    regret=round(statistics.fmean(regrets), 5) if regrets else None,
                    regret_max=round(max(regrets), 4) if regrets else None)
    finally:
        for k, v in saved.items():
            setattr(search, k, v)


def with_between(rows: list[dict], budget: str, tau: dict[int, float]) -> list[dict]:
    """The rows with every turn's shown error as a model file of seed-to-seed spread `tau` (VP per search, by
    player count; --between) would show it: the part the sweep's own model held (the row's `included`) taken
    out and tau's put in, through the turn's recorded slope, over the searches each hint merged. What a new
    between_sd does to the final pick, whose tie margin is in standard errors (search.tie_margin)."""
    out = []
    for row in rows:
        n, k = row["players"], searches_of(row)
        if n not in tau:
            out.append(row)
            continue
        held = (row.get("included") or {}).get(n, 0.0)
        searches = [[dict(r, win_se=math.sqrt(max(r["win_se"] ** 2 - (r["slope"] * held) ** 2 / k, 0.0)
                                              + (r["slope"] * tau[n]) ** 2 / k)) if "slope" in r else r
                     for r in recs] for recs in row["turns"][budget]]
        out.append(dict(row, turns=dict(row["turns"], **{budget: searches})))
    return out


def _same_eval(first: str | None, this: str | None) -> bool:
    """Two sweeps evaluated a player count alike (an unknown evaluation, without --sweep-models, counts alike)."""
    return first is None or this is None or first == this


def rekeyed(rows: list[dict], budget: str, eval_kind: str) -> list[dict]:
    """The rows with every turn's tie key (`advantage`) made again by `eval_kind` (search.end_advantage on the
    sweep's position, stability.position): how a sweep recorded under one key replays under another."""
    from stability import position
    from concordia_ai.ai.search import end_advantage
    if eval_kind == "net":
        from concordia_ai.ai import value
        value.ensure_loaded()
    out = []
    for row in rows:
        game, keys = position(row["position"]), {}
        searches = []
        for recs in row["turns"][budget]:
            for r in recs:
                m = tuple(r["moves"])
                if m not in keys:
                    keys[m] = end_advantage(game, list(m), eval_kind)
            searches.append([dict(r, advantage=keys[tuple(r["moves"])], advantage_eval=eval_kind) for r in recs])
        out.append(dict(row, turns=dict(row["turns"], **{budget: searches})))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--log", required=True, action="append",
                    help="a stability.py --record log (JSONL); repeat to pool sweeps of one search for `between` "
                         "(the tie rules are then replayed on the first log only)")
    ap.add_argument("--budget", default=None, help="the recorded budget to replay (default: the first)")
    ap.add_argument("--tie-win", default="0.005,0.01,0.02,0.03")
    ap.add_argument("--tie-z", default="2,3,4,6")
    ap.add_argument("--tie-visits", default="0.25,0.1")
    ap.add_argument("--tie-rounds", default="1,99")
    ap.add_argument("--sweep-models", default=None, metavar="FILE", action="append",
                    help="the final-result model file the sweep ran with, when its models had a between_sd: its "
                         "part of the recorded errors is taken out before `between` is fitted (default: none); "
                         "with several --log, one per log in the same order")
    ap.add_argument("--between", default=None, metavar="FILE",
                    help="replay the picks with the shown errors a model of this seed-to-seed spread would show "
                         "(a stability_replay.py answer: its `between`, VP per search by player count), in place "
                         "of the part the sweep's own model held (its --sweep-models)")
    ap.add_argument("--tie-key", choices=("recorded", "net", "hand"), default="recorded",
                    help="the tie rule's key: as recorded, or made again on each turn's end position by the value "
                         "model (net) or the hand formula (hand), as search.end_advantage gives it")
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    models = args.sweep_models or []
    if len(models) > 1 and len(models) != len(args.log):
        ap.exit(2, f"error: --sweep-models: {len(models)} files for {len(args.log)} logs; give one per log, in "
                   f"the order of --log, or one for all\n")
    sweeps = []
    for k, log in enumerate(args.log):
        try:
            rows = [r for r in read_records(log) if "turns" in r]
        except ConcordiaError as e:
            ap.exit(2, f"error: {e}\n")
        if not rows:
            ap.exit(2, f"error: {log} holds no recorded turns (run stability.py with --record)\n")
        sweeps.append((rows, models[k] if len(models) > 1 else (models[0] if models else None)))
    rows = sweeps[0][0]
    budget = args.budget or next(iter(rows[0]["turns"]))
    if any(budget not in r["turns"] for rows_k, _ in sweeps for r in rows_k):
        ap.exit(2, f"error: --log: not every log recorded the budget {budget}; pool sweeps of one budget\n")
    pooled_rows, per_log, forms, first_eval, log_included = [], [], {}, {}, []
    for log, (rows_k, model_file) in zip(args.log, sweeps):
        included, form, evals = {}, {}, {}
        if model_file:
            try:
                outcome.load(model_file)
            except ConcordiaError as e:
                ap.exit(2, f"error: --sweep-models: {e}\n")
            fitted = outcome.fitted_search(model_file) or {}
            for n in {r["players"] for r in rows_k}:  # the evaluation the sweep's `auto` stood for (recorded_eval)
                evals[n] = outcome.recorded_eval(fitted, n)
                m = outcome.find(evals[n], n, float(budget), model_file)
                included[n] = m.between_sd
                form[n] = model_form(m)
        # a player count is pooled only over sweeps that evaluated it as the first log did (2 players: the hand
        # formula until 2026-12-04, the value model since): another evaluation's spread is another search's
        kept = {n for n in {r["players"] for r in rows_k} if _same_eval(first_eval.setdefault(n, evals.get(n)),
                                                                      evals.get(n))}
        for n in kept:
            forms.setdefault(n, set()).add(form.get(n, "unknown"))
        pooled_rows += [dict(r, included=included) for r in rows_k if r["players"] in kept]
        log_included.append(included)
        per_log.append(dict(log=log, positions=len(rows_k),
                            between_included={str(n): b for n, b in sorted(included.items())},
                            forms={str(n): f for n, f in sorted(form.items())},
                            evals={str(n): e for n, e in sorted(evals.items())},
                            left_out=[n for n in sorted({r["players"] for r in rows_k}) if n not in kept]))
    included = pooled_rows[0]["included"]
    grid = [dict(TIE_WIN=w, TIE_Z=z, TIE_VISITS=v, TIE_ROUNDS=r) for w, z, v, r in itertools.product(
        [float(x) for x in args.tie_win.split(",")], [float(x) for x in args.tie_z.split(",")],
        [float(x) for x in args.tie_visits.split(",")], [int(x) for x in args.tie_rounds.split(",")])]
    today = {k: getattr(search, k) for k in RULE_KEYS}
    fitted = with_forms(between(pooled_rows, budget), forms)
    replayed = [[dict(r, included=inc) for r in rows_k] for (rows_k, _), inc in zip(sweeps, log_included)]
    if args.tie_key != "recorded":
        replayed = [rekeyed(rows_k, budget, args.tie_key) for rows_k in replayed]
    tau = None
    if args.between:
        try:
            answer = safe_read.read_json(args.between)
        except ConcordiaError as e:
            ap.exit(2, f"error: --between: {e}\n")
        try:
            tau = {int(n): float(v["tau_vp"]) for n, v in answer["between"].items() if n.isdigit() and "tau_vp" in v}
        except (ValueError, KeyError, TypeError, AttributeError) as e:
            ap.exit(2, f"error: --between: {args.between}: not a stability_replay.py answer with `between` ({e})\n")
        replayed = [with_between(rows_k, budget, tau) for rows_k in replayed]
    first = replayed[0]
    out = dict(command="python3 scripts/stability_replay.py " + " ".join(sys.argv[1:]), budget=budget,
               positions=len(rows), reproduced=reproduced(rows, budget), se_ratio=se_ratio(rows, budget),
               between=fitted,
               between_included={str(n): b for n, b in sorted(included.items())},
               between_logs=per_log,
               replayed_with_between={str(n): t for n, t in sorted(tau.items())} if tau else None,
               tie_key=args.tie_key,
               today=replay(first, budget, today),
               rules=sorted((replay(first, budget, g) for g in grid), key=lambda d: (-d["stable"], d["regret"] or 0)))
    if len(replayed) > 1:     # every rule on every sweep: a rule chosen on one sweep must hold on the others
        def on_all(rule):
            each = [replay(rows_k, budget, rule) for rows_k in replayed]
            return dict(rule, stable_by_log=[e["stable"] for e in each], stable=sum(e["stable"] for e in each),
                        positions=sum(e["positions"] for e in each),
                        regret=round(statistics.fmean(e["regret"] or 0.0 for e in each), 5))
        out["today_all_logs"] = on_all(today)
        out["rules_all_logs"] = sorted((on_all(g) for g in grid), key=lambda d: (-d["stable"], d["regret"]))
    text = json.dumps(out, indent=1)
    if args.out:
        write_atomic(args.out, text + "\n")
    print(text)


if __name__ == "__main__":
    main()
