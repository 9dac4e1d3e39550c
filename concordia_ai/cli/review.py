"""`concordia review`: grade every recorded turn of a game against the search's best turn."""
from __future__ import annotations

import os
import sys

import click

from ..engine import limits
from ..io.atomic_write import check_writable
from ..lab.runner import map_unordered
from ..table import review as rv
from .app import UserError, main
from .budget import search_budget
from .common import GAME_FILE, _echo_json, _load
from .search import make_config


@main.command()
@GAME_FILE
@click.option("--time", "seconds", type=float, default=None, metavar="SECONDS",
              help="CPU seconds of search per turn (default 1).")
@click.option("--iterations", type=int, default=None, metavar="N",
              help="Search budget per turn in iterations instead (reproducible).")
@click.option("--jobs", type=int, default=None, metavar="J",
              help="Turns searched at once, one process each (default: every core).")
@click.option("--player", "player_name", default=None, metavar="NAME", help="Grade only this player's turns.")
@click.option("--out", "out_path", default=None, metavar="FILE.jsonl",
              help="Where graded turns are kept, one per line (default: next to the game, GAME.review.jsonl); "
                   "a rerun skips the turns graded there.")
@click.option("--plot", "plot_path", default=None, metavar="FILE.png",
              help="Write a PNG of each player's win estimate over the game.")
@click.option("--seed", type=click.IntRange(0, 2 ** 63 - 1), default=0, show_default=True, help="Search seed.")
@click.option("--json", "as_json", is_flag=True, help="Print the review as JSON.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar on stderr.")
def review(game_file, seconds, iterations, jobs, player_name, out_path, plot_path, seed, as_json, quiet):
    """Grade every recorded turn of GAME_FILE: the best alternative, the loss, and a grade.

    Each turn is searched from the position before it (1 CPU second by default; the turns run in
    parallel, one process per core). A turn's loss is the search's best turn less the played turn,
    in win % and in expected VP. Grades (inaccuracy, mistake, blunder) follow lichess's thresholds
    on the drop in win probability, scaled to the number of players (a drop counts n/2 times as much
    with n players), or KaTrain-style VP losses of 3, 6 and 12 VP, whichever is worse; see
    docs/review.md. Graded turns go to GAME.review.jsonl as they finish: an interrupted review
    (Ctrl-C) resumes there. GAME_FILE is only read.

    \b
    Examples:
      concordia review game.json
      concordia review game.json --time 3 --player Ann --plot game.png
      concordia review game.json --iterations 2000 --json
    """
    opts, _ = search_budget(seconds, iterations, 1, default_seconds=1.0)
    config = make_config(opts, seed)
    workers = limits.REVIEW_JOBS.check(jobs, "--jobs") if jobs is not None else os.cpu_count() or 1
    gf = _load(game_file)
    names = gf.game.names
    seat = None
    if player_name is not None:
        lowered = [n.lower() for n in names]
        if player_name.strip().lower() not in lowered:
            raise UserError(f"--player: {player_name!r} is not a player of {game_file}; players: {', '.join(names)}")
        seat = lowered.index(player_name.strip().lower())
    if plot_path is not None:
        _check_writable(plot_path, "--plot", ".png")
    out = out_path or rv.default_out(game_file)
    _check_writable(out, "--out", ".jsonl")
    if os.path.abspath(out) == os.path.abspath(game_file):
        raise UserError("--out: that is the game file itself; give another file name")
    from tqdm import tqdm
    from ..ai.turns import recorded_turns
    total = len([t for t in recorded_turns(gf._initial_game(), gf.moves) if seat is None or t.seat == seat])
    bar = tqdm(total=total, desc="review", unit="turn", file=sys.stderr, disable=quiet)
    result = rv.review_game(gf.initial, gf.moves, config, out, seat, workers, progress=bar.update,
                            map_fn=map_unordered)
    bar.close()
    rows = rv.summary(result.records, names)
    if seat is not None:
        rows = [rows[seat]]
    if plot_path is not None:
        rv.plot(result.records, names, plot_path, f"{os.path.basename(game_file)}: win estimate before each turn")
    # the figures' calibration, said once for the whole review (every turn is searched alike): a budget far
    # from the final-result model's, or a search other than the one it was fitted on
    from ..ai.search import figures_notes
    notes = figures_notes(config, gf._initial_game())
    per = f"{config.iterations} iterations" if config.iterations else f"{config.seconds:g} s of CPU time"
    budget = f"{per} of search per turn, {workers} turn{'s' if workers > 1 else ''} at once"
    if as_json:
        _echo_json({"file": game_file, "budget": budget, "out": out, "searched": result.searched,
                    "turns": result.records, "summary": rows, "plot": plot_path, "notes": notes})
        return
    click.echo(f"review of {game_file}: {len(result.records)} turns ({result.searched} searched now, "
               f"{len(result.records) - result.searched} read from {out}); budget: {budget}")
    for note in notes:
        click.echo(f"note: {note}")
    for line in _table(result.records):
        click.echo(line)
    click.echo("")
    click.echo("summary")
    for r in rows:
        mean = ("-" if r["meanLossWin"] is None else
                f"mean loss {100 * r['meanLossWin']:.1f} win %, {r['meanLossVp']:.1f} VP")
        counts = ", ".join(_count(r[key], word) for key, word in (("inaccuracies", "inaccuracy"),
                                                                  ("mistakes", "mistake"), ("blunders", "blunder")))
        click.echo(f"  {r['player']}: {_count(r['graded'], 'turn')} graded; {counts}; {mean}")
    if plot_path is not None:
        click.echo(f"plot: {plot_path}")


def _count(n: int, word: str) -> str:
    plural = word[:-1] + "ies" if word.endswith("y") else word + "s"
    return f"{n} {word if n == 1 else plural}"


def _table(records: list[dict]) -> list[str]:
    width = max([6] + [len(r["player"]) for r in records])
    L = [f"{'turn':>4}  {'player':<{width}}  {'grade':<10}  {'win % best':>10}  {'played':>6}  {'loss':>5}  "
         f"{'VP loss':>7}  played turn"]
    for r in records:
        if r["forced"]:
            L.append(f"{r['turn']:>4}  {r['player']:<{width}}  {'forced':<10}  {'':>10}  {'':>6}  {'':>5}  {'':>7}  "
                     f"{'; '.join(r['played'])}")
            continue
        pct = lambda x: "-" if x is None else f"{100 * x:.1f}"  # noqa: E731
        vp = "-" if r["lossVp"] is None else f"{r['lossVp']:.1f}"
        L.append(f"{r['turn']:>4}  {r['player']:<{width}}  {r['grade'] or '-':<10}  {pct(r['winBest']):>10}  "
                 f"{pct(r['winPlayed']):>6}  {pct(r['lossWin']):>5}  {vp:>7}  {'; '.join(r['played'])}")
        if rv.best_differs(r):
            L.append(f"{'':>4}  {'':<{width}}  {'':<10}  {'':>10}  {'':>6}  {'':>5}  {'':>7}  best: {'; '.join(r['best'])}")
    return L


def _check_writable(path: str, option: str, suffix: str) -> None:
    if not path.lower().endswith(suffix):
        raise UserError(f"{option}: {path!r} must end with {suffix}")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise UserError(f"{option}: folder {folder} does not exist")
    if os.path.isdir(path):
        raise UserError(f"{option}: {path} is a folder; give a file name")
    try:     # before the review's work, not after it
        check_writable(path)
    except OSError as e:
        raise UserError(f"{option}: cannot write into {folder}: {e.strerror or e}") from None
