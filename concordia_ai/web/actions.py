"""What the page asks of a game: open, start, play, undo, redo, view a position, hint, review, replay.

Everything goes through the table layer as the CLI does: GameFile.load (the replay check),
`locked(path)` from load to save, GameFile.apply / undo / redo_last, history.turns for a whole turn,
table.played for what a move announces. A request that names how many moves the page showed
(`expect`) is refused when the file has moved on since (another terminal or tab recorded a move).
"""
from __future__ import annotations

import os
import threading

from ..engine import layout, limits, vocabulary
from ..engine.content import BOARD_NAMES
from ..engine.game import CHANCE, Game
from ..table import history, played
from ..table import review as rv
from ..table.board_info import board_info
from ..table.game_file import FORMAT as GAME_FORMAT
from ..table.game_file import GameFile, locked
from ..io import safe_read
from . import any_order, jobs, replays, why
from .gamestate import page_state
from .security import Guard, WebError

HINT_SECONDS = 3.0         # as `concordia hint`
REVIEW_SECONDS = 1.0       # per turn, as `concordia review`
MAX_MOVES_PER_REQUEST = 200
MAX_ELEMENT_CHARS = 200    # an element id of the page (a tap asked about)
MAX_LISTED = 500           # names of the served folder looked at for game files (each is opened to check)


