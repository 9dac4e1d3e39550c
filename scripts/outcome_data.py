#!/usr/bin/env python3
"""Held-out positions for the final-result model (concordia_ai/ai/outcome.py): games against mixed opponents,
positions drawn from them, each searched as a hint searches it, and how the game really ended.

    python3 scripts/outcome_data.py --players 2 --games 50 --per-game 4 --budgets 3,0.3 --seed 7000 \
        --jobs 2 --log results/outcome/positions-2p.jsonl

With --search, the searches take those knobs over the hint's (KEY=VALUE,... as the `ismcts` bot spec reads
them): how a changed default search is refitted. Every position is kept in its record (`position`, the
position JSON of `concordia position`), so that --from LOG searches the positions of LOG's games again (under
--search, at --budgets, with the learned weights installed now; the position's own evaluations are made again
too) without playing them: a refit after a change of the search or of the value model costs only its searches.

With --openings-of LOG (a strength.py log of self-play), the first turns of LOG's deals are searched instead:
the opening as the bot the hint stands for plays on from it, which is what the opening check compares with
(scripts/opening_figures.py); games against mixed opponents say little about a seat's chances there.

With --opening, every game's first turn is searched too (the opening has the longest horizon, and drawn
turn starts rarely fall on it). Game g is dealt on board g % 4 with --players seats; each seat's bot is drawn (seeded by the deal) from
POOL: the search at three budgets, the hand-formula search of the training data, the heuristic, the greedy
bot and the two plan bots, so the positions are not self-play of one bot. --per-game turn starts are drawn
from the game (seeded), the game is played to its end, and every drawn position is searched once per budget in
--budgets (CPU seconds of one search thread, the hint's settings otherwise: search.TABLE_SEARCH, eval auto).

One record per game goes to --log as it ends (lab/jobs.py: a rerun plays only the missing games). Each record
holds the full search its positions were searched with (`config`: outcome.search_record, every knob the
figures depend on and the sha256 of the learned weights it read; older records hold only their --search knobs,
`search`), the final scores and the winner, and per position: the horizon, the position's own evaluations (hand
formula and value model: the model at 0 s), and per budget the raw statistics of every whole turn the final
choice looked at (its candidates and the chosen one), from which scripts/outcome_fit.py fits the model and
recomputes the shown figures exactly as a hint computes them. Each search also records whether its list
follows the one ranking rule (`rule`; the sweep of the ranking rule's target).
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from concordia_ai import core  # noqa: E402
from concordia_ai.ai import outcome, value  # noqa: E402
from concordia_ai.ai.bots import BotSpecError, make_bot, parse_spec, play_game  # noqa: E402
from concordia_ai.ai.search import (TABLE_SEARCH, SearchConfig, effective_eval, end_advantage,  # noqa: E402
                                    follows_ranking_rule, only_turn, search)
from concordia_ai.engine.game import Game  # noqa: E402
from concordia_ai.engine.errors import ConcordiaError  # noqa: E402
from concordia_ai.io.jsonl import read_records  # noqa: E402
from concordia_ai.lab import jobs  # noqa: E402

BOARDS = ("imperium", "italia", "creta", "aegyptus")
POOL = ("ismcts:seconds=0.03,iterations=0", "ismcts:seconds=0.1,iterations=0", "ismcts:iterations=1000",
        "ismcts:iterations=300,eval=hand", "heuristic", "greedy", "plan:mars", "plan:minerva")
KEY = ("players", "game", "seed", "per_game", "budgets")   # a game's key (with "opening" when it is set)


def log_key(rec: dict) -> tuple:
    """A record's (or a task's) key in the log: the game's KEY and the search it is searched with as the fit reads
    it (`config`: the knobs over the hint's and the learned weights' sha256), so that two spellings of one search
    (`--search rollout_turns=4` and the same with the installed weights named) resume each other, and a search
    whose weights changed since is searched again. A record written before `config` was recorded keys by its
    --search knobs as spelled, which no task matches."""
    if "config" in rec:
        what = rec["config"]
    elif "rows" in rec:
        what = ["knobs as spelled", rec.get("search", {})]
    else:
        what = searched_with(rec.get("search", {}), rec["budgets"])
    return tuple(json.dumps(rec[k]) for k in KEY) + (json.dumps(what, sort_keys=True),)


class Starts:
    """Records every turn start of the deciding player (a copy of the state) while a game is played."""

    def __init__(self):
        self.taken = []
        self._last = None

    def before(self, state):
        if state.decider >= 0 and state.turns != self._last and not state.is_over:
            self._last = state.turns
            self.taken.append(state.copy())


def turn_record(g, t, eval_kind: str) -> dict:
    """A whole turn's raw statistics; `adv`, the tie rule's key, by the search's evaluation (search.final_pick;
    records made before 2026-12-04, 8th session, hold the hand formula's)."""
    st = t.stats
    return dict(moves=list(t.moves), adv=round(end_advantage(g, t.moves, eval_kind), 6), visits=t.visits,
                seat_vp=[round(x, 4) for x in st.seat_vp], seat_win=[round(x, 5) for x in st.seat_win],
                margin=round(st.margin, 4), margin2=round(st.margin2, 3),
                **({} if st.win2 is None else dict(win2=round(st.win2, 6), margin_win=round(st.margin_win, 5))),
                term=st.term, term_win=[round(x, 5) for x in st.term_win], term_vp=[round(x, 3) for x in st.term_vp],
                term_margin=round(st.term_margin, 3), focus=t.focus, candidate=t.candidate, chosen=t.chosen,
                win_raw=round(t.win_raw, 5), shown=round(t.win, 5))


