"""Hints and the analysis engine: hint, analyze."""
from __future__ import annotations

import sys

import click

from .. import limits, render
from ..game import CHANCE, GameError
from .app import UserError, main
from .common import GAME_FILE, Bounded, _echo_json, _load

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
@click.option("--time", "seconds", type=Bounded(limits.SECONDS), default=None, metavar="SECONDS",
              help="Search budget in seconds (CPU seconds of each search process).")
@click.option("--iterations", type=Bounded(limits.ITERATIONS), default=None, metavar="N",
              help="Search budget in iterations (default 5000, or the --bot spec's budget).")
@click.option("--top", type=Bounded(limits.TOP_K), default=5, show_default=True, metavar="K", help="Moves to show.")
@click.option("--jobs", type=Bounded(limits.SEARCH_JOBS), default=None, metavar="J",
              help="Root parallelism: J independent searches in processes, merged (default 1).")
@click.option("--bot", "spec", default=None, metavar="SPEC",
              help="A searching bot spec: 'ismcts:c=0.5,rollout=greedy' or 'flatmc:iterations=3000' or a .toml file.")
@click.option("--seed", type=Bounded(limits.SEED), default=0, show_default=True, help="Search seed.")
@click.option("--json", "as_json", is_flag=True, help="Print the analysis as JSON.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar on stderr.")
def hint(game_file, seconds, iterations, top, jobs, spec, seed, as_json, quiet):
    """Suggest moves for whoever decides now: ISMCTS over the unseen stack order.

    Shows the top K moves with win probability, expected VP margin over the best opponent,
    expected final VP, visits and the principal variation (revealed cards appear as 'reveal'
    moves). GAME_FILE is only read. A progress bar runs on stderr: an iteration budget is
    searched in up to 10 slices (independent searches merged at the root, like --jobs), a time
    budget in one search.

    \b
    Examples:
      concordia hint game.json
      concordia hint game.json --time 5 --top 3 --jobs 2
      concordia hint game.json --bot ismcts:iterations=20000,rollout=greedy --json
    """
    from dataclasses import replace

    from .. import analyze
    from ..search import SearchConfig

    if seconds is not None and iterations is not None:
        raise UserError("give one budget: --time SECONDS or --iterations N, not both")
    if seconds is not None and not seconds > 0:
        raise UserError(f"--time: {seconds} must be a positive number of seconds")
    if iterations is not None and iterations < 1:
        raise UserError(f"--iterations: {iterations} must be a positive number of iterations")
    kind, options = analyze.config_from_spec(spec) if spec else ("ismcts", {})
    if seconds is not None:
        options.update(seconds=seconds, iterations=0)
    elif iterations is not None:
        options.update(iterations=iterations, seconds=0.0)
    if jobs is not None:
        options["jobs"] = jobs
    try:
        config = SearchConfig(**options, seed=seed)
    except GameError as e:
        raise UserError(str(e).replace("search config: ", "")) from None
    gf = _load(game_file)
    game = gf.game
    if game.decider is None:
        raise UserError(f"{game_file}: the game is over; nobody decides (concordia score {game_file})")
    if game.decider == CHANCE:
        raise UserError(f"{game_file}: a card is revealed now, chance decides: enter the card seen "
                        f"(concordia play {game_file} 'reveal CARD/DECK'; concordia moves {game_file} lists them)")
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

        result = analyze.sliced_search(game, replace(config, seconds=0.0), slices=slices, on_slice=tick)
        bar.update(result.iterations - done_box[0])
        bar.close()
    if kind != "flatmc":
        cands = analyze.candidate_dicts(result, None)
        info = {"iterations": result.iterations, "nodes": result.nodes, "seconds": round(result.seconds, 4)}
    shown = cands[:top]
    if as_json:
        from dataclasses import asdict
        _echo_json({"file": game_file, "player": game.names[game.decider], "seat": game.decider,
                    "phase": game.phase, "bot": kind, "candidates": shown, "legal_moves": len(cands),
                    "rootInfo": info, "config": asdict(config)})
        return
    budget = f"{info['iterations']} iterations" + (f", {info['nodes']} nodes" if info["nodes"] else "") + \
             (f", {info['seconds']:.2f} s" if info["seconds"] is not None else "")
    click.echo(f"{game.names[game.decider]} decides ({render.status_line(game).split(': ', 1)[0]}, "
               f"{game.phase}); {kind}: {budget}; {len(cands)} legal moves")
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

    from .. import analyze as engine
    if root is not None and not os.path.isdir(root):
        raise UserError(f"--root: {root} is not a folder; give the folder that `file` queries may read")
    return engine.serve(sys.stdin, sys.stdout, root=root)
