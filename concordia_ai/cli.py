"""The `concordia` command line.

Error policy for every command: a user error prints one line on stderr naming the bad input and
what would be valid, and exits with code 2 (no traceback). The policy lives in one place,
`ConcordiaGroup.main`: commands just raise (UserError, GameError, NotationError, PositionError,
GameFileError or a click error) and never print errors themselves.

Adding a command: write one function decorated with `@main.command(...)` (its docstring is the
--help text and must end with an example); load a game with `_load(path)` and save with `gf.save()`.
"""
from __future__ import annotations

import json
import os
import re
import secrets
import sys
from collections import Counter

import click

from concordia_ai import __version__

from . import compiled, core, render
from .content import BOARD_NAMES
from .errors import ConcordiaError
from .game import CHANCE, Game, GameError
from .gamefile import GameFile, GameFileError
from .notation import NotationError, resolve
from .position import PositionError

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 100}
USAGE_EXIT = 2


class UserError(click.ClickException):
    """A bad input from the user: printed as one line `error: ...`, exit code 2."""
    exit_code = USAGE_EXIT


USER_ERRORS = (UserError, ConcordiaError, GameError, NotationError, PositionError, GameFileError)


def _one_line(text: str) -> str:
    return re.sub(r"\s*\n\s*", " ", str(text)).strip()


def _fail(message: str, code: int = USAGE_EXIT) -> None:
    click.echo(f"error: {_one_line(message)}", err=True)
    sys.exit(code)


class ConcordiaGroup(click.Group):
    """The command group, with the single error-handling wrapper of the CLI."""

    def main(self, *args, standalone_mode: bool = True, **kwargs):
        if not standalone_mode:
            return super().main(*args, standalone_mode=False, **kwargs)
        try:
            rv = super().main(*args, standalone_mode=False, **kwargs)
        except USER_ERRORS as e:
            _fail(e.format_message() if isinstance(e, click.ClickException) else str(e))
        except click.UsageError as e:
            hint = ""
            if e.ctx is not None:
                hint = f" (usage: {e.ctx.command_path} {' '.join(e.ctx.command.collect_usage_pieces(e.ctx))};" \
                       f" see '{e.ctx.command_path} --help')"
            _fail(e.format_message() + hint, e.exit_code)
        except click.ClickException as e:
            _fail(e.format_message(), e.exit_code)
        except click.Abort:
            _fail("aborted", 1)
        except KeyboardInterrupt:
            _fail("interrupted", 130)
        except BrokenPipeError:
            sys.exit(0)
        except Exception as e:  # a bug: keep the promise of one line, unless debugging
            if os.environ.get("CONCORDIA_DEBUG"):
                raise
            _fail(f"internal error (please report; set CONCORDIA_DEBUG=1 for a traceback): "
                  f"{type(e).__name__}: {e}", 1)
        sys.exit(rv if isinstance(rv, int) else 0)


@click.group(cls=ConcordiaGroup, context_settings=CONTEXT_SETTINGS)
@click.version_option(__version__, "-V", "--version", prog_name="concordia")
def main() -> None:
    """Play, analyse and study the board game Concordia.

    Track a real game and ask for move hints, run tournaments between bots, and answer research
    questions with thousands of simulated games. Boards: Imperium, Italia, Creta, Aegyptus.

    \b
    Tracking a game:
      concordia new game.json --map imperium --players 3 --seed 7
      concordia show game.json
      concordia moves game.json
      concordia play game.json "play Architect" "move land Roma > Novaria-Roma" "build Novaria" done
      concordia undo game.json
      concordia score game.json

    \b
    Hints, analysis and bots:
      concordia hint game.json --time 2 --top 5
      concordia analyze < queries.jsonl
      concordia tournament                      (a default tournament, about a minute on 2 cores)
      concordia tournament --bot mcts=ismcts:iterations=2000 --bot heur=heuristic --players 2 --games 40
      concordia rate results/tournament-x/games.jsonl
      concordia bots

    \b
    Examples:
      concordia --version
      concordia COMMAND --help
    """


# ---------------------------------------------------------------- shared helpers

GAME_FILE = click.argument("game_file", metavar="GAME_FILE")


def _load(path: str) -> GameFile:
    return GameFile.load(path)


def _echo_json(data) -> None:
    click.echo(json.dumps(data, indent=2))


