"""Game files: one tracked game on disk (what `concordia new/show/play/undo` read and write).

A game file is JSON:

    {"format": "concordia-game", "version": 1,
     "initial": <position the file starts from (Game.to_json()): the opening, or new --position's>,
     "moves": ["play Architect", "move land Roma > Novaria-Roma", ...],   # canonical notation
     "current": <position after the moves, for readers>,
     "redo": [["done"], ["play Prefect", "produce Italia"]]}   # only after an undo: what `redo` puts back

The moves are the truth: loading replays them from "initial" and checks that the result equals
"current" (a hand-edited or damaged file is reported, never silently trusted). Writes are atomic
(io.atomic_write.write_atomic: a new temporary file in the same folder, then a rename), so an interrupted
write leaves the old file; a game file that is a symlink is written through to its target.

A command that changes a game holds `locked(path)` from load to save, so two commands at the same
moment never lose a move: the second waits for the first (at most LOCK_WAIT_SECONDS), then reads
the file the first one wrote.

"redo" is the stack of what `undo` took back, one list of moves per undo, the last one undone last in
the list. `redo` applies the last list again; recording any new move empties the stack (it is then no
longer the same game to go forward in). The field is left out when the stack is empty.
"""
from __future__ import annotations

import json
import os
import stat
import time
from contextlib import contextmanager
from dataclasses import dataclass, field

from ..engine import step_order
from ..io import safe_read
from ..io.atomic_write import link_target, write_atomic
from ..engine.game import Game, GameError
from ..engine.position import PositionError

FORMAT = "concordia-game"
VERSION = 1


LOCK_WAIT_SECONDS = 10.0    # a play or undo takes well under a second; longer means a stuck command


class GameFileError(ValueError):
    """A game file that cannot be read, written or trusted; the message names the file and the field."""


@contextmanager
def locked(path: str, wait: float | None = None):
    """Hold an exclusive lock on the game file `path` (its target, for a symlink) while the block runs.

    The lock is an flock on the file itself, so no lock file is left behind. A save replaces the
    file by a new one (a new inode), so after the wait the lock is taken again on whatever file the
    path names now. A missing or non-regular file is not locked (the load that follows reports it).
    Waits at most `wait` seconds (default LOCK_WAIT_SECONDS) for another command, then raises GameFileError."""
    fd = _acquire(path, LOCK_WAIT_SECONDS if wait is None else wait)
    try:
        yield
    finally:
        if fd is not None:
            os.close(fd)    # closing the last descriptor releases the flock