def one_game(task: dict) -> dict:
    players, game_id, seed, per_game, budgets = (task[k] for k in KEY)
    deal = seed + game_id
    board = BOARDS[game_id % 4]
    rng = random.Random(deal)
    specs = [rng.choice(POOL) for _ in range(players)]
    bots = [make_bot(s, seed=deal * 16 + i) for i, s in enumerate(specs)]
    starts = Starts()
    t0 = time.process_time()
    played = play_game(bots, board, deal, watch=starts)
    rec = {k: task[k] for k in KEY}
    rec.update(board=board, bots=specs, opening=bool(task.get("opening")), search=task.get("search", {}),
               config=searched_with(task.get("search", {}), budgets))
    if played.truncated:
        return dict(rec, rows=[], truncated=True)
    game = played.game
    final = [s["total"] for s in game.scores()]
    winner = game.ranking()[0]
    start_cards = Game.new(board, players, seed=0).state.cards_left
    picks = sorted(rng.sample(range(len(starts.taken)), min(per_game, len(starts.taken))))
    if task.get("opening") and 0 not in picks:
        picks = [0] + picks     # the game's first turn: the longest horizon, rare among drawn turn starts
    rows = []
    for k in picks:
        state = starts.taken[k]
        g = Game(state.copy(), game.names)
        row = dict(turn=state.turns, pick=k, position=g.to_json(), decider=g.decider,
                   h=round(outcome.horizon(state, start_cards), 4), **own_evaluations(state), searches={})
        if only_turn(g) is not None:
            # one legal turn: the hint answers without a search (the model at 0 s); nothing to fit at a budget
            row["forced"] = True
            rows.append(row)
            continue
        row["searches"] = search_position(g, budgets, task.get("search", {}), seed=deal * 64 + k)
        rows.append(row)
    return dict(rec, final=final, winner=winner, rows=rows, cpu_seconds=round(time.process_time() - t0, 1))


def own_evaluations(state) -> dict:
    """The position's own evaluations (the figures at 0 s): the hand formula's and the installed value model's
    estimated final VP per seat, and the model's win probabilities."""
    q, mu = value.predict(state)
    return dict(mu_hand=[round(x, 4) for x in core.evaluate_state(state)], mu_net=[round(x, 4) for x in mu],
                q_net=[round(x, 5) for x in q])


