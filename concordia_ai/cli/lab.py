"""Bots, tournaments and ratings: bots, tournament, rate."""
from __future__ import annotations

import os

import click

from ..engine import limits
from ..io import safe_read
from ..engine.content import BOARD_NAMES
from ..lab import runner
from .app import UserError, main
from .common import Bounded, _board_name, _echo_json

def _parse_sprt(value):
    if value is None:
        return None
    if isinstance(value, (list, tuple)):
        parts = list(value)
    else:
        parts = [x.strip() for x in str(value).split(",")]
    if len(parts) != 2:
        raise UserError(f"--sprt: {limits.shown(value)} is not ELO0,ELO1 (e.g. 0,50)")
    try:
        elo0, elo1 = (limits.ELO.check(x) for x in parts)
    except limits.LimitError as e:
        raise UserError(f"--sprt: {e}") from None
    if not elo0 < elo1:
        raise UserError(f"--sprt: ELO0 must be below ELO1, got {elo0:g},{elo1:g}")
    return elo0, elo1


TOURNAMENT_KEYS = ("bots", "games", "players", "map", "seed", "jobs", "out", "sprt", "backend", "scheduler",
                   "wine_variant", "intermediate_scoring", "tls_ca_file", "tls_cert", "tls_key")
PLAYERS = limits.Bound("players", 2, 5)
# what each key of a tournament .toml must be: a bound for numbers, else a type (a bool is no number)
_TOML_TYPES = {"games": limits.TOURNAMENT_GAMES, "players": PLAYERS, "seed": limits.SEED,
               "jobs": limits.TOURNAMENT_JOBS, "map": str, "out": str, "backend": str, "scheduler": str,
               "wine_variant": bool, "intermediate_scoring": bool, "tls_ca_file": str, "tls_cert": str,
               "tls_key": str}
_TYPE_WORDS = {str: "a string", bool: "true or false"}


def _read_tournament_toml(path: str) -> dict:
    try:
        data = safe_read.read_toml(path)
    except safe_read.UserFileError as e:
        raise UserError(f"--config: {e}") from None
    for key in data:
        if key not in TOURNAMENT_KEYS:
            raise UserError(f"--config: {path}: unknown key {key!r}; valid: {', '.join(TOURNAMENT_KEYS)}")
    for key, want in _TOML_TYPES.items():
        if key not in data:
            continue
        if isinstance(want, limits.Bound):
            try:
                data[key] = want.check(data[key], key)
            except limits.LimitError as e:
                raise UserError(f"--config: {path}: {e}") from None
        elif not isinstance(data[key], want):
            raise UserError(f"--config: {path}: {key} must be {_TYPE_WORDS[want]}")
    bots = data.get("bots")
    if bots is not None:
        if not isinstance(bots, dict) or not bots:
            raise UserError(f"--config: {path}: [bots] must be a table of NAME = \"SPEC\" or NAME = {{type = ...}}")
        data["bots"] = list(bots.items())
    return data


def _check_scheduler(address: str, tls: dict) -> None:
    try:
        runner.check_scheduler(address, tls)
    except runner.BackendError as e:
        raise UserError(str(e)) from None


def _tls_settings(ca_file, cert, key) -> dict:
    try:
        return runner.tls_settings(ca_file, cert, key)
    except runner.BackendError as e:
        raise UserError(str(e)) from None


def _parse_bot_options(values) -> list[tuple[str, str]]:
    out = []
    for value in values:
        name, eq, spec = value.partition("=")
        if not eq or ":" in name or name.strip().endswith(".toml"):   # no NAME=: named after its type
            name, spec = value.split(":")[0].strip(), value
        if not spec.strip():
            raise UserError(f"--bot: {value!r} has no spec; give NAME=SPEC, e.g. mcts=ismcts:iterations=2000")
        out.append((name.strip(), spec.strip()))
    return out


DEFAULT_TOURNAMENT_GAMES = 32


@main.command()
@click.option("--bot", "bot_values", multiple=True, metavar="NAME=SPEC",
              help="A bot: NAME=SPEC (repeat). SPEC as in 'concordia bots', e.g. mcts=ismcts:iterations=2000.")
@click.option("--config", "config_file", default=None, metavar="FILE.toml",
              help="Bots and options from a TOML file ([bots] table; keys as the options); options given here win.")
