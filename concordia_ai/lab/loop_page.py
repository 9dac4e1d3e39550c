"""The results page of a learning-loop generation (ROOT/gen-N/README.md), written from its state
(generation.json: the settings and every step's figures) by lab.loop after every step."""
from __future__ import annotations

import json


def _knobs(d: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in d.items()) or "(today's default search)"


def _pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def render_page(state: dict) -> str:
    s, steps, inc = state["settings"], state["steps"], state["incumbent"]
    n = state["generation"]
    lines = [f"# Learning loop: generation {n}", ""]
    decision = steps.get("decision")
    if decision:
        lines.append(f"**{decision['verdict']}**" + (f": weights installed in `{decision['installed']}`"
                                                      if decision.get("kept") else "") + ".")
    else:
        done = [k for k in ("selfplay", "policy", "value", "gate_fixed", "gate_time") if k in steps]
        lines.append(f"In progress (steps done: {', '.join(done) or 'none'}); rerun the command below to go on.")
    lines += ["", "## The sides", "",
              f"- incumbent: generation {inc['generation']}, search `{_knobs(inc['search'])}`, prior "
              f"{'`' + inc['weights'] + '`' if inc.get('weights') else 'none'}"
              + (f", value model `{inc['value_weights']}`" if inc.get("value_weights") else ""),
              f"- candidate: the incumbent's knobs with `{s['candidate']}`, the prior trained here "
              f"(`{s['root']}/gen-{n}/weights`)"
              + (f", the value model trained here (`{s['root']}/gen-{n}/value-weights`)" if s.get("value_gate")
                 else ""), ""]
    lines += _selfplay(steps.get("selfplay"))
    lines += _policy(steps.get("policy"))
    lines += _value(steps.get("value"), s)
    lines += ["## The gate", "",
              f"Seat-rotated games of {s['gate_players']}-player {s['gate_board']}, the candidate in one seat and "
              f"the incumbent in the others; an SPRT on the candidate's wins, H0: the fair share, H1: the fair "
              f"share + {s['gate_delta']} (alpha {s['gate_alpha']}, beta {s['gate_beta']}); first at fixed "
              f"iterations (stops the generation if \"worse\"), then at equal time (kept only if \"better\").", ""]
    for stage in ("fixed", "time"):
        lines += _gate(steps.get(f"gate_{stage}"), stage)
    lines += ["## Commands", "", "```", s.get("command") or "(run through concordia_ai.lab.loop)", "```", ""]
    pol = steps.get("policy")
    if pol:
        lines += ["Its steps, as run:", "", "```", pol["command"]]
        if steps.get("value"):
            lines.append(steps["value"]["command"])
        lines += ["```", ""]
    lines += ["Settings: [generation.json](generation.json). Gate games (one JSON line each, with the moves): "
              "[gate-fixed.jsonl](gate-fixed.jsonl), [gate-time.jsonl](gate-time.jsonl).", ""]
    return "\n".join(lines)


def _selfplay(sp: dict | None) -> list[str]:
    if not sp:
        return ["## Self-play", "", "Not done yet.", ""]
    out = ["## Self-play", "",
           f"Search `{_knobs(sp['search'])}` in every seat, boards {sp['boards']}, players {sp['players']}, seed "
           f"{sp['seed']}; playout cap: " + (f"a share {sp['cap']['share']} of the decisions at the full budget "
                                             f"(recorded), the rest at {sp['cap']['fast']} iterations"
                                             if sp.get("cap") else "none (every decision recorded)") + ".", "",
           "| chunk | game ids | kept | searched full / fast | recorded decisions | rows | wall s | CPU s |",
           "|---|---|---|---|---|---|---|---|"]
    for path, info in zip(sp["chunks"], sp["infos"]):
        first = info["first_id"]
        out.append(f"| `{path.rsplit('/', 1)[-1]}` | {first}-{first + info['games_asked'] - 1} | "
                   f"{info['games_kept']} | {info['searched']['full']} / {info['searched']['fast']} | "
                   f"{info['decisions']} | {info['rows']} | {info['seconds']} | {info.get('cpu_seconds', '')} |")
    out += ["", f"The chunks' npz: {sp['npz_bytes'] / 1e6:.2f} MB in all.", "",
            "The targets' sharpness (mean over the recorded decisions, nats):", "",
            "| target | mean entropy | mean KL to uniform | uniform's entropy |", "|---|---|---|---|"]
    for kind in ("visits", "pruned", "improved"):
        rows = [i["targets"][kind] for i in sp["infos"] if i["targets"][kind]["decisions"]]
        d = sum(r["decisions"] for r in rows)
        if not d:
            continue
        mean = {k: sum(r[k] * r["decisions"] for r in rows) / d
                for k in ("mean_entropy", "mean_kl_uniform", "mean_uniform_entropy")}
        out.append(f"| {kind} | {mean['mean_entropy']:.4f} | {mean['mean_kl_uniform']:.4f} | "
                   f"{mean['mean_uniform_entropy']:.4f} |")
    return out + [""]


