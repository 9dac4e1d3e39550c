"""What keeps the board safe to run: the token, the Host header, the served folder and bounded bodies.

Every request must carry the random token printed at start (in the address as ?token=, in the
X-Concordia-Token header, or in the cookie the page sets when it is opened with the token), as Jupyter
does: on 127.0.0.1 too, where any other user of a shared machine could otherwise reach the board and
play moves. `concordia serve --no-token` turns it off, on a loopback address only. The Host header
is checked on every request, so a web page elsewhere cannot reach a loopback server through a DNS name
of its own (DNS rebinding), and so is the Origin a browser sends, so that another site's page cannot post
moves to it; a request that changes something must be JSON (which a page elsewhere cannot send here
without the browser asking first, and the board never allows it). A file named by the browser is resolved, links followed, and refused unless
it lies inside the served folder. A request body is read up to limits.REQUEST_BYTES and no further.
"""
from __future__ import annotations

import ipaddress
import os
import secrets

from ..engine import limits
from ..engine.limits import SHOWN_PATH_CHARS, shown
from ..io import safe_read

TOKEN_HEADER = "x-concordia-token"
TOKEN_COOKIE = "concordia_token"
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
WILDCARD = ("0.0.0.0", "::")


class WebError(Exception):
    """A refused request: the HTTP status and one line for the person at the board."""

    def __init__(self, status: int, message: str, field: str | None = None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.field = field          # the form field at fault (the start page shows the line beside it)


def is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def new_token() -> str:
    return secrets.token_urlsafe(24)


class Guard:
    """The checks of one server: its bind address, its token (None: none asked, `serve --no-token`) and
    its folder."""

    def __init__(self, folder: str, host: str = "127.0.0.1", port: int = 8000, token: str | None = None):
        self.folder = os.path.realpath(folder)
        self.host, self.port = host, port
        self.token = token
        self.any_host = host in WILDCARD     # bound to every address: the token is the only gate
        # cookies are not kept apart by port: two boards on one machine each keep their own
        self.cookie = f"{TOKEN_COOKIE}_{port}"

    # ---------------------------------------------------------------- headers
    def check_host(self, header: str | None) -> None:
        """Refuse a Host header that names no address of this server."""
        name = host_name(header or "")
        allowed = {n.lower() for n in LOOPBACK_NAMES} | {self.host.strip("[]").lower()}
        if not self.any_host and name not in allowed:
            raise WebError(403, f"the Host header {shown(header or '', SHOWN_PATH_CHARS)} does not name this "
                                f"server; open {self.address(with_token=False)} instead")

    def check_origin(self, origin: str | None, host_header: str | None) -> None:
        """A browser names the page a request comes from; only the board's own page may change a game
        (another site's page could otherwise post moves to a board on this machine)."""
        if not origin:
            return
        name = origin.split("://", 1)[-1].rstrip("/")
        if name.lower() != (host_header or "").strip().lower():
            raise WebError(403, f"the request comes from another site ({shown(origin, SHOWN_PATH_CHARS)}); the "
                                "board answers only its own page")

    def check_token(self, query: str | None, header: str | None, cookie: str | None) -> None:
        if self.token is None:
            return
        for given in (query, header, cookie):
            if given and secrets.compare_digest(given.encode(), self.token.encode()):
                return
        if query or header or cookie:
            raise WebError(403, "wrong token: open the address with the token that `concordia serve` printed")
        raise WebError(403, "this board needs its token: open the address that `concordia serve` printed "
                            "(it ends with ?token=...)")

    def address(self, with_token: bool = True) -> str:
        host = "127.0.0.1" if self.any_host else self.host
        host = f"[{host}]" if ":" in host else host
        tail = f"/?token={self.token}" if self.token and with_token else "/"
        return f"http://{host}:{self.port}{tail}"

    # ---------------------------------------------------------------- files
    def confine(self, name, what: str = "file") -> str:
        """The real path of `name` (relative to the served folder) if it lies inside the folder."""
        if not isinstance(name, str) or not name.strip():
            raise WebError(400, f"{what}: give a file name inside the served folder {self.folder}")
        if len(name) > 4096 or "\0" in name:
            raise WebError(400, f"{what}: not a valid file name")
        # links followed, then the real path must lie inside the real folder. (A path, not a descriptor:
        # the game file is locked and rewritten by name, as the CLI does; analyze --root, which only
        # reads, opens beneath its root with safe_read.read_beneath instead.)
        base = os.path.realpath(self.folder)
        full = os.path.realpath(os.path.join(base, name))
        if os.path.commonpath([base, full]) != base:
            raise WebError(403, f"{what}: {shown(name, SHOWN_PATH_CHARS)} is outside the served folder {self.folder}; "
                                f"the board opens only files inside it")
        return full

    def relative(self, path: str) -> str:
        return os.path.relpath(path, self.folder)


def host_name(header: str) -> str:
    """The host part of a Host header, lower case, without port or IPv6 brackets."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:].split("]", 1)[0]
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


def read_json_body(raw: bytes):
    """A request body as JSON (depth and number length bounded as for files); WebError otherwise."""
    if not raw.strip():
        return {}
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise WebError(400, "the request body is not UTF-8 text") from None
    try:
        data = safe_read.parse_json(text, "the request body")
    except safe_read.UserFileError as e:
        raise WebError(400, str(e)) from None
    if not isinstance(data, dict):
        raise WebError(400, "the request body must be a JSON object")
    return data


def too_big() -> WebError:
    return WebError(413, f"the request body is over {limits.REQUEST_BYTES:,} bytes; a request to the board "
                         f"is a few kB")
