"""`concordia serve`: the local web board (concordia_ai.web, docs/web.md)."""
from __future__ import annotations

import os
import socket

import click

from .app import UserError, main
from .common import _load


@main.command()
@click.argument("game_file", metavar="[GAME_FILE]", required=False)
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on. Any other than this machine's loopback needs the token printed at start.")
@click.option("--port", default=8765, show_default=True, type=click.IntRange(1, 65535), help="Port to listen on.")
def serve(game_file, host, port):
    """A board in the browser for GAME_FILE: tap moves, undo and redo, hints, review, replays.

    The page works on the same game file as the other commands, with the same lock: a `concordia
    play` typed in a terminal shows on the page. Without GAME_FILE the page offers to start a game
    (a simulation, or a real table's layout) or open one in this folder. It reads and writes only
    files in the folder of GAME_FILE (or the current folder). It listens on 127.0.0.1 unless --host
    says otherwise; then every request needs the token in the printed address.

    \b
    Examples:
      concordia serve game.json
      concordia serve                       (start or open a game on the page)
      concordia serve game.json --host 0.0.0.0 --port 8080
    """
    from ..web import server
    if game_file is not None:
        if not os.path.isfile(game_file):
            raise UserError(f"{game_file} is not a file; start one with: concordia new {game_file} (or run "
                            "concordia serve without a file and start it on the page)")
        _load(game_file)         # a bad file is refused here, with the CLI's message
    app, address, token = server.prepare(server.folder_of(game_file), game_file, host, port)
    try:
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind((host.strip("[]"), port))
    except OSError as e:
        raise UserError(f"--host/--port: cannot listen on {host}:{port} ({e.strerror or e}); try another --port")
    click.echo(f"concordia board: {address}")
    if host in ("0.0.0.0", "::"):
        click.echo(f"from other machines: http://{socket.gethostname()}:{port}/?token={token} (or this machine's "
                   "address in place of its name)")
    click.echo(f"serving {server.folder_of(game_file)}" + (f"; the token is required on {host}" if token else "")
               + "; Ctrl-C stops it")
    server.run(app, host.strip("[]"), port)
