"""Run independent jobs (games) in parallel and hand back each result as soon as it is done.

Shared by the tournament runner and the research runner: both play plain-data tasks with a
top-level function, in joblib/loky processes or on a Dask cluster, and write each result to their
log in the parent process the moment it arrives (so a killed run loses only the games in flight).

    >>> for rec in map_unordered(play_task, tasks, jobs=2):
    ...     append_record(log, rec)
"""
from __future__ import annotations

import functools
import os
import re

from ..engine import limits
from ..engine.errors import ConcordiaError
from ..io import safe_read
from .workers import call_in_worker, die_with

BACKENDS = ("loky", "dask")


class BackendError(ConcordiaError):
    """A backend that is not installed, or a cluster that cannot be reached."""


# a Dask address: tcp://HOST:PORT, tls://..., or HOST:PORT
_ADDRESS = re.compile(r"^(?:(tcp|tls|ws|wss|ucx)://)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)(?::(\d{1,5}))?$")


def check_scheduler(address: str, tls: dict) -> None:
    """A Dask scheduler address, and tls:// when TLS files are given (BackendError otherwise)."""
    if re.fullmatch(r"inproc://\S+", address) and not tls:      # a scheduler inside this process (tests)
        return
    m = _ADDRESS.match(address.strip())
    if not m or (m.group(3) and not 0 < int(m.group(3)) < 65536):
        raise BackendError(f"--scheduler: {limits.shown(address)} is not a scheduler address; give tcp://HOST:PORT, "
                           f"or tls://HOST:PORT with --tls-ca-file")
    if tls and m.group(1) != "tls":
        raise BackendError("--tls-ca-file/--tls-cert/--tls-key need a tls:// scheduler address")


def tls_settings(ca_file, cert, key) -> dict:
    """Dask TLS file settings (the `tls` of map_unordered), each file checked to be a readable regular file."""
    tls = {k: v for k, v in (("tls_ca_file", ca_file), ("tls_client_cert", cert), ("tls_client_key", key)) if v}
    if tls and "tls_ca_file" not in tls:
        raise BackendError("--tls-cert/--tls-key need --tls-ca-file (the certificate authority of the cluster)")
    if bool(cert) != bool(key):
        raise BackendError("--tls-cert and --tls-key go together (the client certificate and its key)")
    for option, path in tls.items():
        try:
            safe_read.read_bytes(path)
        except safe_read.UserFileError as e:
            raise BackendError(f"--{option.replace('_client', '').replace('_', '-')}: {e}") from None
    return tls


def map_unordered(fn, tasks: list, jobs: int = 1, backend: str = "loky", scheduler: str | None = None,
                  tls: dict | None = None):
    """fn(task) for every task, yielded in the order they finish (in task order with jobs=1 on loky).

    Dask: the client unpickles what the scheduler sends back, so use only a cluster you trust, and TLS
    (`tls`: tls_ca_file, tls_client_cert, tls_client_key) for a scheduler outside localhost."""
    if backend == "dask":
        return _dask(fn, tasks, jobs, scheduler, tls)
    if backend != "loky":
        raise BackendError(f"--backend: {backend!r}; valid: {', '.join(BACKENDS)}")
    return _loky(fn, tasks, jobs)


def _loky(fn, tasks, jobs):
    if jobs == 1:
        for t in tasks:
            yield fn(t)
        return
    import warnings

    from joblib import Parallel, delayed, parallel_config
    # a run that stops early (an SPRT) abandons the jobs in flight; joblib warns about that when the
    # generator is collected, which happens after this function has returned: the filter must outlive it
    warnings.filterwarnings("ignore", message=".*tasks have been successfully executed.*")
    parent = os.getpid()
    # every worker watches this process from its start (loky's initializer), not from its first task:
    # a worker that never gets a task (more jobs than games) must die with a parent killed by kill -9 too
    with parallel_config(backend="loky", initializer=die_with, initargs=(parent,)):
        pool = Parallel(n_jobs=jobs, return_as="generator_unordered", batch_size=1, pre_dispatch="2*n_jobs")
    yield from pool(delayed(call_in_worker)(parent, fn, t) for t in tasks)


def _dask(fn, tasks, jobs, scheduler, tls=None):
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise BackendError("--backend dask needs the cluster extra: pip install 'concordia-ai[cluster]'") from None
    cluster = None
    try:
        if scheduler:
            security = None
            if tls:
                from distributed.security import Security
                security = Security(require_encryption=True, **tls)
            try:
                client = Client(scheduler, timeout="10s", security=security) if security else \
                    Client(scheduler, timeout="10s")
            except (OSError, TimeoutError, ValueError, TypeError) as e:
                raise BackendError(f"--scheduler: cannot connect to {scheduler}: {e}") from None
        else:
            cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=None)
            client = Client(cluster)
        # local workers watch this process and end with it; a remote cluster's workers cannot
        parent = None if scheduler else os.getpid()
        futures = client.map(functools.partial(call_in_worker, parent, fn), tasks, pure=False)
        try:
            for fut in as_completed(futures):
                yield fut.result()
        finally:
            client.cancel(futures)
            client.close()
    finally:
        if cluster is not None:
            cluster.close()


def progress_bar(total: int, done: int, desc: str):
    """A tqdm bar over `total` games, `done` of them already finished (a resumed run)."""
    from tqdm import tqdm
    return tqdm(total=total, initial=done, unit="game", desc=desc, dynamic_ncols=True, leave=True)
