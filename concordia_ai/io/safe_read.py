"""Reading a file a user named: a game file, an `@FILE` list, a bot .toml, `--config`, analyze's `file`.

One way in for every such file, so that no file can hang, exhaust or crash a command:
- only regular files are read: a FIFO, a device (`/dev/zero`), a socket or a folder is refused at
  once (opened with O_NONBLOCK, then checked with fstat, so a FIFO without a writer never blocks);
- at most `limits.FILE_BYTES` are read;
- the text must be UTF-8;
- JSON is checked for nesting depth before it is parsed (100,000 nested lists would exhaust the
  parser's stack) and for integers longer than `limits.INT_DIGITS` digits (Python refuses to parse
  past 4,300 digits, and no field needs more than 20).

Error messages name the file and what is wrong with it in general terms; they never quote the
file's content (a mistaken `--cities @/etc/passwd` must not print a line of it).
"""
from __future__ import annotations

import errno
import json
import os
import re
import stat
import tomllib
from itertools import accumulate

from ..engine import limits
from ..engine.errors import ConcordiaError


class UserFileError(ConcordiaError):
    """A user-given file that cannot be read or parsed; the message names the file, never its content."""


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


_READ_FLAGS = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0)


def read_bytes(path: str, max_bytes: int = limits.FILE_BYTES) -> bytes:
    """The bytes of the regular file `path`; UserFileError for anything else or anything larger."""
    _check_name(path)
    try:
        fd = os.open(path, _READ_FLAGS)
    except OSError as e:
        raise UserFileError(f"cannot read {path}: {e.strerror or e}") from None
    return read_fd(fd, path, max_bytes)


def _check_name(path) -> None:
    if not isinstance(path, str) or not path or "\0" in path:
        raise UserFileError("the file name is empty or not a valid path")


def read_fd(fd: int, path: str, max_bytes: int = limits.FILE_BYTES) -> bytes:
    """The bytes of the open descriptor `fd` (closed here), named `path` in messages; the checks of read_bytes."""
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UserFileError(f"cannot read {path}: it is {_kind(info.st_mode)}, not a regular file")
        if info.st_size > max_bytes:
            raise UserFileError(f"cannot read {path}: {info.st_size:,} bytes is larger than the "
                                f"{max_bytes:,} bytes allowed")
        chunks, total = [], 0
        while True:     # a file in /proc reports size 0: read up to the cap, not to the reported size
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > max_bytes:
                raise UserFileError(f"cannot read {path}: larger than the {max_bytes:,} bytes allowed")
        return b"".join(chunks)
    except OSError as e:
        raise UserFileError(f"cannot read {path}: {e.strerror or e}") from None
    finally:
        os.close(fd)