def search_position(g: Game, budgets: list[float], knobs: dict, seed: int) -> dict:
    """The position searched as a hint searches it (with `knobs` over the hint's settings), once per budget:
    the raw figures of every whole turn the final choice looked at."""
    out = {}
    for b in budgets:
        config = hint_config(knobs, b, seed)
        res = search(g, config)
        looked = [t for t in res.turns if t.candidate or t.chosen]
        kind = effective_eval(config.eval, g.n_players)
        out[str(b)] = dict(eval=kind, iterations=res.iterations,
                           turns=[turn_record(g, t, kind) for t in looked], rule=follows_ranking_rule(res.turns),
                           listed=len(res.turns))
    return out


def hint_config(knobs: dict, seconds: float, seed: int) -> SearchConfig:
    """The search of a hint (one thread, `seconds` of CPU time) with `knobs` over the hint's settings."""
    return SearchConfig(**{**TABLE_SEARCH, "jobs": 1, **knobs, "seconds": seconds, "iterations": 0, "seed": seed})


def searched_with(knobs: dict, budgets: list[float]) -> dict:
    """The search a record's positions are searched with, as the fit reads it (`config`): the budget and the
    seed are not part of it (outcome.UNFITTED_KNOBS), so one for all the budgets."""
    return outcome.search_record(hint_config(knobs, budgets[0], 0))


def research_game(task: dict) -> dict:
    """--from: a recorded game's positions searched again (same seeds, `task["search"]` knobs, the budgets)."""
    old = task["record"]
    rows = []
    t0 = time.process_time()
    for k, row in enumerate(old["rows"]):
        row = {key: v for key, v in row.items() if key != "searches"}
        g = Game.from_json(row["position"])
        # evaluated again too: a search again after a new value model must not keep the old model's figures at 0 s
        row.update(own_evaluations(g.state))
        if not row.get("forced"):
            pick = row.get("pick", k)
            row["searches"] = search_position(g, task["budgets"], task["search"],
                                              seed=(old["seed"] + old["game"]) * 64 + pick)
        rows.append(row)
    rec = {key: v for key, v in old.items() if key not in ("rows", "cpu_seconds")}
    return dict(rec, budgets=task["budgets"], search=task["search"],
                config=searched_with(task["search"], task["budgets"]), rows=rows,
                cpu_seconds=round(time.process_time() - t0, 1))


def opening_records(logs: list[str], players: int) -> list[dict]:
    """--openings-of: the first turn of every game of strength.py self-play logs (candidate and opponent one
    bot: the games the opening check reads its references from, scripts/opening_figures.py), as records that
    research_game searches, one per game. The two seatings of a deal are two independent games of one bot
    from one position. A game's number is its own (opening_game_id: board, deal and seating), not its place in
    the logs, so a log that grows (more deals) resumes with only its new games searched."""
    games = []
    for log in logs:
        games += [(r.get("cand_seat"), log, r) for r in read_records(log)
                  if r.get("players") == players and r.get("candidate") == r.get("opponent")]
    out = []
    for seating in sorted({s for s, _, _ in games}):
        for _, log, r in (x for x in games if x[0] == seating):
            if not 0 <= r["seed"] < 100_000:
                raise ConcordiaError(f"deal {r['seed']} of {log}: opening records number deals 0 to 99,999 "
                                     f"(opening_game_id)")
            g = Game.new(r["board"], players, r["seed"])
            row = dict(turn=g.state.turns, pick=0, position=g.to_json(), decider=g.decider,
                       h=round(outcome.horizon(g.state, g.state.cards_left), 4))
            out.append(dict(players=players, game=opening_game_id(r["board"], r["seed"], seating), seed=r["seed"],
                            per_game=0, board=r["board"], bots=[r["candidate"]] * players, opening=True,
                            selfplay=log, seating=seating, final=list(r["totals"]), winner=r["ranking"][0],
                            rows=[row]))
    return out