def _split_list(values, option: str) -> list[str]:
    """Comma (or newline) separated items from one or more option values; '@FILE' reads FILE."""
    items = []
    for value in values:
        if value.startswith("@"):
            try:
                with open(value[1:], encoding="utf-8") as f:
                    value = f.read()
            except OSError as e:
                raise UserError(f"{option}: cannot read {value[1:]}: {e.strerror or e}") from None
        items += [x.strip() for x in re.split(r"[,\n]", value) if x.strip() and not x.strip().startswith("#")]
    return items


def _parse_cities(values, board: compiled.CompiledBoard, goods) -> dict[str, str]:
    """--cities CITY=GOOD,...: every city of the board with its good, checked against the city tokens."""
    cities = [c for c, letter in zip(board.cities, board.city_letter) if letter >= 0]
    out: dict[str, str] = {}
    for item in _split_list(values, "--cities"):
        if item.count("=") != 1:
            raise UserError(f"--cities: {item!r} is not CITY=GOOD (e.g. {cities[0]}={goods[0]})")
        name, good = (x.strip() for x in item.split("="))
        try:
            city = resolve(name, cities, f"city of {board.source.name.title()}")
            good = resolve(good, list(goods), "good")
        except NotationError as e:
            raise UserError(f"--cities: {e}") from None
        if city in out and out[city] != good:
            raise UserError(f"--cities: {city} is given twice ({out[city]} and {good})")
        out[city] = good
    missing = [c for c in cities if c not in out]
    if missing:
        raise UserError(f"--cities: no good given for {len(missing)} of {len(cities)} cities: {', '.join(missing)}")
    # the city tokens of each letter are a fixed set: a typo shows as a count that does not match
    tokens = compiled.rules().raw.city_tokens
    for li, letter in enumerate(compiled.LETTERS):
        have = Counter(out[c] for c, l in zip(board.cities, board.city_letter) if l == li)
        if not have:
            continue
        want = Counter({g: n for g, n in tokens.get(letter, {}).items() if n})
        if have != want:
            fmt = lambda c: ", ".join(f"{c[g]} {g}" for g in goods if c[g]) or "none"  # noqa: E731
            raise UserError(f"--cities: the {letter} cities have {fmt(have)} but the {letter} tokens are "
                            f"{fmt(want)}; check the goods of the {letter} cities")
    return out


def _parse_names(names: str | None, players: int | None) -> tuple[list[str] | None, int]:
    if names is None:
        return None, players or 4
    lst = [x.strip() for x in names.split(",")]
    if players is not None and len(lst) != players:
        raise UserError(f"--names: {len(lst)} names given for {players} players (give one name per player, "
                        f"comma-separated, in seat order)")
    if not 2 <= len(lst) <= core.MAX_PLAYERS:
        raise UserError(f"--names: {len(lst)} names; a game has 2 to {core.MAX_PLAYERS} players")
    if not all(lst):
        raise UserError(f"--names: an empty name in {names!r}; give names like Ann,Bob,Cid")
    dup = [n for n, c in Counter(x.lower() for x in lst).items() if c > 1]
    if dup:
        raise UserError(f"--names: {dup[0]!r} is used twice; names must be distinct")
    if any(x.lower() in ("chance", "nobody") for x in lst):
        raise UserError("--names: 'chance' and 'nobody' are reserved; choose other names")
    return lst, len(lst)


def _board_name(name: str) -> str:
    key = name.strip().lower()
    if key not in BOARD_NAMES:
        raise UserError(f"--map: unknown map {name!r}; valid: {', '.join(BOARD_NAMES)}")
    return key


# ---------------------------------------------------------------- commands

@main.command()
@GAME_FILE
@click.option("--map", "board", default="imperium", show_default=True, metavar="MAP",
              help=f"The board: {', '.join(BOARD_NAMES)}.")
@click.option("--players", type=click.IntRange(2, core.MAX_PLAYERS), default=None,
              help="Number of players, 2 to 5 (default: the number of --names, else 4).")
@click.option("--seed", type=click.IntRange(0, 2 ** 63 - 1), default=None,
              help="Seed of a simulated game (same seed, same game); default: a random seed, printed.")
@click.option("--names", metavar="A,B,..", help="Player names in seat order, first player first (default P1..PN).")
@click.option("--cities", multiple=True, metavar="CITY=GOOD,..",
              help="Real table: every city's good (repeatable; '@FILE' reads the list from FILE).")