def _acquire(path: str, wait: float) -> int | None:
    import fcntl
    deadline = time.monotonic() + wait
    while True:
        try:
            target = link_target(path)
            fd = os.open(target, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NONBLOCK", 0))
        except OSError:
            return None
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                os.close(fd)
                return None
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            if time.monotonic() >= deadline:
                raise GameFileError(f"{path} is being changed by another concordia command (still locked after "
                                    f"{wait:g} seconds); try again when it has finished") from None
            time.sleep(0.02)
            continue
        except OSError:
            os.close(fd)
            return None
        try:
            now = os.stat(target)
        except OSError:
            now = None
        if now is not None and (now.st_dev, now.st_ino) == (st.st_dev, st.st_ino):
            return fd
        os.close(fd)        # the file was replaced while we waited: lock the new one


@dataclass
class GameFile:
    """A loaded game file: the initial position, the moves since, and the replayed current game."""
    path: str
    initial: dict
    moves: list[str] = field(default_factory=list)
    game: Game | None = None
    redo: list[list[str]] = field(default_factory=list)    # what undo took back, one list per undo

    @classmethod
    def create(cls, path: str, game: Game) -> "GameFile":
        return cls(path, game.to_json(), [], game.clone())

    # ------------------------------------------------------------ replaying
    def replay(self, moves: list[str]) -> Game:
        """The game after `moves` from the initial position; GameFileError names the first bad one.

        Steps recorded in another order within a turn (files written before an order became canonical)
        are placed like new entries (concordia_ai.engine.step_order)."""
        try:
            g, _ = step_order.place(self._initial_game(), moves, finish=False)
        except step_order.EntryError as e:
            raise GameFileError(f"{self.path}: $.moves[{e.index}] {e.text!r} cannot be replayed: {e.reason}") from None
        return g

    def _initial_game(self) -> Game:
        try:
            return Game.from_json(self.initial)
        except PositionError as e:
            raise GameFileError(f"{self.path}: bad initial position at $.initial{e.path[1:]}: {e.message}") from None
        except (GameError, ValueError) as e:
            raise GameFileError(f"{self.path}: bad initial position: {e}") from None

    def apply(self, texts: list[str]) -> list[step_order.Step]:
        """Apply moves, all or nothing, in any order the engine can put into its canonical order
        (concordia_ai.engine.step_order); returns the steps recorded, forced reveals included.

        A turn may be entered over several calls: when the new texts do not fit after the steps already
        recorded for this turn, those steps and the new texts are placed together, and the turn's steps
        are recorded again in the canonical order (`self.replaced` then counts the steps taken back).
        Raises GameFileError naming the move that fails (its number, text and why); on error nothing
        changes."""
        self.replaced = 0
        try:
            g, steps = step_order.place(self.game, texts)
        except step_order.EntryError as first:
            start = self._turn_start()
            try:
                if start == len(self.moves):
                    raise first
                base, _ = step_order.place(self._initial_game(), self.moves[:start], finish=False)
                g, steps = step_order.place(base, self.moves[start:] + list(texts))
            except step_order.EntryError:
                where = f"move {first.index + 1} of {len(texts)} " if len(texts) > 1 else "move "
                raise GameFileError(f"{where}{first.text!r} rejected: {first.reason}") from None
            self.replaced = len(self.moves) - start
            self.moves = self.moves[:start]
        self.game = g
        self.moves.extend(s.text for s in steps)
        self.redo = []          # a new move: what was undone is no longer ahead of this game
        return steps

    def turn_start(self) -> int:
        """The index in `moves` of the first step of the turn in play now (`len(moves)` before it has one):
        the steps from there on are placed again with a new text that does not fit after them (`apply`)."""
        return self._turn_start()

    def _turn_start(self) -> int:
        """The index in `moves` of the first step of the turn in play now."""
        _, steps = step_order.place(self._initial_game(), self.moves, finish=False)
        now = self.game.state.turns
        start = len(steps)
        while start > 0 and steps[start - 1].turn == now and not self.game.is_over:
            start -= 1
        return start

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
        self.redo.append(dropped)
        return dropped

    def redo_last(self) -> list[step_order.Step]:
        """Apply again the moves of the last undo (the top of the redo stack); returns the steps applied."""
        if not self.redo:
            raise GameFileError(f"nothing to redo in {self.path}: redo follows undo, until a new move is played")
        texts = self.redo[-1]
        try:
            g, steps = step_order.place(self.game, texts, finish=False, _direct=False)
        except step_order.EntryError as e:
            raise GameFileError(f"{self.path}: $.redo[{len(self.redo) - 1}] cannot be applied again: "
                                f"{e.text!r}: {e.reason}") from None
        self.game = g
        self.moves.extend(s.text for s in steps)
        self.redo.pop()
        return steps

    # ------------------------------------------------------------ disk
    def to_json(self) -> dict:
        out = {"format": FORMAT, "version": VERSION, "initial": self.initial, "moves": list(self.moves),
               "current": self.game.to_json()}
        if self.redo:
            out["redo"] = [list(group) for group in self.redo]
        return out

    def save(self, overwrite: bool = True) -> None:
        """Write atomically (see io.atomic_write.write_atomic); refuse to replace an existing file unless overwrite.

        A game file that is a symlink is written through: its target is replaced and the link stays."""
        if not overwrite and os.path.lexists(self.path):
            raise GameFileError(f"{self.path} already exists; choose another name or pass --force to replace it")
        text = json.dumps(self.to_json(), indent=1) + "\n"
        folder = os.path.dirname(os.path.abspath(self.path))
        if os.path.isdir(self.path):
            raise GameFileError(f"{self.path} is a folder; give a file name such as {os.path.join(self.path, 'game.json')}")
        if not os.path.isdir(folder):
            raise GameFileError(f"cannot write {self.path}: folder {folder} does not exist")
        try:
            write_atomic(self.path, text, follow_link=True)
        except OSError as e:
            raise GameFileError(f"cannot write {self.path}: {e.strerror or e}") from None

    @classmethod
    def load(cls, path: str) -> "GameFile":
        """Read, validate and replay a game file; GameFileError names what is wrong."""
        if not os.path.exists(path):
            raise GameFileError(f"game file {path} not found; create one with: concordia new {path}")
        if os.path.isdir(path):
            raise GameFileError(f"{path} is a folder, not a game file")
        try:   # a regular file only, size-capped, UTF-8, JSON depth and integer length checked first
            data = safe_read.read_json(path)
        except safe_read.UserFileError as e:
            raise GameFileError(f"{e}; a game file is written by 'concordia new'") from None
        return cls.from_data(path, data)

    @classmethod
    def from_data(cls, path: str, data) -> "GameFile":
        """Validate and replay the parsed JSON `data` of a game file named `path` (already read)."""
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
        redo = data.get("redo", [])
        if not isinstance(redo, list) or not all(isinstance(g, list) and g and all(
                isinstance(m, str) and m.strip() for m in g) for g in redo):
            raise GameFileError(f"{path}: $.redo must be a list of non-empty lists of moves in notation "
                                f"(what undo took back){'' if isinstance(redo, list) else ', got ' + _kind(redo)}")
        gf = cls(path, initial, list(moves), redo=[list(g) for g in redo])
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