@click.option("--games", type=Bounded(limits.TOURNAMENT_GAMES), default=None, metavar="N",
              help="Games in total, rounded up to whole seed blocks (default 8 blocks; with --sprt the maximum, "
                   "default 1000 blocks).")
@click.option("--players", type=Bounded(PLAYERS), default=None, metavar="P",
              help="Players per game, 2 to 5 (default: bots, 2 to 4).")
@click.option("--map", "board", default=None, metavar="MAP", help=f"The board: {', '.join(BOARD_NAMES)} (default imperium).")
@click.option("--seed", type=Bounded(limits.SEED), default=None, metavar="S", help="Tournament seed (default 0).")
@click.option("--jobs", type=Bounded(limits.TOURNAMENT_JOBS), default=None, metavar="J",
              help="Parallel games (default: all cores).")
@click.option("--out", default=None, metavar="DIR",
              help="Folder of the log (games.jsonl) and configuration (default results/tournament-DATE-TIME).")
@click.option("--resume", is_flag=True, help="Continue the tournament logged in --out, playing only missing games.")
@click.option("--sprt", default=None, metavar="ELO0,ELO1",
              help="Two bots: stop once the SPRT (alpha = beta = 0.05) decides elo0 against elo1 for the first bot.")
@click.option("--backend", type=click.Choice(["loky", "dask"]), default=None,
              help="Where games run: local processes (loky, default) or a Dask cluster.")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Dask scheduler address (tcp://host:8786); default with --backend dask: a local cluster.")
@click.option("--tls-ca-file", default=None, metavar="FILE",
              help="Dask TLS: the cluster's certificate authority (with a tls:// --scheduler).")
@click.option("--tls-cert", default=None, metavar="FILE", help="Dask TLS: this client's certificate.")
@click.option("--tls-key", default=None, metavar="FILE", help="Dask TLS: this client's private key.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def tournament(bot_values, config_file, games, players, board, seed, jobs, out, resume, sprt, backend, scheduler,
               tls_ca_file, tls_cert, tls_key, as_json, quiet):
    """Play games between bots with seat rotation on shared seeds; log every game; rate the bots.

    A seed block is P games on one seed with the bots rotated through every seat. Every finished
    game is appended to DIR/games.jsonl at once (flushed and synced), so --resume after a crash
    plays exactly the missing games. The summary: win rate with 95% interval, mean rank, mean VP,
    mean VP margin, and Plackett-Luce ratings (Elo scale) with bootstrap intervals. With no --bot
    and no --config, a default tournament runs: heuristic, greedy, random and ismcts:iterations=2000,
    4 players on Imperium, 32 games (about a minute on 2 cores).

    \b
    Examples:
      concordia tournament
      concordia tournament --bot mcts=ismcts:iterations=2000 --bot heur=heuristic --games 40 --out results/t1
      concordia tournament --out results/t1 --resume
      concordia tournament --bot new=ismcts:c=0.5 --bot old=ismcts --players 2 --sprt 0,50 --jobs 2
      concordia tournament --config tourney.toml --backend dask --scheduler tcp://10.0.0.5:8786
    """
    import time as _time

    from ..lab import tournament as T

    file_opts = _read_tournament_toml(config_file) if config_file else {}
    bots = _parse_bot_options(bot_values) if bot_values else file_opts.get("bots")
    default_run = bots is None and not resume
    spec = {}
    if default_run:
        bots = list(T.DEFAULT_BOTS)
        if games is None and "games" not in file_opts:
            games = DEFAULT_TOURNAMENT_GAMES
    if bots is not None:
        spec["bots"] = bots
    pick = lambda cli, key: cli if cli is not None else file_opts.get(key)  # noqa: E731
    for key, cli in (("games", games), ("players", players), ("map", board), ("seed", seed)):
        value = pick(cli, key)
        if value is not None:
            spec[key] = value
    sprt_value = _parse_sprt(pick(sprt, "sprt"))
    if sprt_value is not None:
        spec["sprt"] = sprt_value
    game_options = {k: True for k in ("wine_variant", "intermediate_scoring") if file_opts.get(k)}
    if game_options:
        spec["game_options"] = game_options
    if not resume:
        spec.setdefault("players", 4 if default_run else None)
        spec.setdefault("map", "imperium")
        spec.setdefault("seed", 0)
    if "map" in spec and spec["map"] is not None:
        spec["map"] = _board_name(str(spec["map"]))
    jobs = pick(jobs, "jobs")
    if jobs is None:
        jobs = min(os.cpu_count() or 1, limits.TOURNAMENT_JOBS.high)
    out = pick(out, "out")
    backend = pick(backend, "backend") or "loky"
    scheduler = pick(scheduler, "scheduler")
    if backend not in ("loky", "dask"):
        raise UserError(f"--backend: {backend!r}; valid: loky, dask")
    if scheduler and backend != "dask":
        raise UserError("--scheduler is for --backend dask (add --backend dask)")
    tls = _tls_settings(pick(tls_ca_file, "tls_ca_file"), pick(tls_cert, "tls_cert"), pick(tls_key, "tls_key"))
    if tls and not scheduler:
        raise UserError("--tls-ca-file/--tls-cert/--tls-key are for a remote cluster: add --backend dask "
                        "--scheduler tls://HOST:PORT")
    if scheduler:
        _check_scheduler(scheduler, tls)
    if out is None:
        if resume:
            raise UserError("--resume needs --out DIR, the folder of the tournament to continue")
        out = os.path.join("results", "tournament-" + _time.strftime("%Y%m%d-%H%M%S"))
    if default_run and not quiet and not as_json:
        click.echo("no --bot given: the default tournament (" + ", ".join(s for _, s in bots) +
                   f"; {spec['players']} players, {spec['map'].title()}, {spec.get('games')} games)", err=True)
    summary = T.run(spec, out, jobs=jobs, resume=resume, backend=backend, scheduler=scheduler,
                    progress=not quiet, tls=tls or None)
    if as_json:
        _echo_json(summary)
        return
    stop = ""
    if summary.get("stopped") == "sprt":
        stop = "; stopped by the SPRT"
    click.echo(f"{summary['map'].title()}, {summary['players']} players: {summary['new_games']} games played now, "
               f"{summary['games']} in the log {summary['log']} ({summary['wall_seconds']:.1f} s){stop}")
    click.echo(T.ratings.format_table(summary))


@main.command()
@click.argument("log", metavar="LOG")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option("--bootstrap", type=Bounded(limits.BOOTSTRAP), default=200, show_default=True,
              help="Bootstrap resamples for the rating intervals (0: none).")
def rate(log, as_json, bootstrap):
    """Recompute the tournament table from a log (DIR/games.jsonl, or the folder DIR).

    \b
    Examples:
      concordia rate results/t1/games.jsonl
      concordia rate results/t1 --json
    """
    from ..lab import tournament as T
    summary = T.rate(log, bootstrap=bootstrap)
    if as_json:
        _echo_json(summary)
    else:
        click.echo(f"{summary['log']}: {summary['map'].title()}, {summary['players']} players")
        click.echo(T.ratings.format_table(summary))


@main.command(name="bots")
@click.option("--json", "as_json", is_flag=True, help="Print the list as JSON.")
def bots_command(as_json):
    """List the bot types, their parameters and defaults (for --bot SPEC: TYPE:KEY=VALUE,...).

    \b
    Examples:
      concordia bots
      concordia bots --json
    """
    from ..ai.bots import describe_bots
    info = describe_bots()
    if as_json:
        _echo_json(info)
        return
    for b in info:
        click.echo(f"{b['name']}: {b['description']}")
        for p in b["params"]:
            line = f"    {p['name']:<14} {p['type']:<6} default {p['default']!r}"
            click.echo(f"{line:<48} {p['help']}" if p["help"] else line)
    from ..ai.search import effective_c_puct_log, effective_eval
    evals = [effective_eval("auto", n) for n in (3, 2)]
    logs = [f"{effective_c_puct_log('auto', n):g}" for n in (3, 2)]
    eval_words = (f"eval {evals[0]} with 2-5 players" if evals[0] == evals[1]
                  else f"eval {evals[0]} with 3-5 players, {evals[1]} with 2")
    click.echo(f"auto: resolved by the game's player count: {eval_words}; "
               f"c_puct_log {logs[0]} with 3-5 players, {logs[1]} with 2")
    click.echo("spec: TYPE or TYPE:KEY=VALUE,... (e.g. ismcts:iterations=2000,c=0.5) or a .toml file with "
               "type = \"...\"")

