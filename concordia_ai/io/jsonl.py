"""JSON-lines logs: one record a line, appended and fsync'ed as each one finishes, read back with a torn
last line (a kill during a write) ignored or cut off.

Used by every log the program keeps: tournaments, research, the runner's jobs, self-play data and
review logs. Reads go through safe_read (a regular file only, bounded), repairs and appends through
atomic_write (never through a link).
"""
from __future__ import annotations

import json
import os

from ..engine import limits
from ..engine.errors import ConcordiaError
from . import safe_read
from .atomic_write import open_update


class LogError(ConcordiaError):
    """An unusable log (damaged, unreadable or unwritable); callers pass their own subclass or kind."""


def append_record(f, record: dict) -> None:
    """One record as one line, on disk before the next one is taken (a kill loses only games in flight)."""
    f.write(json.dumps(record, separators=(",", ":")) + "\n")
    f.flush()
    os.fsync(f.fileno())


def parse_object(raw: bytes) -> dict:
    try:
        rec = safe_read.parse_json(safe_read.decode(raw, "the line"), "the line")
    except safe_read.UserFileError as e:
        raise ValueError(str(e).replace("the line is ", "").replace("the line ", "")) from None
    if not isinstance(rec, dict):
        raise ValueError("not a JSON object")
    return rec


def read_records(path: str, parse=parse_object, repair: bool = False, error=LogError,
                 what: str = "record", max_bytes: int = limits.LOG_BYTES) -> list[dict]:
    """The records of a JSONL log (`parse`: bytes of one line -> record, ValueError if it is none).

    A torn last line (no newline at the end: a kill during a write) is ignored, and cut off with
    repair=True; a bad line elsewhere is an `error` naming its number."""
    try:
        data = safe_read.read_bytes(path, max_bytes)
    except safe_read.UserFileError as e:
        raise error(f"log: {e}") from None
    complete, _, tail = data.rpartition(b"\n")
    records = []
    for i, raw in enumerate(complete.split(b"\n") if complete else []):
        if raw.strip():
            try:
                records.append(parse(raw))
            except ValueError as e:
                raise error(f"log {path}: line {i + 1} is not a {what} ({e}); the log is damaged") from None
    if tail.strip():
        try:
            records.append(parse(tail))
            keep = len(data)          # whole, only the newline is missing
        except ValueError as e:
            if not _torn(tail):     # not the start of a record cut short: a file of something else
                n = complete.count(b"\n") + 2 if complete else 1
                raise error(f"log {path}: line {n} is not a {what} ({e}); the log is damaged") from None
            keep = len(complete) + 1 if complete else 0
        if repair:
            try:
                with open_update(path) as f:
                    f.truncate(keep)
                    if keep == len(data):
                        f.seek(0, 2)
                        f.write(b"\n")
                    f.flush()
                    os.fsync(f.fileno())
            except OSError as e:
                raise error(f"cannot repair log {path}: {e.strerror or e}") from None
    return records


def _torn(tail: bytes) -> bool:
    """Whether a last line without its newline can be a record cut short by a kill: UTF-8 text that
    starts as a JSON object does. Anything else (a binary file named as the log) is never cut off."""
    try:
        text = tail.decode("utf-8")
    except UnicodeDecodeError as e:     # a cut may split the last character, nothing before it
        if e.start < len(tail) - 3:
            return False
        text = tail[:e.start].decode("utf-8")
    return text.lstrip().startswith("{")