def decode(data: bytes, where: str) -> str:
    """UTF-8 text (a leading byte order mark is dropped); UserFileError naming the first bad byte's offset."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise UserFileError(f"{where} is not UTF-8 text (bad byte at offset {e.start})") from None


def read_text(path: str, max_bytes: int = limits.FILE_BYTES) -> str:
    return decode(read_bytes(path, max_bytes), path)


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_DEPTH = str.maketrans({"[": "\1", "{": "\1", "]": "\2", "}": "\2"})
_STEP = {1: 1, 2: -1}


def json_depth(text: str) -> int:
    """The deepest nesting of lists and objects in JSON text (brackets inside strings do not count)."""
    bare = _STRING.sub('""', text) if '"' in text else text
    marks = re.sub(r"[^\[\]{}]", "", bare)
    if marks.count("[") + marks.count("{") <= 1:
        return 1 if marks else 0
    return max(accumulate(_STEP[ord(c)] for c in marks.translate(_DEPTH)))


def _parse_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > limits.INT_DIGITS:
        raise _TooLong(digits)
    return int(text)


class _TooLong(ValueError):
    def __init__(self, digits: int):
        super().__init__(digits)
        self.digits = digits


def parse_json(text: str, where: str, max_depth: int = limits.JSON_DEPTH):
    """Parse JSON text safely; UserFileError (naming `where`, line and column) when it is not JSON,
    nests deeper than `max_depth` or holds an integer longer than limits.INT_DIGITS digits.
    NaN and Infinity parse (as Python floats): a bound refuses them where a number is needed."""
    depth = json_depth(text)
    if depth > max_depth:
        raise UserFileError(f"{where} nests lists or objects {depth:,} deep; at most {max_depth} is allowed")
    try:
        return json.loads(text, parse_int=_parse_int)
    except _TooLong as e:
        raise UserFileError(f"{where} holds a {e.digits:,}-digit integer; at most {limits.INT_DIGITS} "
                            f"digits are allowed") from None
    except json.JSONDecodeError as e:
        raise UserFileError(f"{where} is not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})") from None
    except (ValueError, RecursionError) as e:   # defence in depth: the checks above should catch these
        raise UserFileError(f"{where} is not usable JSON ({type(e).__name__})") from None


def read_json(path: str, max_bytes: int = limits.FILE_BYTES, max_depth: int = limits.JSON_DEPTH):
    return parse_json(read_text(path, max_bytes), path, max_depth)


_TOML_STRING = re.compile(r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*')


def read_toml(path: str, max_bytes: int = limits.FILE_BYTES, max_depth: int = limits.JSON_DEPTH) -> dict:
    text = read_text(path, max_bytes)
    # tomllib is pure Python and recursive: a list nested 5,000 deep would overflow its stack
    depth = json_depth(_TOML_STRING.sub("0", text)) if "[" in text or "{" in text else 0
    if depth > max_depth:
        raise UserFileError(f"{path} nests lists or tables {depth:,} deep; at most {max_depth} is allowed")
    try:    # defence in depth: a RecursionError is caught here too
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise UserFileError(f"{path} is not valid TOML ({e})") from None
    except (ValueError, RecursionError) as e:
        raise UserFileError(f"{path} is not usable TOML ({type(e).__name__})") from None


MAX_LINKS = 40          # as the kernel's own limit on links followed in one path


def read_beneath(path: str, root: str, max_bytes: int = limits.FILE_BYTES) -> bytes:
    """The bytes of the regular file `path` (relative to `root`, or absolute) that lies inside the folder
    `root` (for `concordia analyze --root`); UserFileError when it escapes or cannot be read.

    The file is opened once, one component at a time relative to the descriptor of the folder before
    it, never following a link by name (O_NOFOLLOW): a link is read (readlink) and its target walked
    in the same way, so `..` and links may move about inside the root but never out of it. What is read
    is the file that was checked: swapping a folder for a link during the walk cannot redirect it."""
    _check_name(path)
    return read_fd(open_beneath(path, root), path, max_bytes)


def open_beneath(path: str, root: str) -> int:
    """A read-only, non-blocking descriptor of `path` inside `root` (see read_beneath)."""
    outside = UserFileError(f"{path} is outside the folder the engine may read (--root)")
    try:
        root_fd = os.open(root, _READ_FLAGS | os.O_DIRECTORY)
    except OSError as e:
        raise UserFileError(f"cannot read {path}: the --root folder {root}: {e.strerror or e}") from None
    stack = [root_fd]                 # the folders walked into, root first: `..` pops, never past root
    try:
        parts = _inside(path, root)
        if parts is None:
            raise outside
        links = 0
        while parts:
            name = parts.pop(0)
            if name in ("", "."):
                continue
            if name == "..":
                if len(stack) == 1:
                    raise outside
                os.close(stack.pop())
                continue
            flags = _READ_FLAGS | os.O_NOFOLLOW | (os.O_DIRECTORY if parts else 0)
            try:
                fd = os.open(name, flags, dir_fd=stack[-1])
            except OSError as e:
                # a link gives ELOOP (ENOTDIR where a folder is wanted): read it and walk its target
                failed = UserFileError(f"cannot read {path}: {e.strerror or e}")
                if e.errno not in (errno.ELOOP, errno.EMLINK, errno.ENOTDIR):
                    raise failed from None
                try:
                    target = os.readlink(name, dir_fd=stack[-1])
                except OSError:
                    if e.errno == errno.ENOTDIR and not _is_folder(name, stack[-1]):
                        raise failed from None
                    target = name     # no longer a link (swapped back): walk this name again
                links += 1
                if links > MAX_LINKS:
                    raise UserFileError(f"cannot read {path}: more than {MAX_LINKS} symbolic links") from None
                if os.path.isabs(target):
                    below = _inside(target, root)
                    if below is None:
                        raise outside from None
                    while len(stack) > 1:
                        os.close(stack.pop())
                    parts = below + parts
                else:
                    parts = target.split(os.sep) + parts
                continue
            stack.append(fd)
        if len(stack) == 1:
            raise UserFileError(f"cannot read {path}: it is a folder, not a regular file")
        return stack.pop()
    finally:
        for fd in stack:
            os.close(fd)


def _is_folder(name: str, dir_fd: int) -> bool:
    try:
        return stat.S_ISDIR(os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode)
    except OSError:
        return False


def _inside(path: str, root: str) -> list[str] | None:
    """The components of `path` below `root` (a relative path is taken from root); None if it is
    not below it by name. Links in the components are resolved later, by the walk."""
    if not os.path.isabs(path):
        return path.split(os.sep)
    full = os.path.normpath(path)
    for base in dict.fromkeys((os.path.abspath(root), os.path.realpath(root))):
        if os.path.commonpath([base, full]) == base:
            return os.path.relpath(full, base).split(os.sep)
    return None
