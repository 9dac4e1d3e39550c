"""Research on simulated games: research cards, seats, intervene, report."""
from __future__ import annotations

import os
import time

import click

from ..engine import limits
from ..engine.content import BOARD_NAMES
from .app import UserError, main
from .common import _board_name, _echo_json, _split_list


@main.group()
def research():
    """Research questions answered with simulated games: what cards and seats are worth.

    \b
    Commands:
      cards      self-play games; per card kind and god: buy rates, and the win rate and VP of
                 seats that bought it against seats that could have and did not
      seats      the same games; the value of each seat and of one more card of each god
      intervene  controlled experiments: a seat forced to buy a card at its first chance vs forbidden
      report     the report of a run folder again, from its log
    Every figure carries its n and a 95 % interval from a bootstrap over seed blocks (docs/research.md).

    \b
    Examples:
      concordia research cards --map italia --players 3 --bot heuristic --games 300 --out runs/it3
      concordia research intervene --card Weaver --map italia --players 3 --bot heuristic --games 60
      concordia research report runs/it3
    """


def _run_options(f):
    """The options every game-playing research command shares."""
    options = [
        click.option("--map", "board", default=None, metavar="MAP",
                     help=f"The board: {', '.join(BOARD_NAMES)} (default imperium)."),
        click.option("--players", type=int, default=None, metavar="P", help="Players per game, 2 to 5 (default 4)."),
        click.option("--bot", default=None, metavar="SPEC",
                     help="The bot in every seat, as in 'concordia bots' (default ismcts, today's default bot)."),
        click.option("--seed", type=int, default=None, metavar="S", help="Run seed (default 0)."),
        click.option("--jobs", type=int, default=None, metavar="J", help="Parallel games (default: all cores)."),
        click.option("--out", default=None, metavar="DIR",
                     help="Run folder: research.json, games.jsonl, report.json, report.md, plots/ "
                          "(default results/research-COMMAND-DATE-TIME)."),
        click.option("--resume", is_flag=True, help="Continue the run in --out, playing only its missing games."),
        click.option("--backend", type=click.Choice(["loky", "dask"]), default="loky", show_default=True,
                     help="Where games run: local processes, or a Dask cluster."),
        click.option("--scheduler", default=None, metavar="ADDRESS",
                     help="Dask scheduler address (tcp://host:8786); default with --backend dask: a local cluster."),
        click.option("--tls-ca-file", default=None, metavar="FILE",
                     help="Dask TLS: the cluster's certificate authority (with a tls:// --scheduler)."),
        click.option("--tls-cert", default=None, metavar="FILE", help="Dask TLS: this client's certificate."),
        click.option("--tls-key", default=None, metavar="FILE", help="Dask TLS: this client's private key."),
        click.option("--wine-variant", is_flag=True, default=None, help="Play the wine variant of the market surcharge."),
        click.option("--intermediate-scoring", is_flag=True, default=None, help="Play with intermediate scoring."),
        click.option("--bootstrap", type=int, default=None, metavar="N",
                     help="Bootstrap resamples of the seed blocks for the intervals (default 1000)."),
        click.option("--min-n", type=int, default=None, metavar="N",
                     help="Figures resting on fewer units are shown as too few (default 30)."),
        click.option("--no-plots", is_flag=True, help="Skip the PNG plots."),
        click.option("--json", "as_json", is_flag=True, help="Print the report as JSON."),
        click.option("--quiet", "-q", is_flag=True, help="No progress bar."),
    ]
    for option in reversed(options):
        f = option(f)
    return f


def _dask_target(scheduler, ca_file, cert, key) -> dict | None:
    """The TLS files for a remote scheduler, checked as `concordia tournament` checks them."""
    from .lab import _check_scheduler, _tls_settings
    tls = _tls_settings(ca_file, cert, key)
    if tls and not scheduler:
        raise UserError("--tls-ca-file/--tls-cert/--tls-key are for a remote cluster: add --backend dask "
                        "--scheduler tls://HOST:PORT")
    if scheduler:
        _check_scheduler(scheduler, tls)
    return tls or None


