"""Every file this program writes goes through here: whole files atomically, logs by safe append.

    write_atomic(path, text)            # temp file in the target's folder, fsync, rename over path
    write_atomic(path, text, follow_link=True)   # a symlinked game file: write its target, keep the link
    with open_append(path) as f: ...    # a log: never through a symlink, never into a FIFO or device

Why: a folder can hold links planted by someone else (`tournament.json.tmp -> ~/.bashrc`). A
temporary file is always a new file made by mkstemp (O_CREAT|O_EXCL, a random name), so no planted
link is followed; the rename replaces the name `path` itself, so a link at `path` is replaced, not
followed, unless the caller asks to write through it. A log is opened with O_NOFOLLOW, so a planted
or dangling link is refused instead of written through. Errors are OSError naming the path; the
callers turn them into their own one-line messages.
"""
from __future__ import annotations

import errno
import os
import stat
import tempfile

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)


def link_target(path: str) -> str:
    """Where a write through `path` lands: the path itself, or, for a symlink, its existing target.

    A dangling link is refused (OSError): writing would create a file wherever the link points."""
    if not os.path.islink(path):
        return path
    target = os.path.realpath(path)
    if not os.path.exists(target):
        raise OSError(errno.ENOENT, f"{path} is a symbolic link to {target}, which does not exist; "
                                    f"remove the link or give a real file", path)
    if not os.path.isfile(target):
        raise OSError(errno.EINVAL, f"{path} is a symbolic link to {target}, which is not a regular file", path)
    return target


def write_atomic(path: str, data: str | bytes, follow_link: bool = False) -> str:
    """Replace the file `path` by `data` in one step (readers see the old or the new file, never half).

    The new file keeps the old one's permissions (new files: 0666 minus the umask). With
    follow_link, a symlink at `path` is resolved once and its target is replaced; the link stays.
    Returns the path actually written."""
    target = link_target(path) if follow_link else path
    if isinstance(data, str):
        data = data.encode("utf-8")
    folder = os.path.dirname(os.path.abspath(target))
    try:
        st = os.lstat(target)
    except FileNotFoundError:
        st = None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise OSError(errno.EISDIR, f"{target} is a folder", target)
    if st is not None and stat.S_ISREG(st.st_mode):
        mode = st.st_mode & 0o777
    else:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(target) + ".", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            os.fchmod(f.fileno(), mode)
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
        tmp = None
        _fsync_folder(folder)
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
    return target


def check_writable(path: str) -> None:
    """OSError unless a file can be written at `path` now: its folder exists and takes a new file.

    For outputs written after long work (a review's plot): a file is made and removed in the folder
    (mkstemp, as write_atomic does), so a read-only folder or /proc is found before the work, not after."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".tmp", dir=folder)
    os.close(fd)
    os.unlink(tmp)


def _fsync_folder(folder: str) -> None:
    """Make the rename durable (the folder entry); not every system allows opening a folder."""
    try:
        fd = os.open(folder, os.O_RDONLY | _CLOEXEC)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _open_regular(path: str, flags: int, create: bool):
    """An fd of the regular file `path`, opened without following a link and without blocking on a FIFO."""
    flags |= _NOFOLLOW | _CLOEXEC | _NONBLOCK | (os.O_CREAT if create else 0)
    try:
        fd = os.open(path, flags, 0o666)
    except OSError as e:
        if e.errno == errno.ELOOP or (os.path.islink(path) and e.errno in (errno.EMLINK, errno.ENOENT)):
            raise OSError(errno.ELOOP, f"{path} is a symbolic link; refusing to write through it", path) from None
        if e.errno == errno.ENXIO:
            raise OSError(e.errno, f"{path} is not a regular file", path) from None
        raise
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, f"{path} is not a regular file", path)
        if _NONBLOCK:
            import fcntl
            fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~_NONBLOCK)
    except BaseException:
        os.close(fd)
        raise
    return fd


def open_append(path: str):
    """A text file open for appending to the regular file `path` (created if missing).

    A symlink at `path`, dangling or not, is refused (OSError), and so is anything but a regular file."""
    return os.fdopen(_open_regular(path, os.O_WRONLY | os.O_APPEND, create=True), "a", encoding="utf-8")


def open_update(path: str):
    """A binary file open for reading and writing the existing regular file `path` (to repair a log).

    A symlink at `path` is refused (OSError), so a repair never truncates a file elsewhere."""
    return os.fdopen(_open_regular(path, os.O_RDWR, create=False), "r+b")