def _policy(pol: dict | None) -> list[str]:
    if not pol:
        return ["## Training", "", "Not done yet.", ""]
    r = pol["report"]
    dec = r["decisions"]
    out = ["## Training", "",
           f"The policy prior on the `{r['target']}` target: {r['games']} games, decisions train {dec['train']}, "
           f"validation {dec['validation']} (game id % 10 == 0), test {dec['test']} (id % 10 == 5); best "
           f"validation cross-entropy {r['fit']['validation_ce']} at step {r['fit']['best_step']}; "
           f"{r.get('cpu_seconds')} CPU s.", "",
           "| test games | decisions | CE prior | CE uniform | CE greedy | target entropy | KL prior | top-1 prior | "
           "top-1 greedy |", "|---|---|---|---|---|---|---|---|---|"]
    rows = [("all", r["test"])] + [(f"{n} players", t) for n, t in r.get("test_by_count", {}).items()]
    for label, t in rows:
        out.append(f"| {label} | {t.get('decisions', dec['test'])} | {t['ce_policy']} | {t['ce_uniform']} | "
                   f"{t['ce_greedy']} | {t['ce_floor_target_entropy']} | {t['kl_policy']} | {t['top1_policy']} | "
                   f"{t['top1_greedy']} |")
    for n, p in r.get("per_count", {}).items():
        out.append(f"\n{n} players: a set of its own has validation CE {p['validation_ce_own']} against the "
                   f"shared set's {p['validation_ce_shared']}: the {p['chosen']} set is written.")
    return out + [""]


def _value(val: dict | None, s: dict) -> list[str]:
    if not s.get("value"):
        return ["The value model: not trained in this generation (--no-value).", ""]
    if not val:
        return ["The value model: not trained yet.", ""]
    # a generation trained before the loop wrote the value weights has the report alone
    kept = "its weights in `value-weights/`" if val.get("weights") else "a report only"
    gated = ("the candidate searches with it in the gate (--value-gate)" if s.get("value_gate")
             else "the gate does not measure it")
    window = val.get("window") or []
    games = ("the same games' turn starts" if not window else
             "the turn starts of the same games and of generation" + ("s " if len(window) > 1 else " ")
             + ", ".join(map(str, window)) + "'s self-play")
    held = "Held-out games (id % 10 == 0" + (", this generation's only" if window else "") + ")"
    out = [f"The value model (scripts/train_value.py on {games}; {kept}, never installed: "
           f"{gated}). " + _value_targets(val) +
           f" {held}, against the games' results:", "",
           "| players | positions | log loss | uniform | Brier | ECE | VP MAE |", "|---|---|---|---|---|---|---|"]
    for n, h in val["holdout"].items():
        if not h["positions"]:
            out.append(f"| {n} | 0 (no held-out game) | | | | | |")
            continue
        out.append(f"| {n} | {h['positions']} | {h['log_loss']:.4f} | {h['log_loss_uniform']:.4f} | "
                   f"{h['brier']:.4f} | {h['ece']:.4f} | {h['vp_mae']:.2f} |")
    return out + [""]


def _value_targets(val: dict) -> str:
    weight = val.get("search_target", 0)
    if not weight:
        return "Targets: the games' results (the winner, the final VP)."
    took = ", ".join(f"{n} players {k} of {m}" for n, (k, m) in val.get("search_positions", {}).items())
    return (f"Targets: the games' results mixed with the self-play searches' own estimates at weight {weight} "
            f"(training positions with an estimate: {took}).")


def _gate(g: dict | None, stage: str) -> list[str]:
    title = "At fixed iterations" if stage == "fixed" else "At equal time"
    if not g:
        return [f"### {title}", "", "Not played.", ""]
    status = " (running)" if g.get("running") else ""
    return [f"### {title}{status}", "",
            f"Budget `{json.dumps(g['budget'])}`; deals {g['seeds'][0]}-{g['seeds'][1]}.", "",
            "| games counted (played) | wins | win rate (95 % CI) | fair share | mean margin | ms per move "
            "(candidate / incumbent) | LLR (bounds) | decision |", "|---|---|---|---|---|---|---|---|",
            f"| {g['games']} ({g['played']}) | {g['wins']} | {_pct(g['win_rate'])} ({_pct(g['ci95'][0])}-"
            f"{_pct(g['ci95'][1])}) | {_pct(g['fair_share'])} | {g['mean_margin']:+.1f} | "
            f"{g['cand_ms_per_move']} / {g['inc_ms_per_move']} | {g['llr']} ({g['bounds'][0]}, {g['bounds'][1]}) | "
            f"**{g['decision']}** |", ""]