def _play(experiment: str, command: str, opts: dict, cards=None, from_round=None) -> dict:
    """Check the options, play the run's missing games, write and return its report."""
    from ..lab.research import games as G, report as R, stats
    # every bound is checked before the run folder is made: a refused run leaves nothing behind
    reps = limits.RESEARCH_BOOTSTRAP.check(stats.REPS if opts["bootstrap"] is None else opts["bootstrap"],
                                           "--bootstrap")
    min_n = stats.MIN_N if opts["min_n"] is None else opts["min_n"]
    if min_n < 1:
        raise UserError(f"--min-n: {min_n} must be >= 1")
    jobs = opts["jobs"] if opts["jobs"] is not None else (os.cpu_count() or 1)
    jobs = limits.TOURNAMENT_JOBS.check(jobs, "--jobs")
    if opts["scheduler"] and opts["backend"] != "dask":
        raise UserError("--scheduler is for --backend dask (add --backend dask)")
    tls = _dask_target(opts["scheduler"], opts["tls_ca_file"], opts["tls_cert"], opts["tls_key"])
    board = _board_name(opts["board"]) if opts["board"] is not None else None
    game_options = {k: True for k in ("wine_variant", "intermediate_scoring") if opts[k]}
    given = dict(bot=opts["bot"], players=opts["players"], map=board, seed=opts["seed"], games=opts["games"],
                 cards=cards, from_round=from_round, game_options=game_options or None)
    out = opts["out"]
    if out is None:
        if opts["resume"]:
            raise UserError("--resume needs --out DIR, the folder of the run to continue")
        out = os.path.join("results", f"research-{command}-" + time.strftime("%Y%m%d-%H%M%S"))
    if opts["resume"]:
        config = None
    else:
        config = G.ResearchConfig.create(
            experiment, opts["bot"] or G.DEFAULT_BOT, opts["players"] or 4, board or "imperium", opts["seed"] or 0,
            opts["games"], cards or (), 1 if from_round is None else from_round, **game_options)
    if opts["resume"]:
        if not os.path.exists(os.path.join(out, G.CONFIG_NAME)):
            raise UserError(f"--resume: no research run in {out} to resume (no {G.CONFIG_NAME})")
        saved = G.load_config(out)
        if saved.experiment != experiment:
            raise UserError(f"--resume: {out} holds a '{saved.experiment}' run; continue it with "
                            f"'concordia research {'intervene' if saved.experiment == 'intervene' else 'cards'}'")
        config = saved
    config, records, new = G.run(config, out, jobs=jobs, resume=opts["resume"], backend=opts["backend"],
                                 scheduler=opts["scheduler"], progress=not opts["quiet"] and not opts["as_json"],
                                 given=given, tls=tls)
    rep = R.write(out, R.build(config, records, reps, min_n), with_plots=not opts["no_plots"])
    rep["out"], rep["new_games"] = out, new
    return rep


def _header(rep: dict) -> str:
    from ..lab.research.stats import FEW_BLOCKS
    c = rep["config"]
    return (f"{c['map'].title()}, {c['players']} players, bot {c['bot']}: {rep['new_games']} games played now, "
            f"{rep['games']} of {rep['planned_games']} in {rep['out']} (report.md, report.json"
            + (", plots/" if rep["plots"] else "") + ")"
            + (f"; only {rep['blocks']} seed blocks: the intervals are rough" if rep["blocks"] < FEW_BLOCKS else ""))


@research.command()
@click.option("--games", type=int, default=None, metavar="N",
              help="Games, rounded up to whole seed blocks of P games (default 100 per player).")
@_run_options
def cards(**opts):
    """What each market card (and each god) is worth, from seat-rotated self-play games.

    Per card kind: how often it is bought (per game, and of the seat-games where it was
    affordable), at which display position, from which deck, in which phase of the game; the win
    rate and mean final VP of seats that bought it against seats that could have (it was on the
    display and affordable in one of their turns) and did not, also normalised by the seats'
    baseline win rates. Observational: strong positions buy more; 'research intervene' measures
    the causal value. Every game is logged at once; --resume continues a run.

    \b
    Examples:
      concordia research cards --map italia --players 3 --bot heuristic --games 300 --out runs/it3
      concordia research cards --out runs/it3 --resume --games 600
      concordia research cards --bot ismcts:iterations=2000 --players 4 --jobs 2 --out runs/imp4
    """
    from ..lab.research.report import cards_text, purchases_text
    rep = _play("selfplay", "cards", opts)
    if opts["as_json"]:
        _echo_json(rep)
        return
    click.echo(_header(rep))
    click.echo(cards_text(rep))
    click.echo("")
    click.echo(purchases_text(rep))


