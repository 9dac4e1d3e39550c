"""Running the board: uvicorn on the chosen address, the address (with its token) printed first."""
from __future__ import annotations

import os

from .app import create_app
from .security import is_loopback, new_token


def prepare(folder: str, game_file: str | None, host: str, port: int):
    """(app, address, token): a token only when the address is not a loopback one."""
    token = None if is_loopback(host) else new_token()
    app = create_app(folder, game_file, host, port, token)
    guard_address = app.state.board.guard.address()
    return app, guard_address, token


def run(app, host: str, port: int) -> None:
    import uvicorn
    uvicorn.run(app, host=host, port=port, log_level="warning", access_log=False,
                server_header=False, date_header=False, limit_concurrency=64, timeout_keep_alive=5)


def folder_of(game_file: str | None) -> str:
    return os.path.dirname(os.path.abspath(game_file)) if game_file else os.getcwd()
