"""Long jobs that survive being stopped: tasks run on the runner (local pool or Dask), each finished
record is appended to a JSONL log at once, and a restart plays only the tasks whose key is not logged.

    >>> records, new = run_logged(play_one, tasks, key=lambda t: t["game_id"], log="games.jsonl", jobs=2)

Used by tournaments, research, self-play data generation and the measuring scripts (strength, the
final-result model's data, stability, the opening check). A task and its record must both carry the
fields that `key` reads. The same seeds give the same records on either backend: every random choice of a task
comes from the seeds in the task, never from the process that plays it.
"""
from __future__ import annotations

import argparse
import os

from ..engine import limits
from ..engine.errors import ConcordiaError
from ..io.atomic_write import open_append
from ..io.jsonl import append_record, read_records
from . import runner


class JobError(ConcordiaError):
    """An unusable job log (damaged, unreadable or unwritable)."""


def run_logged(fn, tasks: list, key, log: str | None, jobs: int = 1, backend: str = "loky",
               scheduler: str | None = None, tls: dict | None = None, progress: str | None = None,
               limit: int | None = None) -> tuple[list, int]:
    """fn(task) for every task whose key is not in `log` yet; returns (one record per task, in task order;
    the number played now). `log` None: nothing is kept (every task is played). `progress`: a bar's label.
    `limit` stops after that many new records (an interrupted run, for tests)."""
    done: dict = {}
    if log is not None and os.path.exists(log):
        for rec in read_records(log, repair=True, error=JobError):
            done.setdefault(key(rec), rec)
    todo = [t for t in tasks if key(t) not in done]
    if limit is not None:
        todo = todo[:limit]
    new = 0
    if todo:
        bar = runner.progress_bar(len(tasks), len(tasks) - len(todo), progress) if progress else None
        results = runner.map_unordered(fn, todo, jobs, backend, scheduler, tls)
        try:
            try:
                f = open_append(log) if log is not None else None
            except OSError as e:
                raise JobError(f"cannot write the log {log}: {e.strerror or e}") from None
            try:
                for rec in results:
                    if f is not None:
                        append_record(f, rec)
                    done.setdefault(key(rec), rec)
                    new += 1
                    if bar is not None:
                        bar.update(1)
            finally:
                if f is not None:
                    f.close()
        finally:
            if hasattr(results, "close"):
                results.close()
            if bar is not None:
                bar.close()
    return [done[key(t)] for t in tasks if key(t) in done], new


# ---------------------------------------------------------------- the scripts' runner options

def add_runner_options(ap: argparse.ArgumentParser) -> None:
    """--jobs, --backend, --scheduler and the TLS files, as `concordia tournament` names them."""
    ap.add_argument("--jobs", type=int, default=1, help="parallel games (local workers; Dask: local cluster size)")
    ap.add_argument("--backend", choices=runner.BACKENDS, default="loky", help="local pool (loky) or Dask")
    ap.add_argument("--scheduler", default=None, metavar="ADDRESS",
                    help="Dask scheduler (tcp://HOST:8786, tls://HOST:8786); default with --backend dask: a "
                         "local cluster")
    ap.add_argument("--tls-ca-file", default=None, metavar="FILE", help="Dask TLS: the cluster's certificate authority")
    ap.add_argument("--tls-cert", default=None, metavar="FILE", help="Dask TLS: this client's certificate")
    ap.add_argument("--tls-key", default=None, metavar="FILE", help="Dask TLS: this client's private key")


def runner_options(args, ap: argparse.ArgumentParser) -> dict:
    """The keyword arguments of run_logged from add_runner_options' arguments (ap.error on a bad one)."""
    try:
        tls = runner.tls_settings(args.tls_ca_file, args.tls_cert, args.tls_key)
        if args.scheduler and args.backend != "dask":
            raise runner.BackendError("--scheduler is for --backend dask (add --backend dask)")
        if tls and not args.scheduler:
            raise runner.BackendError("--tls-ca-file/--tls-cert/--tls-key are for a remote cluster: add "
                                      "--backend dask --scheduler tls://HOST:PORT")
        if args.scheduler:
            runner.check_scheduler(args.scheduler, tls)
        if not 1 <= args.jobs <= limits.TOURNAMENT_JOBS.high:
            raise runner.BackendError(f"--jobs: {args.jobs} must be {limits.TOURNAMENT_JOBS.valid}")
    except runner.BackendError as e:
        ap.error(str(e))
    return dict(jobs=args.jobs, backend=args.backend, scheduler=args.scheduler, tls=tls or None)
