"""Running the board: the socket bound first (port 0: a free one), the address with its token printed,
then uvicorn serving on that very socket (no second bind that another program could win)."""
from __future__ import annotations

import os
import socket

from .app import create_app


def listen(host: str, port: int) -> socket.socket:
    """A listening socket on host:port; port 0 lets the system pick a free port (read it back with
    `sock.getsockname()[1]`). OSError when the address cannot be had."""
    name = host.strip("[]")
    sock = socket.socket(socket.AF_INET6 if ":" in name else socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((name, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    return sock


def prepare(folder: str, game_file: str | None, host: str, port: int, no_token: bool = False):
    """(app, address, token) for the server on host:port (the port actually bound): a new token unless
    `no_token`, the address printed with it."""
    app = create_app(folder, game_file, host, port, no_token=no_token)
    guard = app.state.board.guard
    return app, guard.address(), guard.token


def run(app, sock: socket.socket) -> None:
    """Serve `app` on the listening socket `sock` until Ctrl-C."""
    import uvicorn
    config = uvicorn.Config(app, log_level="warning", access_log=False, server_header=False, date_header=False,
                            limit_concurrency=64, timeout_keep_alive=5)
    try:
        uvicorn.Server(config).run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()


def folder_of(game_file: str | None) -> str:
    return os.path.dirname(os.path.abspath(game_file)) if game_file else os.getcwd()
