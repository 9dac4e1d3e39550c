#!/usr/bin/env python3
"""Benchmark the ISMCTS search loop (cext/ismcts.pxi) at the 4-player opening and at a mid-game position.
Prints human lines, then ONE JSON object on the last line.

    python3 scripts/bench_search.py --board imperium --players 4 --reps 5

Every rate is the median of --reps repetitions of one single-threaded search (jobs=1, one core), timed by
the core itself with clock() (CPU time). Configurations measured:
  default   SearchConfig() defaults: PUCT with the learned prior, c_puct 0.25 (growing by c_puct_log "auto":
            0.45 with 3-5 players, 0 with 2), the value model at the cut-off
            (rollout_turns=4 since generation 5, random rollouts, root floor)
  before_gen5  the default until generation 5 (search.BEFORE_GEN5): 8 random turns, the weights of before
            (the package's kept set before-gen5)
  ucb       the default before 2026-12-04 (search.UCB_DEFAULT): select="ucb", no prior
  hand      the default before the value model: UCB, eval="hand", root_floor=0
  full      rollout_turns=0: uniformly random rollouts to the end of the game, otherwise the defaults
  greedy    rollout="greedy" (epsilon-greedy one-step lookahead), otherwise the defaults
  net       eval="net": the value model judges the cut-off (also with 2 players), otherwise the defaults
  net_r2    eval="net", rollout_turns=2
  policy    UCB with the learned prior in the tree (PUCT term, prior-sampled expansion)
  policy_ro the same with rollout="policy": rollout moves drawn from the prior
  puct      select="puct" with a uniform prior (children made at a node's second visit, PUCT with first-play urgency)
  puct_heur select="puct", prior=true: the heuristic's prior (softmax of the greedy values), once per node
  puct_pol  select="puct", policy=1.0: the learned prior, once per node (the default's selection)
  leaf_mix  leaf_mix=0.5: the leaf judged before its rollout too (one more evaluation an iteration)
  minimax   minimax_mix=0.3: implicit minimax backups (the same evaluation, backed up max^n)
  rt4       rollout_turns=4 (the learning loop's cut-off; the default's since generation 5)
  rt8       rollout_turns=8 (the default's before generation 5), otherwise the defaults
  rt4_pol   rollout_turns=4, rollout="policy": the 4 turns' moves drawn from the learned prior
  oma       opponents="oma": opponent move abstraction (the others' moves lead to one shared node)
--values A,B runs each compared configuration once with each value weight set (a directory of weights.npz
and weights.json, or "shipped"), alternated in the same rounds: e.g. the two feature layouts of docs/value.md.
The value model's forward pass (every seat of one state) and the policy's prior over every legal move are
also timed on their own, at both positions. The policy rows need the shipped policy weights
(concordia_ai/data/policy/); without them they are left out and the reason is printed.
The mid-game position is reached by heuristic bots from --seed, stopped at the first 'play' decision of
turn --mid-turn or later.

    python3 scripts/bench_search.py --compare ucb,default,policy,puct,puct_heur --reps 9

--compare measures only the named configurations, at the opening, alternating them search by search (one
search of each per round, --reps rounds), so that a change of load falls on all of them alike; it prints the
median rates, each one's ratio to the first, and the prior evaluations per iteration (prior_calls).
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import time

from machine_info import machine

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from concordia_ai import core  # noqa: E402
from concordia_ai.ai import policy, value  # noqa: E402
from concordia_ai.ai.bots import make_bot, play_game  # noqa: E402
from concordia_ai.engine.game import Game  # noqa: E402
from concordia_ai.ai.search import SearchConfig, search  # noqa: E402
from concordia_ai.engine.errors import ConcordiaError  # noqa: E402
from concordia_ai.lab import value_weights  # noqa: E402

CONFIGS = {
    "default": dict(),
    "ucb": dict(select="ucb", policy=0.0),
    "full": dict(rollout_turns=0),
    "greedy": dict(rollout="greedy"),
    "hand": dict(select="ucb", policy=0.0, eval="hand", root_floor=0.0),
    "net": dict(eval="net"),
    "net_r2": dict(eval="net", rollout_turns=2),
    "policy": dict(select="ucb", policy=1.0),
    "policy_ro": dict(select="ucb", policy=1.0, rollout="policy"),
    "puct": dict(select="puct", policy=0.0),
    "puct_heur": dict(select="puct", policy=0.0, prior=True),
    "puct_pol": dict(select="puct", policy=1.0),
    "leaf_mix": dict(leaf_mix=0.5),
    "minimax": dict(minimax_mix=0.3),
    "rt4": dict(rollout_turns=4),
    "rt8": dict(rollout_turns=8),
    "before_gen5": dict(rollout_turns=8, value_weights="before-gen5", policy_weights="before-gen5"),
    "rt4_pol": dict(rollout_turns=4, rollout="policy"),
    "oma": dict(opponents="oma"),
}
POLICY_CONFIGS = ("default", "full", "greedy", "net", "net_r2", "policy", "policy_ro", "puct_pol", "leaf_mix",
                  "minimax", "rt4", "rt8", "rt4_pol", "oma", "before_gen5")


def mid_game(board: str, players: int, seed: int, turn: int) -> Game:
    bots = [make_bot("heuristic", seed=seed * 10 + i) for i in range(players)]

    def reached(g: Game) -> bool:
        return g.to_json()["turn"]["number"] >= turn and g.phase == "play" and g.decider is not None and g.decider >= 0
    played = play_game(bots, board, seed, until=reached)
    if played.game.is_over or played.truncated:
        raise SystemExit(f"the game ended before turn {turn}")
    return played.game


def measure(game: Game, overrides: dict, iterations: int, reps: int, seed: int) -> dict:
    rows = []
    for r in range(reps):
        res = search(game, SearchConfig(iterations=iterations, seed=seed + r, **overrides))
        rows.append(res)
    rates = [r.iterations / max(r.seconds, 1e-9) for r in rows]
    med = statistics.median(rates)
    return dict(iterations=iterations, iterations_per_sec=med, us_per_iteration=1e6 / med,
                rates=[round(x) for x in rates], nodes=int(statistics.median(r.nodes for r in rows)),
                bytes=int(statistics.median(r.bytes for r in rows)),
                seconds=statistics.median(r.seconds for r in rows), best=rows[0].best.text)


def compare(game: Game, names: list[str], iterations: int, reps: int, seed: int,
            value_sets: list[str] | None = None) -> dict:
    """The named configurations alternated search by search: round r runs one search of each (seed + r).
    With value_sets (value weight directories, or "shipped"), each configuration once with each set, the set
    loaded before its search (outside the timed part), named CONFIG@SET."""
    from concordia_ai.ai.search import search_raw
    runs = [(n, None) for n in names] if not value_sets else [(n, v) for n in names for v in value_sets]
    label = {(n, v): n if v is None else f"{n}@{v}" for n, v in runs}
    rates: dict[str, list[float]] = {label[k]: [] for k in runs}
    calls: dict[str, list[float]] = {label[k]: [] for k in runs}
    for r in range(reps):
        for name, v in runs:
            if v is not None:
                value.load(*value_weights.weight_files(None if v == "shipped" else v))
            raw = search_raw(game, SearchConfig(iterations=iterations, seed=seed + r, **CONFIGS[name]))
            rates[label[name, v]].append(raw["iterations"] / max(raw["seconds"], 1e-9))
            calls[label[name, v]].append(raw["prior_calls"] / max(1, raw["iterations"]))
    if value_sets:
        value.load()          # the shipped set again
    first = statistics.median(rates[label[runs[0]]])
    out = {}
    for name, v in runs:
        med = statistics.median(rates[label[name, v]])
        out[label[name, v]] = dict(config=CONFIGS[name], value=v, iterations=iterations, iterations_per_sec=round(med),
                         ratio_to_first=round(med / first, 3), rates=[round(x) for x in rates[label[name, v]]],
                         prior_calls_per_iteration=round(statistics.median(calls[label[name, v]]), 3))
    return out


def rss_kb() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--board", default="imperium")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--iterations", type=int, default=50000, help="budget of a truncated-rollout search")
    ap.add_argument("--iterations-full", type=int, default=5000, help="budget of a full-rollout search")
    ap.add_argument("--iterations-greedy", type=int, default=10000, help="budget of a greedy- or policy-rollout search")
    ap.add_argument("--mid-turn", type=int, default=40, help="turn number of the mid-game position")
    ap.add_argument("--memory-iterations", type=int, default=200000,
                    help="budget of one large default search for the memory figure (0: skip)")
    ap.add_argument("--compare", default="",
                    help="comma-separated configurations to alternate at the opening (the rest is skipped)")
    ap.add_argument("--values", default="",
                    help="with --compare: comma-separated value weight directories (or 'shipped'), each "
                         "configuration run with each (e.g. the two feature layouts)")
    args = ap.parse_args()

    # the slow rollouts get their smaller budgets; every other configuration the truncated-rollout one
    budgets = {"full": args.iterations_full, "greedy": args.iterations_greedy, "policy_ro": args.iterations_greedy,
               "rt4_pol": args.iterations_greedy}
    value.ensure_loaded()
    if args.values and not args.compare:
        ap.exit(2, "error: --values: only with --compare (the configurations to run with each set)\n")
    if args.compare:
        names = [n.strip() for n in args.compare.split(",") if n.strip()]
        unknown = [n for n in names if n not in CONFIGS]
        if unknown or not names:
            ap.exit(2, f"error: --compare: unknown {', '.join(unknown) or 'nothing'}; valid: {', '.join(CONFIGS)}\n")
        sets = [v.strip() for v in args.values.split(",") if v.strip()]
        for flag, given in (("--compare", names), ("--values", sets)):
            if len(set(given)) < len(given):     # each run is named by them: a repeat would pool two runs
                ap.exit(2, f"error: {flag}: {', '.join(given)} names one twice; valid: each at most once\n")
        for v in sets:                           # a damaged or missing set: one line here, not a traceback later
            try:
                value.read_weights(*value_weights.weight_files(None if v == "shipped" else v))
            except ConcordiaError as e:
                ap.exit(2, f"error: --values: {v}: {e}\n")
        if any(n in POLICY_CONFIGS for n in names):
            policy.require(args.players)
        g = Game.new(args.board, args.players, args.seed)
        out = dict(board=args.board, players=args.players, seed=args.seed, reps=args.reps, position="opening",
                   machine=machine(), date=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                   command="python3 scripts/bench_search.py " + " ".join(sys.argv[1:]),
                   configs=compare(g, names, args.iterations, args.reps, args.seed * 1000, sets or None))
        print(f"ISMCTS bench, alternated: {args.board}, {args.players} players, opening, median of {args.reps} "
              f"rounds, one core; load {out['machine']['loadavg']:.2f}")
        for name, m in out["configs"].items():
            print(f"   {name:10s} {m['iterations_per_sec']:>10,} it/s  x{m['ratio_to_first']:.3f}  "
                  f"{m['prior_calls_per_iteration']:.3f} prior evaluations per iteration")
        print(json.dumps(out))
        return
    try:
        policy.require(args.players)
        configs = dict(CONFIGS)
    except policy.PolicyWeightsError as e:
        print(f"policy rows left out: {e}")
        configs = {k: v for k, v in CONFIGS.items() if k not in POLICY_CONFIGS}
    positions = {"opening": Game.new(args.board, args.players, args.seed),
                 "mid": mid_game(args.board, args.players, args.seed, args.mid_turn)}
    out: dict = dict(board=args.board, players=args.players, seed=args.seed, reps=args.reps, machine=machine(),
                     date=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), positions={})
    print(f"ISMCTS bench: {args.board}, {args.players} players, seed {args.seed}, median of {args.reps} reps, "
          f"one core; load {out['machine']['loadavg']:.2f}")
    for pname, g in positions.items():
        out["positions"][pname] = {}
        print(f"-- {pname}: turn {g.to_json()['turn']['number']}, phase {g.phase}, "
              f"{len(g.legal_moves())} legal moves")
        for cname, ov in configs.items():
            m = measure(g, ov, budgets.get(cname, args.iterations), args.reps, args.seed * 1000)
            out["positions"][pname][cname] = m
            print(f"   {cname:8s} {m['iterations_per_sec']:>10,.0f} it/s  ({m['us_per_iteration']:.1f} us/it, "
                  f"{m['iterations']} iterations, {m['nodes']:,} nodes, {m['bytes'] / 1e6:.2f} MB of nodes, "
                  f"best '{m['best']}')")
    forward = {}
    for pname, g in positions.items():
        reps = 200000
        secs = statistics.median(core.bench_value(g.state, reps)[0] for _ in range(args.reps))
        forward[pname] = dict(ns_per_call=1e9 * secs / reps, calls=reps)
        print(f"-- value model forward pass ({pname}, all {args.players} seats): {forward[pname]['ns_per_call']:.0f} ns/call")
    out["value_forward"] = forward
    if "policy" in configs:
        prior = {}
        for pname, g in positions.items():
            reps = 20000
            runs = [core.bench_policy(g.state, reps) for _ in range(args.reps)]
            secs, moves = statistics.median(r[0] for r in runs), runs[0][1]
            prior[pname] = dict(ns_per_call=1e9 * secs / reps, ns_per_move=1e9 * secs / reps / max(1, moves),
                                moves=moves, calls=reps)
            print(f"-- policy prior ({pname}, all {moves} legal moves): {prior[pname]['ns_per_call']:.0f} ns/call, "
                  f"{prior[pname]['ns_per_move']:.0f} ns per move")
        out["policy_prior"] = prior
    probe = search(positions["opening"], SearchConfig(iterations=100, seed=1))
    bytes_per_node = probe.bytes // max(1, probe.nodes)
    mem = None
    if args.memory_iterations:
        before = rss_kb()
        res = search(positions["opening"], SearchConfig(iterations=args.memory_iterations, seed=7))
        after = rss_kb()
        mem = dict(iterations=res.iterations, nodes=res.nodes, node_bytes=res.bytes,
                   rss_growth_bytes=(after - before) * 1024, seconds=res.seconds,
                   iterations_per_sec=res.iterations / max(res.seconds, 1e-9))
        print(f"-- memory: {res.iterations:,} iterations -> {res.nodes:,} nodes x {bytes_per_node} B = "
              f"{res.bytes / 1e6:.1f} MB of nodes (peak RSS grew {mem['rss_growth_bytes'] / 1e6:.1f} MB; "
              f"tree array doubles, so the peak may be up to 1.5x the live nodes)")
    op = out["positions"]["opening"]
    out.update(
        iterations_per_sec=op["default"]["iterations_per_sec"],
        iterations_per_sec_full_rollouts=op["full"]["iterations_per_sec"],
        iterations_per_sec_greedy_rollouts=op["greedy"]["iterations_per_sec"],
        iterations_per_sec_net=op["net"]["iterations_per_sec"],
        iterations_per_sec_hand=op["hand"]["iterations_per_sec"],
        iterations_per_sec_net_r2=op["net_r2"]["iterations_per_sec"],
        iterations_per_sec_policy=op["policy"]["iterations_per_sec"] if "policy" in op else None,
        iterations_per_sec_policy_rollouts=op["policy_ro"]["iterations_per_sec"] if "policy_ro" in op else None,
        iterations_per_sec_policy_mid=out["positions"]["mid"].get("policy", {}).get("iterations_per_sec"),
        value_forward_ns=forward["opening"]["ns_per_call"],
        iterations_per_sec_mid=out["positions"]["mid"]["default"]["iterations_per_sec"],
        iterations_per_sec_full_rollouts_mid=out["positions"]["mid"]["full"]["iterations_per_sec"],
        iterations_per_sec_greedy_rollouts_mid=out["positions"]["mid"]["greedy"]["iterations_per_sec"],
        bytes_per_node=bytes_per_node,
        nodes=op["default"]["nodes"], bytes=op["default"]["bytes"],
        memory=mem,
        targets=dict(iterations_per_sec=20000, iterations_per_sec_full_rollouts=2000),
    )
    ok1 = out["iterations_per_sec"] >= 20000
    ok2 = out["iterations_per_sec_full_rollouts"] >= 2000
    print(f"targets: truncated {out['iterations_per_sec']:,.0f} it/s >= 20,000: {'met' if ok1 else 'NOT met'}; "
          f"full rollouts {out['iterations_per_sec_full_rollouts']:,.0f} it/s >= 2,000: "
          f"{'met' if ok2 else 'NOT met'}; {bytes_per_node} bytes per node")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
