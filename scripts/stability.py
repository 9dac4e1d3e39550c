#!/usr/bin/env python3
"""Top-choice stability: how often the search picks the same whole turn across seeds.

    python3 scripts/stability.py --positions 52 --seeds 5 --budgets 0.3,1,3 --bot ismcts --jobs 2 \
        --out results/stability.json

A fixed set of mid-game positions from every board and 2-5 players: position k comes from a game of
`ismcts:iterations=300,eval=hand` self-play on board k % 4 with 2 + (k // 4) % 4 players, deal 5000 + k, stopped at the
first turn start at or after turn (8 + 3 k % 5) * players (rounds 8-12). Each position is searched with --seeds
different seeds at every budget (CPU seconds of one search process, jobs=1). The whole-turn choice of a search
is, with focus > 0, the hint's top turn (the final choice's pick, search.final_pick); without focus, its
principal variation cut where the deciding player's turn ends (the card and every step up to `done`).
A position counts as stable at a budget when all seeds choose the same whole turn; the script also reports
the mean share of seeds agreeing with the most common choice (the modal share). Positions run on the runner
(--jobs, or --backend dask --scheduler ADDRESS with the TLS files; docs/cluster.md), each recorded in --log
as it is done, so a rerun searches only the missing positions.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from concordia_ai import core  # noqa: E402
from concordia_ai.ai.bots import make_bot, parse_spec, play_game  # noqa: E402
from concordia_ai.engine.errors import ConcordiaError  # noqa: E402
from concordia_ai.engine.game import Game  # noqa: E402
from concordia_ai.io.atomic_write import write_atomic  # noqa: E402
from concordia_ai.lab import jobs  # noqa: E402
from concordia_ai.ai.search import SearchConfig, _run, effective_eval, search  # noqa: E402

BOARDS = ("imperium", "italia", "creta", "aegyptus")


def position(k: int) -> Game:
    board, players = BOARDS[k % 4], 2 + (k // 4) % 4
    deal = 5000 + k
    bots = [make_bot("ismcts:iterations=300,eval=hand", seed=deal * 8 + i) for i in range(players)]
    target = (8 + 3 * k % 5) * players

    def reached(game: Game) -> bool:
        return game.state.turns >= target and game.phase == "play" and game.decider is not None and game.decider >= 0
    played = play_game(bots, board, deal, until=reached)
    if played.game.is_over or played.truncated:
        raise RuntimeError(f"position {k}: the game ended before turn {target}")
    return played.game


def whole_turn(game: Game, pv: list[int]) -> tuple[int, ...]:
    """The principal variation's prefix that belongs to the deciding player's current turn."""
    st = game.state.copy()
    st.set_chance(False, True)
    me, turn = st.decider, st.turns
    out = []
    for a in pv:
        if st.turns != turn or st.decider != me or not st.is_legal(a):
            break
        out.append(a)
        st.apply(a)
    return tuple(out)


def one(task: dict) -> dict:
    """Position k searched with every seed at every budget (runs in a worker)."""
    k, spec, budgets, seeds = task["position"], task["bot"], task["budget_seconds"], task["seeds"]
    from concordia_ai.ai import search as search_module
    search_module.TIE_ROUNDS = task.get("tie_rounds", 1)     # the final pick's tie rule (search.final_pick)
    game = position(k)
    _, options = parse_spec(spec)
    row = dict(task, board=game.board.source.name, players=game.n_players, turn=game.state.turns, budgets={})
    records: dict = {}
    for b in budgets:
        opts = dict(options, seconds=b, iterations=0)
        choices = []
        for s in range(seeds):
            config = SearchConfig(**opts, seed=1000 * k + s)
            if config.focus > 0:
                # the final choice over whole turns names the turn: the hint's top turn (search.final_pick)
                res = search(game, config)
                choices.append(tuple(res.turns[0].moves))
                if task.get("record"):
                    kind = effective_eval(config.eval, game.n_players)
                    records.setdefault(str(b), []).append([turn_record(game, t, kind) for t in res.turns])
            else:
                res = _run(game.state, config.core_dict(players=game.n_players), turns=0)
                choices.append(whole_turn(game, res["children"][0]["pv"]))
        counts = Counter(choices)
        top, n = counts.most_common(1)[0]
        row["budgets"][str(b)] = dict(same=len(counts) == 1, modal_share=n / seeds, distinct=len(counts),
                                      top=[game.text(a) if i == 0 else a for i, a in enumerate(top)][:1])
    if records:
        row["turns"] = records
    return row


def turn_record(game: Game, t, eval_kind: str) -> dict:
    """What scripts/stability_replay.py needs to replay another final pick on a recorded search: the
    turn's codes, its shown figures and visits, its final-choice flags and the tie rule's first key (by the
    search's evaluation `eval_kind`, as search.final_pick takes it; the hand formula's before 2026-12-04, 8th
    session)."""
    from concordia_ai.ai.search import end_advantage
    return dict(moves=list(t.moves), win=round(t.win, 5), win_se=round(t.win_se, 6), vp=round(t.vp, 3),
                visits=t.visits, focus=t.focus, candidate=t.candidate, chosen=t.chosen,
                advantage=round(end_advantage(game, t.moves, eval_kind), 6), slope=round(t.slope, 7),
                advantage_eval=eval_kind)


def task_key(rec: dict) -> tuple:
    return (rec["position"], rec["bot"], tuple(rec["budget_seconds"]), rec["seeds"], rec.get("tie_rounds", 1),
            bool(rec.get("record")))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--positions", type=int, default=52)
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--budgets", default="0.3,1,3")
    ap.add_argument("--bot", default="ismcts")
    ap.add_argument("--tie-rounds", type=int, default=1, help="search.TIE_ROUNDS for the final pick's tie rule")
    ap.add_argument("--record", action="store_true",
                    help="keep every seed's whole turns with their figures in the log (for scripts/stability_replay.py)")
    ap.add_argument("--out", default=None)
    ap.add_argument("--log", default=None, metavar="JSONL",
                    help="one record per position, appended as it is done; a rerun resumes (default: OUT.positions.jsonl)")
    jobs.add_runner_options(ap)
    args = ap.parse_args()
    budgets = [float(x) for x in args.budgets.split(",")]
    t0 = time.time()
    tasks = [dict(position=k, bot=args.bot, budget_seconds=budgets, seeds=args.seeds, tie_rounds=args.tie_rounds,
                  **({"record": True} if args.record else {})) for k in range(args.positions)]
    log = args.log or (args.out + ".positions.jsonl" if args.out else None)
    try:
        rows, _ = jobs.run_logged(one, tasks, task_key, log, progress="positions", **jobs.runner_options(args, ap))
    except ConcordiaError as e:
        ap.exit(2, f"error: {e}\n")
    summary = {}
    for b in budgets:
        rs = [r["budgets"][str(b)] for r in rows]
        summary[str(b)] = dict(stable=sum(r["same"] for r in rs), positions=len(rs),
                               stable_share=round(sum(r["same"] for r in rs) / len(rs), 3),
                               mean_modal_share=round(sum(r["modal_share"] for r in rs) / len(rs), 3))
    out = dict(command="python3 scripts/stability.py " + " ".join(sys.argv[1:]), bot=args.bot, seeds=args.seeds,
               tie_rounds=args.tie_rounds,
               core=core.__file__ and Path(core.__file__).name, seconds=round(time.time() - t0, 1),
               stability=summary, positions=rows)
    if args.out:
        write_atomic(args.out, json.dumps(out, indent=2) + "\n")
    print(json.dumps(dict(stability=summary, bot=args.bot, seconds=out["seconds"])))


if __name__ == "__main__":
    main()