@click.option("--display", metavar="CARD,..", help="Real table: the 7 display cards left to right, e.g. Architect/I.")
@click.option("--wine-variant", is_flag=True, help="Use the wine surcharge variant of the display.")
@click.option("--intermediate-scoring", is_flag=True, help="Use the intermediate scoring variant.")
@click.option("--force", is_flag=True, help="Replace GAME_FILE if it exists.")
def new(game_file, board, players, seed, names, cities, display, wine_variant, intermediate_scoring, force):
    """Start tracking a game in GAME_FILE: a simulated one from --seed, or a real table's layout.

    A simulation draws the city goods, the display and the order of the stack from the seed (the
    engine knows the stack order; `show` never shows it). For a real table give both --cities and
    --display; cards turned up later are entered as moves (`concordia play GAME reveal Mason/I`).

    \b
    Examples:
      concordia new game.json --map italia --players 4 --seed 7
      concordia new table.json --players 3 --names Ann,Bob,Cid \\
          --cities "Isca Dumnoniorum=tool,Londinium=food,..." \\
          --display Architect/I,Prefect/I,Mercator/I,Colonist/I,Diplomat/I,Mason/I,Farmer/I
    """
    board = _board_name(board)
    name_list, players = _parse_names(names, players)
    if not force and os.path.lexists(game_file):
        raise UserError(f"{game_file} already exists; choose another name or pass --force to replace it")
    real = bool(cities) or display is not None
    try:
        if real:
            if not cities or display is None:
                raise UserError("a real table needs both --cities (every city's good) and --display "
                                f"(the 7 display cards); {'--display' if cities else '--cities'} is missing")
            if seed is not None:
                raise UserError("--seed is for a simulated game; a real table (--cities/--display) has no seed")
            b = compiled.board(board)
            city_goods = _parse_cities(cities, b, compiled.rules().goods)
            cards = _split_list([display], "--display")
            game = Game.from_table(board, players, city_goods, cards, name_list, wine_variant, intermediate_scoring)
            late = [c for c in game.to_json()["display"] if not c.endswith("/I")]
            if late:
                raise UserError(f"--display: at the start the display holds deck I cards only; {late[0]} is not "
                                "from deck I")
            origin = "real table"
        else:
            if seed is None:
                seed = secrets.randbelow(2 ** 31)
            game = Game.new(board, players, seed, name_list, wine_variant, intermediate_scoring)
            origin = f"simulation, seed {seed}"
    except GameError as e:
        raise UserError(f"--{e}" if re.match(r"(cities|display|names|players)\b", str(e)) else str(e)) from None
    gf = GameFile.create(game_file, game)
    gf.save(overwrite=force)
    click.echo(f"created {game_file}: {game.board.source.name.title()}, {game.n_players} players "
               f"({', '.join(game.names)}), {origin}")
    lo, hi = game.board.source.recommended_players
    if not lo <= game.n_players <= hi:
        # allowed, but the rule book recommends another board for this many players
        click.echo(f"note: the rules recommend {game.board.source.name.title()} for {lo} to {hi} players",
                   err=True)
    click.echo(render.next_line(game, game_file))


@main.command()
@GAME_FILE
@click.option("--json", "as_json", is_flag=True, help="Print the position as JSON (the stack order hidden).")
def show(game_file, as_json):
    """Show the game: board, players, display with prices, whose turn and who decides now.

    \b
    Examples:
      concordia show game.json
      concordia show game.json --json
    """
    gf = _load(game_file)
    if as_json:
        _echo_json(render.hidden_position(gf.game))
    else:
        click.echo(render.show(gf.game, len(gf.moves)))


@main.command()
@GAME_FILE
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list.")
def moves(game_file, as_json):
    """List the legal moves now, in notation, one per line (nothing when the game is over).

    \b
    Examples:
      concordia moves game.json
      concordia moves game.json --json
    """
    g = _load(game_file).game
    texts = [g.text(m) for m in g.legal_moves()]
    if as_json:
        _echo_json(texts)
    elif texts:
        click.echo("\n".join(texts))


