"""Hints and the analysis engine: hint, analyze."""
from __future__ import annotations

import sys
import time

import click

from ..engine import limits
from ..table import render
from ..engine.game import CHANCE, GameError
from ..ai.turns import judge_turn, parse_turn
from .app import UserError, main
from .budget import budget_options, search_budget
from .common import GAME_FILE, Bounded, _echo_json, load_any


class _Ticker:
    """Runs a function in a thread (the core's search releases the GIL) while a tqdm bar on stderr
    counts elapsed seconds against `total` seconds (None: unknown, the bar shows elapsed time)."""

    def __init__(self, total: float | None, desc: str, quiet: bool):
        self.total, self.desc, self.quiet = total, desc, quiet

    def run(self, fn):
        import threading
        import time

        from tqdm import tqdm
        box: dict = {}

        def target():
            try:
                box["value"] = fn()
            except BaseException as e:  # re-raised in the caller's thread
                box["error"] = e

        th = threading.Thread(target=target, daemon=True)
        bar = tqdm(total=self.total, desc=self.desc, unit="s", file=sys.stderr, disable=self.quiet,
                   bar_format=("{desc}: {percentage:3.0f}%|{bar}| {n:.1f}/{total:.1f} s" if self.total
                               else "{desc}: {n:.1f} s elapsed"))
        t0 = time.perf_counter()
        th.start()
        shown = 0.0
        while th.is_alive():
            th.join(0.1)
            now = time.perf_counter() - t0
            now = min(now, self.total) if self.total else now
            bar.update(now - shown)
            shown = now
        if self.total:
            bar.update(self.total - shown)
        bar.close()
        if "error" in box:
            raise box["error"]
        return box["value"]


