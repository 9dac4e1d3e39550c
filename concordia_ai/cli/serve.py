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
              help="Address to listen on (0.0.0.0: every address, for other machines).")
@click.option("--port", default=8765, show_default=True, type=click.IntRange(0, 65535),
              help="Port to listen on (0: a free port, printed at start).")
@click.option("--no-token", is_flag=True,
              help="Serve without the token (on a loopback address only): anyone who can reach this machine's "
                   "loopback, every user of a shared machine, can then play moves.")
def serve(game_file, host, port, no_token):
    """A board in the browser for GAME_FILE: tap moves, undo and redo, hints, review, replays.

    The page works on the same game file as the other commands, with the same lock: a `concordia
    play` typed in a terminal shows on the page. Without GAME_FILE the page offers to start a game
    (a simulation, or a real table's layout) or open one in this folder. It reads and writes only
    files in the folder of GAME_FILE (or the current folder). It listens on 127.0.0.1 unless --host
    says otherwise. Every request needs the random token in the printed address (opened once, the
    page keeps it in a cookie), on 127.0.0.1 too, where every user of the machine could otherwise
    play moves; --no-token turns it off on a loopback address.

    \b
    Examples:
      concordia serve game.json
      concordia serve                       (start or open a game on the page)
      concordia serve game.json --host 0.0.0.0 --port 8080
      concordia serve game.json --no-token  (a machine of your own: the plain address works)
    """
    from ..web import server
    from ..web.security import is_loopback
    if no_token and not is_loopback(host.strip("[]")):
        raise UserError(f"--no-token: only on this machine's loopback address (127.0.0.1, ::1, localhost); on "
                        f"{host} anyone on the network could play moves, so the board keeps its token there")
    if game_file is not None:
        if not os.path.isfile(game_file):
            raise UserError(f"{game_file} is not a file; start one with: concordia new {game_file} (or run "
                            "concordia serve without a file and start it on the page)")
        _load(game_file)         # a bad file is refused here, with the CLI's message
    try:       # bound once and served on this very socket: port 0 gives a free port, read back here
        sock = server.listen(host, port)
    except OSError as e:
        raise UserError(f"--host/--port: cannot listen on {host}:{port} ({e.strerror or e}); try another --port "
                        "(or --port 0 for a free one)")
    port = sock.getsockname()[1]
    try:
        app, address, token = server.prepare(server.folder_of(game_file), game_file, host, port, no_token)
    except BaseException:
        sock.close()
        raise
    click.echo(f"concordia board: {address}")
    if host in ("0.0.0.0", "::"):
        click.echo(f"from other machines: http://{socket.gethostname()}:{port}/?token={token} (or this machine's "
                   "address in place of its name)")
    if token:
        click.echo(f"serving {server.folder_of(game_file)}; every request needs the token in the address "
                   "(the page opened with it keeps it); Ctrl-C stops it")
    else:
        click.echo(f"serving {server.folder_of(game_file)} without a token: anyone who can reach {host} on this "
                   "machine can play moves; Ctrl-C stops it")
    server.run(app, sock)
