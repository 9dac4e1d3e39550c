"""Worker processes that die with the process that started them.

joblib's loky workers outlive a parent killed with kill -9 (they idle for minutes before timing
out), and so would local Dask workers. Every function that runs in a worker is called through
`call_in_worker(parent_pid, fn, *args)`: in any process other than `parent_pid` it first starts,
once per process, a daemon thread that checks every POLL_SECONDS whether `parent_pid` still exists
and ends the worker with os._exit when it does not. The local pool (runner._loky) also starts the watch
as each worker starts (loky's initializer), so a worker that never gets a task dies with the parent
too. The search and the rules run without the GIL
or release it often, so the thread gets to run within a fraction of a second.

Why not prctl(PR_SET_PDEATHSIG) on Linux: the kernel ties that signal to the *thread* that forked
the worker, not to the process, and both loky (respawns from its manager thread) and Dask (forks
from its event-loop thread) start workers from helper threads whose end would kill healthy
workers. A poll on the parent's pid works for every pool and every system.
"""
from __future__ import annotations

import os
import threading

POLL_SECONDS = 0.25
_watching: int | None = None


def call_in_worker(parent_pid: int | None, fn, *args, **kwargs):
    """fn(*args, **kwargs), after making sure this process dies with `parent_pid` (if it is a worker).

    parent_pid None: no watchdog (a remote worker, whose parent lives on another machine)."""
    if parent_pid is not None and parent_pid != os.getpid():
        die_with(parent_pid)
    return fn(*args, **kwargs)


def die_with(parent_pid: int) -> None:
    """End this process when `parent_pid` ends (idempotent per process)."""
    global _watching
    if _watching == parent_pid:
        return
    _watching = parent_pid
    threading.Thread(target=_watch, args=(parent_pid, os.getppid()), name="die-with-parent",
                     daemon=True).start()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:    # exists, owned by someone else (cannot be ours, but do not guess)
        return True
    return True


def _watch(parent_pid: int, ppid_at_start: int) -> None:
    # a direct child also notices its reparenting (to init or a subreaper), which beats pid reuse
    direct = ppid_at_start == parent_pid
    pause = threading.Event()
    while True:
        pause.wait(POLL_SECONDS)
        if (direct and os.getppid() != parent_pid) or not _alive(parent_pid):
            os._exit(1)