@main.command()
@GAME_FILE
@click.argument("move", nargs=-1, required=True)
def play(game_file, move):
    """Apply one or more MOVEs in order, all or nothing.

    Quote each move that has spaces, or separate several moves in one argument with ';'.
    Words may be shortened to any unique prefix ("pl arch"). A card turned up from the stack at a
    real table is entered as `reveal CARD/DECK`. If a move is illegal, unknown or ambiguous, nothing
    is recorded and the error names the legal moves.

    \b
    Examples:
      concordia play game.json "play Architect"
      concordia play game.json "move land Roma > Novaria-Roma" "build Novaria" done
      concordia play game.json "play Senator; buy Mason/I; done"
      concordia play table.json "reveal Weaver/II"
    """
    texts = [part.strip() for m in move for part in m.split(";") if part.strip()]
    if not texts:
        raise UserError("no move given; e.g. concordia play GAME_FILE 'play Architect'")
    gf = _load(game_file)
    try:
        applied = gf.apply(texts)
    except GameFileError as e:
        if len(move) > 1 and all(" " not in m for m in move) and texts[0].lower() in (
                "play", "copy", "colonist", "move", "build", "produce", "keep", "sell", "buy", "place", "reveal"):
            raise UserError(f"{e} (quote each move: concordia play {game_file} \"{' '.join(move[:2])}\")") from None
        raise
    gf.save()
    for text in applied:
        click.echo(f"played: {text}")
    click.echo(render.next_line(gf.game, game_file))


@main.command()
@GAME_FILE
@click.option("--steps", type=int, default=1, show_default=True, metavar="K",
              help="How many moves (sub-decisions, reveals included) to take back.")
def undo(game_file, steps):
    """Take back the last K moves (replayed from the start; the file keeps the rest).

    \b
    Examples:
      concordia undo game.json
      concordia undo game.json --steps 3
    """
    gf = _load(game_file)
    dropped = gf.undo(steps)
    gf.save()
    for text in reversed(dropped):
        click.echo(f"undone: {text}")
    click.echo(render.next_line(gf.game, game_file))


@main.command()
@GAME_FILE
@click.option("--json", "as_json", is_flag=True, help="Print the scores and ranking as JSON.")
def score(game_file, as_json):
    """Score per player and god as if the game ended now (the final score once it is over), and the ranking.

    \b
    Examples:
      concordia score game.json
      concordia score game.json --json
    """
    g = _load(game_file).game
    if as_json:
        rows = render.score_rows(g)
        _echo_json({"final": g.is_over, "columns": list(rows[0].keys())[1:], "players": rows,
                    "ranking": [g.names[s] for s in g.ranking()]})
    else:
        click.echo(render.score_table(g))


# ---------------------------------------------------------------- search, analysis and tournaments

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
@click.option("--time", "seconds", type=float, default=None, metavar="SECONDS",
              help="Search budget in seconds (CPU seconds of each search process).")
@click.option("--iterations", type=int, default=None, metavar="N",
              help="Search budget in iterations (default 5000, or the --bot spec's budget).")
@click.option("--top", type=click.IntRange(1), default=5, show_default=True, metavar="K", help="Moves to show.")
@click.option("--jobs", type=click.IntRange(1), default=None, metavar="J",
              help="Root parallelism: J independent searches in processes, merged (default 1).")
@click.option("--bot", "spec", default=None, metavar="SPEC",
              help="A searching bot spec: 'ismcts:c=0.5,rollout=greedy' or 'flatmc:iterations=3000' or a .toml file.")
@click.option("--seed", type=click.IntRange(0, 2 ** 63 - 1), default=0, show_default=True, help="Search seed.")
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

    from . import analyze
    from .search import SearchConfig

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
def analyze():
    """A JSON-lines analysis engine on stdin/stdout (in the style of KataGo's analysis engine).

    Each input line is a query; each answer is one line. Queries: id, position (object) or file
    (a game file or position file), optional moves (applied first), iterations or seconds,
    lines (top K), config (search knobs), seed, reportEvery (seconds between partial reports).
    Errors are answered as {"id", "error", "field"} and the engine keeps serving. See docs/analyze.md.

    \b
    Examples:
      echo '{"id": "a", "file": "game.json", "iterations": 2000, "lines": 3}' | concordia analyze
      concordia analyze < queries.jsonl > answers.jsonl
    """
    from . import analyze as engine
    return engine.serve(sys.stdin, sys.stdout)


def _parse_sprt(value: str | None):
    if value is None:
        return None
    if isinstance(value, (list, tuple)):
        parts = list(value)
    else:
        parts = [x.strip() for x in str(value).split(",")]
    try:
        elo0, elo1 = (float(x) for x in parts)
    except (TypeError, ValueError):
        raise UserError(f"--sprt: {value!r} is not ELO0,ELO1 (e.g. 0,50)") from None
    if not elo0 < elo1:
        raise UserError(f"--sprt: ELO0 must be below ELO1, got {elo0:g},{elo1:g}")
    return elo0, elo1


TOURNAMENT_KEYS = ("bots", "games", "players", "map", "seed", "jobs", "out", "sprt", "backend", "scheduler",
                   "wine_variant", "intermediate_scoring")


