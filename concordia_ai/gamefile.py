"""Game files: one tracked game on disk (what `concordia new/show/play/undo` read and write).

A game file is JSON:

    {"format": "concordia-game", "version": 1,
     "initial": <position at creation (Game.to_json())>,
     "moves": ["play Architect", "move land Roma > Novaria-Roma", ...],   # canonical notation
     "current": <position after the moves, for readers>}

The moves are the truth: loading replays them from "initial" and checks that the result equals
"current" (a hand-edited or damaged file is reported, never silently trusted). Writes are atomic
(a temporary file in the same folder, then os.replace), so an interrupted write leaves the old file.
"""
from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field

from . import userfiles
from .game import Game, GameError
from .notation import NotationError
from .position import PositionError

FORMAT = "concordia-game"
VERSION = 1


class GameFileError(ValueError):
    """A game file that cannot be read, written or trusted; the message names the file and the field."""


@dataclass
class GameFile:
    """A loaded game file: the initial position, the moves since, and the replayed current game."""
    path: str
    initial: dict
    moves: list[str] = field(default_factory=list)
    game: Game | None = None

    @classmethod
    def create(cls, path: str, game: Game) -> "GameFile":
        return cls(path, game.to_json(), [], game.clone())

    # ------------------------------------------------------------ replaying
    def replay(self, moves: list[str]) -> Game:
        """The game after `moves` from the initial position; GameFileError names the first bad one."""
        g = self._initial_game()
        for i, text in enumerate(moves):
            try:
                g.apply(text)
            except (GameError, NotationError) as e:
                raise GameFileError(f"{self.path}: $.moves[{i}] {text!r} cannot be replayed: {e}") from None
        return g

    def _initial_game(self) -> Game:
        try:
            return Game.from_json(self.initial)
        except PositionError as e:
            raise GameFileError(f"{self.path}: bad initial position at $.initial{e.path[1:]}: {e.message}") from None
        except (GameError, ValueError) as e:
            raise GameFileError(f"{self.path}: bad initial position: {e}") from None

    def apply(self, texts: list[str]) -> list[str]:
        """Apply moves in order, all or nothing; returns their canonical texts.

        Raises GameFileError naming the first move that fails (its number, text and the legal moves);
        on error nothing changes."""
        g = self.game.clone()
        done = []
        for i, text in enumerate(texts):
            try:
                code = g.parse(text)
                canonical = g.text(code)
                g.apply(code)
            except (GameError, NotationError) as e:
                where = f"move {i + 1} of {len(texts)} " if len(texts) > 1 else "move "
                raise GameFileError(f"{where}{text!r} rejected: {e}") from None
            done.append(canonical)
        self.game = g
        self.moves.extend(done)
        return done

    def undo(self, steps: int) -> list[str]:
        """Drop the last `steps` moves and replay; returns the moves dropped (oldest first)."""
        if steps < 1:
            raise GameFileError(f"--steps: {steps} is not a positive number of moves")
        if steps > len(self.moves):
            have = len(self.moves)
            raise GameFileError(f"--steps: cannot undo {steps} moves; {self.path} has "
                                f"{'no moves' if not have else f'only {have} move' + ('s' if have > 1 else '')}"
                                f" since the start")
        keep, dropped = self.moves[:-steps], self.moves[-steps:]
        self.game = self.replay(keep)
        self.moves = keep
        return dropped

    # ------------------------------------------------------------ disk
    def to_json(self) -> dict:
        return {"format": FORMAT, "version": VERSION, "initial": self.initial, "moves": list(self.moves),
                "current": self.game.to_json()}

    def save(self, overwrite: bool = True) -> None:
        """Write atomically (temporary file + os.replace); refuse to replace an existing file unless overwrite."""
        if not overwrite and os.path.lexists(self.path):
            raise GameFileError(f"{self.path} already exists; choose another name or pass --force to replace it")
        text = json.dumps(self.to_json(), indent=1) + "\n"
        folder = os.path.dirname(os.path.abspath(self.path))
        if os.path.isdir(self.path):
            raise GameFileError(f"{self.path} is a folder; give a file name such as {os.path.join(self.path, 'game.json')}")
        if not os.path.isdir(folder):
            raise GameFileError(f"cannot write {self.path}: folder {folder} does not exist")
        tmp = None
        try:
            fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(self.path) + ".", suffix=".tmp", dir=folder)
            try:  # keep the file's permissions (mkstemp creates it private)
                mode = os.stat(self.path).st_mode & 0o777
            except OSError:
                umask = os.umask(0)
                os.umask(umask)
                mode = 0o666 & ~umask
            os.chmod(tmp, mode)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.path)
            tmp = None
        except OSError as e:
            raise GameFileError(f"cannot write {self.path}: {e.strerror or e}") from None
        finally:
            if tmp is not None and os.path.exists(tmp):
                os.unlink(tmp)

    @classmethod
    def load(cls, path: str) -> "GameFile":
        """Read, validate and replay a game file; GameFileError names what is wrong."""
        if not os.path.exists(path):
            raise GameFileError(f"game file {path} not found; create one with: concordia new {path}")
        if os.path.isdir(path):
            raise GameFileError(f"{path} is a folder, not a game file")
        try:   # a regular file only, size-capped, UTF-8, JSON depth and integer length checked first
            data = userfiles.read_json(path)
        except userfiles.UserFileError as e:
            raise GameFileError(f"{e}; a game file is written by 'concordia new'") from None
        if not isinstance(data, dict):
            raise GameFileError(f"{path}: $ is not a game file (a JSON object with format {FORMAT!r})")
        fmt = data.get("format")
        if fmt != FORMAT:
            hint = " (that file is a single position, not a game file)" if fmt == "concordia-position" else ""
            # the value is not quoted: a JSON file that is no game file may hold anything
            raise GameFileError(f"{path}: $.format is not {FORMAT!r}{hint}")
        version = data.get("version")
        if type(version) is not int or version != VERSION:     # `true` equals 1 but is no version
            raise GameFileError(f"{path}: $.version {version!r} is not supported (this program reads version {VERSION})")
        initial = data.get("initial")
        if not isinstance(initial, dict):
            raise GameFileError(f"{path}: $.initial must be a position object (Game.to_json()), got {_kind(initial)}")
        moves = data.get("moves")
        if not isinstance(moves, list):
            raise GameFileError(f"{path}: $.moves must be a list of moves in notation, got {_kind(moves)}")
        for i, m in enumerate(moves):
            if not isinstance(m, str) or not m.strip():
                raise GameFileError(f"{path}: $.moves[{i}] must be a move in notation such as 'play Architect', got {m!r}")
        gf = cls(path, initial, list(moves))
        gf.game = gf.replay(gf.moves)
        current = data.get("current")
        if current is not None:
            replayed = gf.game.to_json()
            diff = _first_difference(current, replayed, "$.current")
            if diff:
                raise GameFileError(f"{path}: {diff} does not match the position reached by replaying $.moves "
                                    f"(was the file edited by hand?)")
        return gf


def _kind(value) -> str:
    return {dict: "an object", list: "a list", str: "a string", type(None): "nothing"}.get(type(value), repr(value))


def _first_difference(a, b, path: str) -> str | None:
    """The JSON path of the first place where a and b differ, or None."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(b) + [k for k in a if k not in b]:
            if k not in a or k not in b:
                return f"{path}.{k}"
            d = _first_difference(a[k], b[k], f"{path}.{k}")
            if d:
                return d
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return path
        for i, (x, y) in enumerate(zip(a, b)):
            d = _first_difference(x, y, f"{path}[{i}]")
            if d:
                return d
        return None
    if type(a) is not type(b) or a != b:
        return path
    return None