class Board:
    """The server's one open game (a path inside the served folder) and its background jobs."""

    def __init__(self, guard: Guard):
        self.guard = guard
        self.path: str | None = None
        self.jobs = jobs.Jobs()
        self._cache: tuple | None = None       # (stamp, GameFile) of the last load
        self._lock = threading.Lock()

    # ---------------------------------------------------------------- files
    def stamp(self, path: str) -> str:
        try:
            st = os.stat(path)
        except OSError:
            raise WebError(404, f"game file {self.guard.relative(path)} is gone") from None
        return f"{st.st_mtime_ns}-{st.st_size}-{st.st_ino}"

    def load(self) -> GameFile:
        if self.path is None:
            raise WebError(409, "no game is open; open a game file or start a new game")
        stamp = self.stamp(self.path)
        with self._lock:
            if self._cache and self._cache[0] == (self.path, stamp):
                return self._cache[1]
        gf = GameFile.load(self.path)
        with self._lock:
            self._cache = ((self.path, stamp), gf)
        return gf

    def version(self) -> dict:
        if self.path is None:
            return {"file": None, "version": None}
        return {"file": self.guard.relative(self.path), "version": self.stamp(self.path)}

    def files(self) -> dict:
        """The game files and tournament logs of the served folder."""
        games = []
        for name in sorted(os.listdir(self.guard.folder))[:MAX_LISTED]:
            full = os.path.join(self.guard.folder, name)
            if not name.endswith(".json") or not os.path.isfile(full) or os.path.islink(full):
                continue
            try:
                data = safe_read.read_json(full)
            except safe_read.UserFileError:
                continue
            if isinstance(data, dict) and data.get("format") == GAME_FORMAT:
                games.append(name)
        return {"folder": self.guard.folder, "games": games, "logs": replays.find_logs(self.guard.folder),
                "maps": list(BOARD_NAMES)}

    def open(self, name) -> dict:
        path = self.guard.confine(name, "file")
        if not os.path.isfile(path):
            raise WebError(404, f"file: {name!r} is not a file in the served folder")
        GameFile.load(path)          # refuse what is not a sound game file before switching to it
        self.path = path
        return self.state()

    def close(self, body: dict) -> dict:
        """Leave the open game for the start page (the page's "New game"): the file stays on disk as it
        is, listed on the start page ("left") to open again; a reload shows the start page too."""
        left = None if self.path is None else self.guard.relative(self.path)
        self.path = None
        with self._lock:
            self._cache = None
        return dict(self.state(), left=left)

    # ---------------------------------------------------------------- the page's state
    def state(self, gf: GameFile | None = None, lines: list[str] | None = None, log_from: int | None = None) -> dict:
        """The page's state; `lines`: what the log says of a change; `log_from`: the first move a change
        touched (a play, undo or redo), whose turns come along as "log", as GET /api/history?from= gives them."""
        if self.path is None:
            return {"file": None, **self.files()}
        gf = gf or self.load()
        out = page_state(gf.game, file=self.guard.relative(self.path), moves=len(gf.moves), redo=len(gf.redo),
                         version=self.stamp(self.path), late=any_order.late_steps(gf))
        if lines:
            out["lines"] = lines
        if log_from is not None:
            out["log"] = self._history(gf, log_from)
        return out

    def view(self, query: dict) -> dict:
        """The position after the first `at` moves, read-only (a point of the review chart)."""
        gf = self.load()
        at = bounded_int(query.get("at"), "at", 0, len(gf.moves), query=True)
        game = gf.replay(gf.moves[:at])
        return page_state(game, file=self.guard.relative(self.path), moves=at,
                          view={"kind": "position", "at": at, "of": len(gf.moves)})

    def history(self, query: dict) -> dict:
        """The game file's moves by turn, as `concordia log --json` gives them (table.history), from the
        `from`-th move on (0: all): the page's log after a reload, and the moves made elsewhere (another
        tab, a terminal) since the page last looked. A turn begun before `from` lists its later steps only."""
        gf = self.load()
        return self._history(gf, bounded_int(query.get("from", 0), "from", 0, len(gf.moves), query=True))

    def _history(self, gf: GameFile, start: int) -> dict:
        """The page's log has one source: these turns (table.history), here and in a change's "log"."""
        turns = []
        for t in history.turns(Game.from_json(gf.initial), gf.moves):
            if t.steps[-1].index < start:
                continue
            out = history.turn_json(t)
            out["steps"] = [x for x in out["steps"] if x["move"] > start]
            turns.append(out)
        return {"file": self.guard.relative(self.path), "moves": len(gf.moves), "from": start,
                "players": list(gf.game.names), "turns": turns}

    def why(self, query: dict) -> dict:
        """Why a tap on the element `el` makes no legal move now (`alt`: what it stands for too, a city's
        province; `selected`: the elements tapped before it, comma-separated), in the words the CLI uses
        for that step (web/why.py)."""
        el, alt, selected = query.get("el"), query.get("alt") or None, query.get("selected", "")
        for field, value in (("el", el), ("alt", alt or "-")):
            if not isinstance(value, str) or not value or len(value) > MAX_ELEMENT_CHARS:
                raise WebError(400, f"{field}: give the id of the element tapped (at most {MAX_ELEMENT_CHARS} "
                                    f"characters)")
        if len(selected) > 10 * MAX_ELEMENT_CHARS:
            raise WebError(400, "selected: too many elements")
        gf = self.load()
        return {"el": el, "moveCount": len(gf.moves),
                "reason": why.tap_reason(gf.game, el, [x for x in selected.split(",") if x], alt)}

    # ---------------------------------------------------------------- starting a game
    def board_info(self, query: dict) -> dict:
        name = str(query.get("map", "")).strip().lower()
        if name not in BOARD_NAMES:
            raise WebError(400, f"map: unknown map {query.get('map')!r}; valid: {', '.join(BOARD_NAMES)}")
        info = board_info(vocabulary.board(name))
        deck1 = sorted({m.name for m in vocabulary.rules().market if m.deck == 0})
        return {"map": name, "cities": [{"name": c["name"], "letter": c["letter"], "province": c["province"]}
                                        for c in info["cities"] if c.get("letter")],
                "tokens": info["city_tokens"], "goods": list(vocabulary.rules().goods), "deckI": deck1,
                "players": list(info["recommended_players"])}

    def new(self, body: dict) -> dict:
        """Start a game file in the served folder: a simulation from a seed, or a real table's layout
        (Game.new / Game.from_table, as `concordia new`); an existing file is never replaced.

        A refusal names the form field at fault ("field": file, map, names, players, seed, cities or
        display; "items": the cities or display places), with the words of `concordia new`: the names and
        the layout go through the same checks (engine/layout.py, then the strict position check)."""
        name = body.get("file")
        if not isinstance(name, str) or not name.strip().endswith(".json"):
            raise WebError(400, "file: give a new file name ending in .json, e.g. game.json", "file")
        name = name.strip()
        try:
            path = self.guard.confine(name, "file")
        except WebError as e:
            raise WebError(e.status, e.message, "file") from None
        if os.path.lexists(path):
            raise WebError(409, f"file: {name} already exists; choose another name (nothing was replaced)", "file")
        if not os.path.isdir(os.path.dirname(path)):
            raise WebError(400, f"file: the folder of {name} does not exist", "file")
        board = body.get("map", "imperium")
        if not isinstance(board, str) or board.strip().lower() not in BOARD_NAMES:
            raise WebError(400, f"map: unknown map {limits.shown(board)}; valid: {', '.join(BOARD_NAMES)}", "map")
        board = board.strip().lower()
        names = body.get("names")
        if names is not None and (not isinstance(names, list) or not all(isinstance(n, str) for n in names)):
            raise WebError(400, "names: give a list of player names, first player first", "names")
        players = None
        if body.get("players") is not None or names is None:
            try:
                players = bounded_int(body.get("players", 4), "players", 2, 5)
            except WebError as e:
                raise WebError(e.status, e.message, "players") from None
        if names is not None:       # as `concordia new --names`: one per player, distinct, printable, not reserved
            names, players = layout.names(names, players)
        options = {"wine_variant": body.get("wine_variant") is True,
                   "intermediate_scoring": body.get("intermediate_scoring") is True}
        table = body.get("table")
        if table is not None:
            if not isinstance(table, dict):
                raise WebError(400, "table: give {\"cities\": {city: good}, \"display\": [7 cards]}", "cities")
            game = Game.from_table(board, players, table.get("cities"), table.get("display"), names, **options)
            origin = "real table"
        else:
            seed = body.get("seed")
            if seed is None:
                import secrets
                seed = secrets.randbelow(2 ** 31)
            try:
                seed = limits.SEED.check(seed, "seed", strings=False)
            except limits.LimitError as e:
                raise WebError(400, str(e), "seed") from None
            game = Game.new(board, players, seed, names, **options)
            origin = f"simulation, seed {seed}"
        gf = GameFile.create(path, game)
        with locked(path):
            gf.save(overwrite=False)
        self.path = path
        return self.state(lines=[f"created {name}: {game.board.source.name.title()}, {game.n_players} players "
                                 f"({', '.join(game.names)}), {origin}"])

    # ---------------------------------------------------------------- changing the game
    def _changed(self, gf: GameFile, body: dict) -> None:
        expect = body.get("expect")
        if expect is not None and expect != len(gf.moves):
            raise WebError(409, f"the game changed since the page showed it ({len(gf.moves)} moves recorded, the "
                                f"page showed {expect}); nothing was recorded, look again")

    def play(self, body: dict) -> dict:
        moves = body.get("moves")
        if isinstance(moves, str):
            moves = [moves]
        if not isinstance(moves, list) or not moves or not all(isinstance(m, str) and m.strip() for m in moves):
            raise WebError(400, "moves: give a list of moves in notation, e.g. [\"play Architect\"]")
        if len(moves) > MAX_MOVES_PER_REQUEST:
            raise WebError(400, f"moves: {len(moves)} moves in one request; at most {MAX_MOVES_PER_REQUEST}")
        path = self._path()
        with locked(path):
            gf = GameFile.load(path)
            self._changed(gf, body)
            if gf.game.is_over:
                raise WebError(400, "the game is over; no move can be recorded")
            before = gf.game.clone()
            applied = gf.apply([m.strip() for m in moves])
            gf.save()
        lines = []
        changed = len(gf.moves) - len(applied)      # the first move recorded (again)
        if gf.replaced:     # as `concordia play` says it: the turn recorded again in the engine's order
            before = gf.replay(gf.moves[:changed])
            lines.append(f"this turn's {gf.replaced} earlier step{'s' if gf.replaced > 1 else ''} and the new ones, "
                         f"recorded in the canonical order:")
        return self.state(lines=lines + events(before, applied), log_from=changed)

    def undo(self, body: dict) -> dict:
        """The last move, or with "turn": true the whole turn (as `concordia undo --turn`)."""
        path = self._path()
        with locked(path):
            gf = GameFile.load(path)
            self._changed(gf, body)
            if not gf.moves:
                raise WebError(400, "nothing to undo: the game has no moves since its start")
            if body.get("turn") is True:
                last = history.turns(Game.from_json(gf.initial), gf.moves)[-1]
                dropped = gf.undo(len(last.steps))
                lines = [f"undone: turn {last.number + 1}, {last.player}: {'; '.join(dropped)}"]
            else:
                lines = [f"undone: {t}" for t in reversed(gf.undo(1))]
            gf.save()
        return self.state(lines=lines, log_from=len(gf.moves))

    def redo(self, body: dict) -> dict:
        path = self._path()
        with locked(path):
            gf = GameFile.load(path)
            self._changed(gf, body)
            before = gf.game.clone()
            steps = gf.redo_last()
            gf.save()
        return self.state(lines=played.lines(before, steps, verb="redone", results=True),
                          log_from=len(gf.moves) - len(steps))

    def _path(self) -> str:
        if self.path is None:
            raise WebError(409, "no game is open; open a game file or start a new game")
        return self.path

    # ---------------------------------------------------------------- searches
    def hint(self, body: dict) -> dict:
        gf = self.load()
        game = gf.game
        if game.decider is None:
            raise WebError(400, "the game is over; nobody decides, so there is nothing to hint")
        if game.decider == CHANCE:
            raise WebError(400, "a card is revealed now: pick the card seen from the unseen cards; a hint "
                                "follows for the player after")
        config, described = jobs.search_config(body, HINT_SECONDS, os.cpu_count() or 1)
        top = bounded_int(body.get("top", 5), "top", 1, int(limits.TOP_K.high))
        job = self.jobs.start("hint", self.path, len(gf.moves), jobs.hint_work(game.clone(), config, top))
        return dict(job.to_json(), budget=described)

    def review(self, body: dict) -> dict:
        gf = self.load()
        config, described = jobs.search_config(body, REVIEW_SECONDS)
        out = rv.default_out(self.path)
        job = self.jobs.start("review", self.path, len(gf.moves),
                              jobs.review_work(gf.initial, list(gf.moves), config, out))
        return dict(job.to_json(), budget=described + " per turn")

    def job(self, query: dict) -> dict:
        return self.jobs.get(str(query.get("id", ""))).to_json()

    def stop(self, body: dict) -> dict:
        job = self.jobs.get(str(body.get("job", "")))
        job.stop.stop()
        return job.to_json()

    # ---------------------------------------------------------------- replays
    def replay(self, query: dict) -> dict:
        """A tournament log's games, or with `game` (and `at`) the position in one of them."""
        path = self.guard.confine(query.get("file"), "file")
        if not os.path.isfile(path):
            raise WebError(404, f"file: {query.get('file')!r} is not a file in the served folder")
        records = replays.read(path)
        if query.get("game") is None:
            return {"file": self.guard.relative(path), "games": replays.summaries(records)}
        i = bounded_int(query.get("game"), "game", 0, len(records) - 1, query=True)
        record = records[i]
        at = bounded_int(query.get("at", 0), "at", 0, limits.TURN_NUMBER.high * 10, query=True)
        game, at = replays.position(record, at, i + 1)
        total = len(record["moves"])
        return page_state(game, file=self.guard.relative(path), moves=at,
                          view={"kind": "replay", "game": i, "at": at, "of": total,
                                "seats": [s["spec"] for s in record["seats"]]})


def events(before: Game, steps) -> list[str]:
    """What the page's log says of steps played from `before`, in the words of `concordia play`, besides the
    steps themselves (the log's line of their turn shows those, grouped as `concordia log` groups them and as
    the log reads after a reload): why a card was turned up by itself, a Tribune's cards back and coins, the
    announcements."""
    return [line for line in played.lines(before, steps, verb=STEP, results=True) if not line.startswith(f"{STEP}: ")]


STEP = "played"     # the verb of played.lines' line for each step, which the log shows in its turn's line


def bounded_int(value, field: str, low: int, high: int, query: bool = False) -> int:
    """An integer field of a request in low..high. A JSON body's number is a JSON number, never the
    string "3" (as `concordia analyze` takes it); a query string's (`query`) is digits."""
    if high < low:
        raise WebError(400, f"{field}: nothing to choose from")
    if query and isinstance(value, str) and len(value) <= limits.MAX_NUMBER_CHARS \
            and value.strip().lstrip("-").isdigit():
        value = int(value)      # a query string's number
    try:
        return int(limits.Bound(field, low, high).check(value, field, strings=query))
    except limits.LimitError as e:
        raise WebError(400, str(e)) from None