@research.command()
@click.option("--games", type=int, default=None, metavar="N",
              help="Games, rounded up to whole seed blocks of P games (default 100 per player).")
@_run_options
def seats(**opts):
    """The value of each seat, and of one more card of each god during the game.

    Seat table: win rate, mean VP, VP against the game's mean and mean rank by seat, with the
    starting coins and the Praefectus Magnus: how well they offset the seat order (fair share
    1/P). Score by god: the VP one more card of each god would score for a seat at its 5th, 10th,
    ... turn and at the end (the god's multiplier then). The games are the same as those of
    'research cards' (same options, same run folder format).

    \b
    Examples:
      concordia research seats --map imperium --players 4 --bot heuristic --games 400 --out runs/imp4
      concordia research seats --out runs/it3 --resume
    """
    from ..lab.research.report import marginal_text, seats_text
    rep = _play("selfplay", "seats", opts)
    if opts["as_json"]:
        _echo_json({k: rep[k] for k in ("config", "games", "statistics", "seats", "marginal", "plots", "out")})
        return
    click.echo(_header(rep))
    click.echo(seats_text(rep))
    click.echo("")
    click.echo(marginal_text(rep))


@research.command()
@click.option("--card", "card_values", multiple=True, metavar="CARD",
              help="The card kind to force and forbid (repeat, or comma-separated; 'all' for every market kind).")
@click.option("--games", type=int, default=None, metavar="N",
              help="Game pairs per card, rounded up to whole seed blocks of P (default 10 per player).")
@click.option("--from-turn", "from_round", type=int, default=None, metavar="K",
              help="Treat the first chance from the seat's K-th turn on (default 1: its first chance at all).")
@_run_options
def intervene(card_values, from_round, **opts):
    """Controlled experiment: buy a card at the first chance (forced) against never (forbidden).

    At the treated seat's first turn where a card of the kind is affordable, in one arm the seat
    plays its Senator or Consul and buys it, in the other it never buys that kind; the bot plays
    normally otherwise. Both arms use the same seeds and the same opponents, and the treated seat
    rotates through every seat. Reported: the paired difference forced - forbidden in win rate and
    final VP (the card's value at the price paid), over the pairs where the card became
    affordable, with the price paid in coins. --from-turn K asks the same from the seat's K-th
    turn on (before it, the bot plays alone in both arms).

    \b
    Examples:
      concordia research intervene --card Weaver --map italia --players 3 --bot heuristic --games 60
      concordia research intervene --card all --bot heuristic --games 120 --jobs 2 --out runs/int
      concordia research intervene --out runs/int --resume --games 240
      concordia research intervene --card Architect --from-turn 8 --bot heuristic --games 80
    """
    from ..lab.research.report import interventions_text
    cards_list = _split_list(card_values, "--card") if card_values else None
    if not cards_list and not opts["resume"]:
        raise UserError("--card: name the card to force and forbid (e.g. --card Weaver), or --card all")
    rep = _play("intervene", "intervene", opts, cards=cards_list, from_round=from_round)
    if opts["as_json"]:
        _echo_json(rep)
        return
    click.echo(_header(rep))
    click.echo(interventions_text(rep))


@research.command(name="report")
@click.argument("folder", metavar="DIR")
@click.option("--bootstrap", type=click.IntRange(0), default=1000, show_default=True,
              help="Bootstrap resamples of the seed blocks.")
@click.option("--min-n", type=click.IntRange(1), default=30, show_default=True,
              help="Figures resting on fewer units are shown as too few.")
@click.option("--no-plots", is_flag=True, help="Skip the PNG plots.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def report_command(folder, bootstrap, min_n, no_plots, as_json):
    """Rewrite the report (report.json, report.md, plots/) of a run folder from its log.

    \b
    Examples:
      concordia research report runs/it3
      concordia research report runs/it3 --min-n 50 --json
    """
    from ..lab.research import report as R
    rep = R.from_folder(folder, limits.RESEARCH_BOOTSTRAP.check(bootstrap, "--bootstrap"), min_n,
                        with_plots=not no_plots)
    if as_json:
        _echo_json(rep)
    else:
        click.echo(R.markdown(rep))