def _read_tournament_toml(path: str) -> dict:
    import tomllib
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except OSError as e:
        raise UserError(f"--config: cannot read {path}: {e.strerror or e}") from None
    except tomllib.TOMLDecodeError as e:
        raise UserError(f"--config: {path} is not valid TOML: {e}") from None
    for key in data:
        if key not in TOURNAMENT_KEYS:
            raise UserError(f"--config: {path}: unknown key {key!r}; valid: {', '.join(TOURNAMENT_KEYS)}")
    bots = data.get("bots")
    if bots is not None:
        if not isinstance(bots, dict) or not bots:
            raise UserError(f"--config: {path}: [bots] must be a table of NAME = \"SPEC\" or NAME = {{type = ...}}")
        data["bots"] = list(bots.items())
    return data


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
@click.option("--games", type=int, default=None, metavar="N",
              help="Games in total, rounded up to whole seed blocks (default 8 blocks; with --sprt the maximum, "
                   "default 1000 blocks).")
@click.option("--players", type=int, default=None, metavar="P", help="Players per game (default: bots, 2 to 4).")
@click.option("--map", "board", default=None, metavar="MAP", help=f"The board: {', '.join(BOARD_NAMES)} (default imperium).")
@click.option("--seed", type=int, default=None, metavar="S", help="Tournament seed (default 0).")
@click.option("--jobs", type=int, default=None, metavar="J", help="Parallel games (default: all cores).")
@click.option("--out", default=None, metavar="DIR",
              help="Folder of the log (games.jsonl) and configuration (default results/tournament-DATE-TIME).")
@click.option("--resume", is_flag=True, help="Continue the tournament logged in --out, playing only missing games.")
@click.option("--sprt", default=None, metavar="ELO0,ELO1",
              help="Two bots: stop once the SPRT (alpha = beta = 0.05) decides elo0 against elo1 for the first bot.")
@click.option("--backend", type=click.Choice(["loky", "dask"]), default=None,
              help="Where games run: local processes (loky, default) or a Dask cluster.")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Dask scheduler address (tcp://host:8786); default with --backend dask: a local cluster.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def tournament(bot_values, config_file, games, players, board, seed, jobs, out, resume, sprt, backend, scheduler,
               as_json, quiet):
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

    from . import tournament as T

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
    jobs = pick(jobs, "jobs") or os.cpu_count() or 1
    out = pick(out, "out")
    backend = pick(backend, "backend") or "loky"
    scheduler = pick(scheduler, "scheduler")
    if backend not in ("loky", "dask"):
        raise UserError(f"--backend: {backend!r}; valid: loky, dask")
    if scheduler and backend != "dask":
        raise UserError("--scheduler is for --backend dask (add --backend dask)")
    if not isinstance(jobs, int) or jobs < 1:
        raise UserError(f"--jobs: {jobs!r} must be a positive number of parallel games")
    if out is None:
        if resume:
            raise UserError("--resume needs --out DIR, the folder of the tournament to continue")
        out = os.path.join("results", "tournament-" + _time.strftime("%Y%m%d-%H%M%S"))
    if default_run and not quiet and not as_json:
        click.echo("no --bot given: the default tournament (" + ", ".join(s for _, s in bots) +
                   f"; {spec['players']} players, {spec['map'].title()}, {spec.get('games')} games)", err=True)
    summary = T.run(spec, out, jobs=jobs, resume=resume, backend=backend, scheduler=scheduler,
                    progress=not quiet)
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
@click.option("--bootstrap", type=click.IntRange(0), default=200, show_default=True,
              help="Bootstrap resamples for the rating intervals (0: none).")
def rate(log, as_json, bootstrap):
    """Recompute the tournament table from a log (DIR/games.jsonl, or the folder DIR).

    \b
    Examples:
      concordia rate results/t1/games.jsonl
      concordia rate results/t1 --json
    """
    from . import tournament as T
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
    from .bots import describe_bots
    info = describe_bots()
    if as_json:
        _echo_json(info)
        return
    for b in info:
        click.echo(f"{b['name']}: {b['description']}")
        for p in b["params"]:
            click.echo(f"    {p['name']:<14} {p['type']:<6} default {p['default']!r}")
    click.echo("spec: TYPE or TYPE:KEY=VALUE,... (e.g. ismcts:iterations=2000,c=0.5) or a .toml file with "
               "type = \"...\"")


if __name__ == "__main__":  # pragma: no cover
    main()