def _hint_slices(iterations: int) -> int:
    """Slices of a hint's iteration budget (each at least 2,000 iterations, at most 10 slices)."""
    return max(1, min(10, iterations // 2000))


@main.command()
@GAME_FILE
@budget_options
@click.option("--top", type=Bounded(limits.TOP_K), default=5, show_default=True, metavar="K",
              help="Turns (or moves, with --step) to show.")
@click.option("--step", is_flag=True, help="Rank only the next sub-decision (the table of single moves).")
@click.option("--move", "intended", default=None, metavar="TURN",
              help="Judge an intended whole turn, moves separated by ';': its rank and its loss against the best.")
@click.option("--bot", "spec", default=None, metavar="SPEC",
              help="A searching bot spec: 'ismcts:c=0.5,rollout=greedy' or 'flatmc:iterations=3000' (--step "
                   "only) or a .toml file.")
@click.option("--seed", type=Bounded(limits.SEED), default=0, show_default=True, help="Search seed.")
@click.option("--json", "as_json", is_flag=True, help="Print the analysis as JSON.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar on stderr.")
def hint(game_file, seconds, iterations, jobs, top, step, intended, spec, seed, as_json, quiet):
    """Suggest whole turns for whoever decides now: ISMCTS over the unseen stack order.

    Ranks the player's whole turns (the card, every step, done) by one rule, printed above the list:
    the final choice's turn first (sequential halving over whole turns by win %), then the others by
    win % (by expected VP when the winner is settled). For each: the win % with its standard error,
    expected final VP, VP margin over the best opponent, the loss against the top turn and the
    visits. For the top turn: what it changes now (coins, goods, houses, VP), every player's win %,
    and the most visited line after it, by player and turn.
    Win %, VP and margin all come from one predicted distribution of the final scores (the final-result
    model, docs/estimates.md), fitted per player count, budget and stage of the game on held-out games
    against mixed opponents; the output says when the budget is far from a fitted one, and in words
    when the answer is thin or close. A position with one legal turn is answered at once.

    The default budget is 3 s of CPU time in each of as many search threads as the machine has
    cores, run at once (so about 3 s of wall time); --time S sets the CPU seconds per process,
    --iterations N an iteration budget (reproducible; one process unless --jobs).
    --step shows the old table of single sub-decisions; --move TURN judges the turn you intend.
    GAME_FILE is only read; the ranked turns are kept beside it (GAME.hint.json) so that
    `play --suggested` with the same budget and seed plays what was shown. With --move the intended turn
    is searched beside the search's own turns, in the same search. A progress bar runs on stderr.

    \b
    Examples:
      concordia hint game.json
      concordia hint game.json --time 10 --top 3
      concordia hint game.json --move "play Prefect; produce Italia"
      concordia hint game.json --step --iterations 20000 --json
    """
    from ..protocol import analyze

    kind, options = analyze.config_from_spec(spec) if spec else ("ismcts", None)
    if kind == "flatmc" and not step:
        raise UserError("--bot flatmc ranks single moves only; add --step (whole turns need ismcts)")
    if step and intended is not None:
        raise UserError("--move judges a whole turn; it cannot be combined with --step")
    opts, described = search_budget(seconds, iterations, jobs, options)
    config = make_config(opts, seed)
    game, gf = load_any(game_file)
    _check_decider(game, game_file)
    moves = None
    if intended is not None:
        moves = parse_turn(game, intended)
    if step:
        return _step_hint(game_file, game, kind, config, top, as_json, quiet)
    result = run_search(game, config, f"{kind} for {game.names[game.decider]}", quiet,
                        named=[moves] if moves is not None else None)
    judgement = judge_turn(game, moves, result) if moves is not None else None
    if gf is not None and kind == "ismcts" and result.turns:
        _keep_hint(game_file, game, config, result.turns)
    _turn_hint(game_file, game, result, config, described, top, judgement, as_json)


def _keep_hint(game_file: str, game, config, turns) -> None:
    """The ranked turns beside the game file, for `play --suggested` (a folder we cannot write only costs
    that play a search of its own)."""
    from dataclasses import asdict
    from ..table import hint_cache
    try:
        hint_cache.save(game_file, game, asdict(config), turns)
    except OSError as e:
        click.echo(f"note: the hint is not kept for play --suggested ({hint_cache.path_for(game_file)}: "
                   f"{e.strerror or e}); it will search again", err=True)


def make_config(opts: dict, seed: int):
    from ..ai.search import SearchConfig
    try:
        return SearchConfig(**opts, seed=seed)
    except GameError as e:
        raise UserError(str(e).replace("search config: ", "")) from None


def _check_decider(game, game_file: str) -> None:
    if game.decider is None:
        raise UserError(f"{game_file}: the game is over; nobody decides (concordia score {game_file})")
    if game.decider == CHANCE:
        raise UserError(f"{game_file}: a card is revealed now, chance decides: enter the card seen "
                        f"(concordia play {game_file} 'reveal CARD/DECK'; concordia moves {game_file} lists them)")


def run_search(game, config, desc: str, quiet: bool, named=None):
    """One (root-parallel) search with a progress bar of its time on stderr."""
    import time

    from ..ai.search import search
    total = config.seconds if config.seconds and not config.iterations else None
    t0 = time.perf_counter()
    result = _Ticker(total, desc, quiet).run(lambda: search(game, config, named=named))
    result.wall_seconds = time.perf_counter() - t0     # for the output only: CPU time is the budget
    return result


def _turn_hint(game_file, game, result, config, described, top, judgement, as_json) -> None:
    from dataclasses import asdict

    from ..protocol import analyze
    from ..ai.search import ranking_rule
    from ..ai.turns import hint_warnings, line_after, turn_effect
    turns = analyze.turn_dicts(game, result, top)
    warnings = hint_warnings(result.turns, result.searches) + list(result.notes)
    effect = turn_effect(game, result.turns[0].moves) if result.turns else None
    judged = _judgement_dict(judgement) if judgement else None
    wall = getattr(result, "wall_seconds", None)
    info = {"iterations": result.iterations, "nodes": result.nodes, "seconds": round(result.seconds, 4),
            "wallSeconds": None if wall is None else round(wall, 2), "searches": result.searches,
            "budget": described}
    if as_json:
        _echo_json({"file": game_file, "player": game.names[game.decider], "seat": game.decider,
                    "phase": game.phase, "turns": turns, "candidateTurns": len(result.turns),
                    "candidates": analyze.candidate_dicts(result, top),
                    "order": ranking_rule(result.turns),
                    "effect": effect, "warnings": warnings, "move": judged, "rootInfo": info,
                    "config": asdict(config)})
        return
    click.echo(f"{game.names[game.decider]} decides ({render.status_line(game).split(': ', 1)[0]}, "
               f"{game.phase}); whole turns: {ranking_rule(result.turns)}")
    click.echo(f"budget: {described}; took {info['wallSeconds']:.1f} s of wall time; {result.iterations} "
               f"iterations, {result.nodes} nodes")
    if turns:
        for line in render.turn_table(turns):
            click.echo(line)
        click.echo(f"The top turn changes: {render.effect_line(effect)}")
        if result.turns[0].seats:
            click.echo("Win % after it, every player: " + seat_line(game.names, result.turns[0].seats,
                                                                   fixed=game.decider))
        segments = line_after(game, result.turns[0])
        if segments:
            click.echo("Then, the most visited line:")
            for line in render.line_after_lines(segments):
                click.echo(line)
    if judged:
        click.echo(_judgement_text(judged))
    from ..table.budget import busy_cores_note
    busy = busy_cores_note(config.seconds, config.iterations, wall)
    if busy:
        warnings = warnings + [busy]
    for w in warnings:
        click.echo(f"note: {w}")


def seat_line(names: list[str], seats: list[float], fixed: int | None = None) -> str:
    """Every player's win share on one line, rounded so that the figures shown add up to 100.0. The seat
    `fixed` (the deciding one) is rounded as the turn table rounds it (4 places, then one decimal), so the
    two figures of one screen agree; the rounding's remainder goes to the largest other share."""
    tenths = [round(1000 * s) for s in seats]
    if fixed is not None:
        tenths[fixed] = round(float(f"{100 * round(seats[fixed], 4):.1f}") * 10)
    others = [k for k in range(len(seats)) if k != fixed]
    tenths[max(others, key=lambda k: seats[k])] += 1000 - sum(tenths)
    return " · ".join(f"{n} {t / 10:.1f}" for n, t in zip(names, tenths))


def _judgement_dict(j) -> dict:
    t = j.turn
    return {"moves": t.texts if t else None, "inList": j.in_list, "rank": j.rank, "candidates": j.candidates,
            "source": j.source, "visits": t.visits if t else 0,
            "winrate": round(t.win, 4) if t else None, "winrateSe": round(t.win_se, 4) if t else None,
            "vp": round(t.vp, 3) if t else None, "scoreLead": round(t.margin, 3) if t else None,
            "lossWinrate": None if t is None else round(j.loss_win, 4),
            "lossVp": None if t is None else round(j.loss_vp, 3), "notes": j.notes}


def _judgement_text(d: dict) -> str:
    if d["winrate"] is None:
        return "Your turn: the search did not try it, so it has no estimate (" + "; ".join(d["notes"]) + ")"
    where = f"rank {d['rank']} of {d['candidates']} turns (searched beside them in the same tree)"
    return (f"Your turn ({'; '.join(d['moves'])}): {where}; win {100 * d['winrate']:.1f} ± "
            f"{100 * d['winrateSe']:.1f} %, {d['vp']:.1f} VP, {d['visits']} visits; loss against the top "
            f"turn: {100 * d['lossWinrate']:.1f} win %, {d['lossVp']:.1f} VP")


def _step_hint(game_file, game, kind, config, top, as_json, quiet) -> None:
    """The table of single sub-decisions (--step), as before whole-turn hints."""
    import sys
    from dataclasses import replace
    config = replace(config, focus=0.0)     # single sub-decisions, ranked by visits: no final choice over turns

    from ..ai import sliced
    from ..protocol import analyze
    desc = f"{kind} for {game.names[game.decider]}"
    if kind == "flatmc":
        cands, done = _Ticker(config.seconds or None, desc, quiet).run(lambda: analyze.flat_candidates(game, config))
        info = {"iterations": done, "nodes": None, "seconds": None}
    elif config.seconds and not config.iterations:
        result = _Ticker(config.seconds, desc, quiet).run(lambda: analyze.search(game, config))
    else:
        from tqdm import tqdm
        slices = _hint_slices(config.iterations)
        budget = config.iterations
        bar = tqdm(total=budget, desc=desc, unit="it", file=sys.stderr, disable=quiet, unit_scale=True)
        done_box = [0]

        def tick(partial):
            bar.update(partial.iterations - done_box[0])
            done_box[0] = partial.iterations

        result = sliced.sliced_search(game, replace(config, seconds=0.0), slices=slices, on_slice=tick)
        bar.update(result.iterations - done_box[0])
        bar.close()
    notes = []
    if kind != "flatmc":
        cands = analyze.candidate_dicts(result, None)
        notes = list(result.notes)        # the figures' calibration (budget, search), as the whole-turn hint says it
        info = {"iterations": result.iterations, "nodes": result.nodes, "seconds": round(result.seconds, 4)}
    shown = cands[:top]
    if as_json:
        from dataclasses import asdict
        _echo_json({"file": game_file, "player": game.names[game.decider], "seat": game.decider,
                    "phase": game.phase, "bot": kind, "candidates": shown,
                    # every legal move, and the moves the search tried (a PUCT search may leave a low-prior
                    # move untried: it is legal but has no figures)
                    "legal_moves": len(game.legal_moves()), "searched_moves": len(cands),
                    "rootInfo": info, "config": asdict(config), "warnings": notes})
        return
    budget = f"{info['iterations']} iterations" + (f", {info['nodes']} nodes" if info["nodes"] else "") + \
             (f", {info['seconds']:.2f} s" if info["seconds"] is not None else "")
    click.echo(f"{game.names[game.decider]} decides ({render.status_line(game).split(': ', 1)[0]}, "
               f"{game.phase}); {kind}: {budget}; {len(game.legal_moves())} legal moves, {len(cands)} searched")
    width = max(4, *(len(c["move"]) for c in shown))
    if kind == "flatmc":
        click.echo(f"{'#':>2}  {'move':<{width}}  {'reward':>6}  {'visits':>7}")
        for i, c in enumerate(shown, 1):
            click.echo(f"{i:>2}  {c['move']:<{width}}  {c['utility']:>6.3f}  {c['visits']:>7}")
        return
    click.echo(f"{'#':>2}  {'move':<{width}}  {'win %':>5}  {'margin':>6}  {'VP':>5}  {'visits':>7}  principal variation")
    for i, c in enumerate(shown, 1):
        click.echo(f"{i:>2}  {c['move']:<{width}}  {100 * c['winrate']:>5.1f}  {c['scoreLead']:>+6.1f}  "
                   f"{c['vp']:>5.1f}  {c['visits']:>7}  {'; '.join(c['pv'])}")
    for note in notes:
        click.echo(f"note: {note}")


@main.command()
@click.option("--root", default=None, metavar="DIR",
              help="Read `file` queries only inside DIR (relative paths start there; symlinks are resolved and "
                   "a path that leads outside is refused). Default: any file you can read.")
def analyze(root):
    """A JSON-lines analysis engine on stdin/stdout (in the style of KataGo's analysis engine).

    Each input line is a query; each answer is one line. Queries: id, position (object) or file
    (a game file or position file), optional moves (applied first), iterations or seconds,
    lines (top K), config (search knobs), seed, reportEvery (seconds between partial reports, at
    least 0.05). {"id": X, "action": "terminate"} stops query X (its answer says "terminated");
    {"id": T, "action": "terminate_all"} stops every query. Errors are answered as
    {"id", "error", "field"} and the engine keeps serving. See docs/analyze.md.

    \b
    Examples:
      echo '{"id": "a", "file": "game.json", "iterations": 2000, "lines": 3}' | concordia analyze
      concordia analyze --root games/ < queries.jsonl > answers.jsonl
    """
    import os

    from ..protocol import analyze as engine
    if root is not None and not os.path.isdir(root):
        raise UserError(f"--root: {root} is not a folder; give the folder that `file` queries may read")
    return engine.serve(sys.stdin, sys.stdout, root=root)