def opening_game_id(board: str, seed: int, seating: int) -> int:
    """The number of a self-play game's opening record: seating, board and deal (0 to 99,999). Its parity is
    the deal's (scripts/outcome_fit.py cross-fits by the parity of the game), so both seatings of one deal,
    which start from one position, fall in the same half."""
    return seating * 1_000_000 + BOARDS.index(board) * 100_000 + seed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, required=True, choices=(2, 3, 4, 5))
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--first-game", type=int, default=0)
    ap.add_argument("--per-game", type=int, default=4)
    ap.add_argument("--budgets", default="3,0.3", help="CPU seconds of one search thread, comma-separated")
    ap.add_argument("--seed", type=int, default=7000)
    ap.add_argument("--opening", action="store_true", help="also search every game's first turn")
    ap.add_argument("--search", default="", help="search knobs over the hint's, KEY=VALUE,... (e.g. select=puct)")
    ap.add_argument("--from", dest="source", metavar="LOG",
                    help="search the positions of LOG's games again instead of playing games (--players must match)")
    ap.add_argument("--openings-of", dest="openings", metavar="LOG", action="append", default=[],
                    help="search the first turn of the deals of a strength.py self-play LOG (repeatable): the "
                         "opening of self-play of the bot the hint stands for (opening_records)")
    ap.add_argument("--log", required=True)
    jobs.add_runner_options(ap)
    args = ap.parse_args()
    try:
        budgets = [float(x) for x in args.budgets.split(",")]
    except ValueError:
        ap.error(f"--budgets: {args.budgets!r} is not a comma-separated list of seconds (e.g. 3,0.3)")
    try:
        knobs = parse_spec("ismcts:" + args.search)[1]
    except BotSpecError as e:
        ap.error(f"--search: {str(e).removeprefix('bot ismcts: ')}")
    if args.source and args.openings:
        ap.error("--from and --openings-of: give one source of positions")
    if args.openings:
        try:
            old = opening_records(args.openings, args.players)
        except (ConcordiaError, KeyError, TypeError) as e:
            ap.error(f"--openings-of: not a strength.py log of {args.players}-player self-play ({e})")
        if not old:
            ap.error(f"--openings-of: no {args.players}-player self-play games in {', '.join(args.openings)}")
        tasks = [dict(record=r, players=r["players"], game=r["game"], seed=r["seed"], per_game=r["per_game"],
                      budgets=budgets, search=knobs) for r in old]
        work = research_game
    elif args.source:
        try:
            old = [r for r in read_records(args.source)
                   if r.get("players") == args.players and not r.get("truncated")]
        except ConcordiaError as e:
            ap.error(f"--from: {e}")
        if any("position" not in row for r in old for row in r["rows"]):
            ap.error(f"--from {args.source}: its records keep no positions (logs written before 2026-12-04 "
                     f"(2nd session) cannot be searched again; play new games instead)")
        tasks = [dict(record=r, players=r["players"], game=r["game"], seed=r["seed"], per_game=r["per_game"],
                      budgets=budgets, search=knobs) for r in old]
        work = research_game
    else:
        tasks = [dict(players=args.players, game=g, seed=args.seed, per_game=args.per_game, budgets=budgets,
                      search=knobs) for g in range(args.first_game, args.first_game + args.games)]
        if args.opening:
            for t in tasks:
                t["opening"] = True
        work = one_game
    Path(args.log).parent.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    recs, new = jobs.run_logged(work, tasks, key=log_key, log=args.log,
                                progress=f"{args.players}p games", **jobs.runner_options(args, ap))
    print(json.dumps(dict(log=args.log, games=len(recs), new=new, positions=sum(len(r["rows"]) for r in recs),
                          wall_seconds=round(time.time() - t0, 1),
                          command="python3 " + " ".join(sys.argv))))


if __name__ == "__main__":
    main()
