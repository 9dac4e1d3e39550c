"""The board's web app (Starlette): the page, its static files, and the JSON API it calls.

Every API answer is JSON; a refused request gets a 4xx answer {"error": "one line"} and an unexpected
failure a 500 with one line, never a traceback, and the server goes on serving. Game files are read and
written exactly as the CLI does (table.game_file: the same replay check, the same lock, atomic writes),
so a `concordia play` in a terminal and a tap on the page never lose each other's moves; the page polls
/api/version (a stat of the file) and reloads the state when it changes.
"""
from __future__ import annotations

import os
import sys
from importlib.resources import files

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..engine import limits
from ..engine.errors import ConcordiaError
from ..engine.layout import LayoutError
from ..table.game_file import GameFileError
from . import actions
from .security import TOKEN_HEADER, Guard, WebError, new_token, read_json_body, too_big
from .jobs import one_line

STATIC = {"app.js": "text/javascript", "app.css": "text/css", "favicon.svg": "image/svg+xml"}
USER_ERRORS = (ConcordiaError, GameFileError)
SECURITY_HEADERS = {
    "content-security-policy": "default-src 'self'; img-src 'self' data:; object-src 'none'; "
                               "frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    "x-content-type-options": "nosniff", "referrer-policy": "no-referrer", "cache-control": "no-store",
}


def error(status: int, message: str, field: str | None = None, items=None) -> JSONResponse:
    """{"error": one line}, with "field" (and "items": the cities or display places) when the refusal
    names a field of the start page's forms."""
    body = {"error": one_line(message)}
    if field:
        body["field"] = field
        if items:
            body["items"] = list(items)
    return JSONResponse(body, status_code=status, headers=SECURITY_HEADERS)


async def read_body(request: Request) -> dict:
    """The JSON body, read no further than limits.REQUEST_BYTES."""
    declared = request.headers.get("content-length")
    if declared is not None:
        if not declared.isdigit():
            raise WebError(400, "the Content-Length header is not a number")
        if int(declared) > limits.REQUEST_BYTES:
            raise too_big()
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limits.REQUEST_BYTES:
            raise too_big()
        chunks.append(chunk)
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise WebError(415, f"a request to the board is JSON (Content-Type: application/json), not {kind or 'untyped'}")
    return read_json_body(b"".join(chunks))


def api(handler):
    """An endpoint: the body read and bounded, the handler run in a worker thread (file locks and
    searches block), every failure answered as one line of JSON."""
    async def endpoint(request: Request):
        try:
            body = await read_body(request) if request.method == "POST" else {}
            result = await run_in_threadpool(handler, request, body)
            return JSONResponse(result, headers=SECURITY_HEADERS)
        except WebError as e:
            return error(e.status, e.message, e.field)
        except LayoutError as e:        # the same refusal as `concordia new` (engine/layout.py)
            return error(400, str(e), e.field, e.items)
        except USER_ERRORS as e:
            return error(400, str(e))
        except Exception as e:   # a bug: one line to the page, the details to the server's terminal
            print(f"concordia serve: internal error on {request.url.path}: {type(e).__name__}: {e}", file=sys.stderr)
            return error(500, f"internal error (please report): {type(e).__name__}: {e}")
    return endpoint


class GuardMiddleware:
    """Host header and token checks before any route (static files and the page included)."""

    def __init__(self, app, guard: Guard):
        self.app, self.guard = app, guard

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        request = Request(scope)
        try:
            self.guard.check_host(request.headers.get("host"))
            self.guard.check_origin(request.headers.get("origin"), request.headers.get("host"))
            self.guard.check_token(request.query_params.get("token"), request.headers.get(TOKEN_HEADER),
                                   request.cookies.get(self.guard.cookie))
        except WebError as e:
            return await error(e.status, e.message)(scope, receive, send)
        return await self.app(scope, receive, send)


def create_app(folder: str, game_file: str | None = None, host: str = "127.0.0.1", port: int = 8000,
               token: str | None = None, no_token: bool = False) -> Starlette:
    """The app serving `folder` (the only place it reads or writes), with `game_file` open if given.

    Every request needs `token` (a new random one when none is given), on loopback too; its address
    with the token is `app.state.board.guard.address()`. `no_token` serves without one
    (`concordia serve --no-token`)."""
    if no_token and token is not None:
        raise ValueError("create_app: a token or no_token, not both")
    guard = Guard(folder, host, port, None if no_token else token or new_token())
    board = actions.Board(guard)
    if game_file is not None:
        board.open(guard.relative(os.path.realpath(game_file)))

    def page(request: Request):
        html = (files("concordia_ai.web") / "static" / "index.html").read_text(encoding="utf-8")
        response = Response(html, media_type="text/html", headers=SECURITY_HEADERS)
        if guard.token:     # opened with the token: the page's own requests then carry it in this cookie
            response.set_cookie(guard.cookie, guard.token, httponly=True, samesite="strict")
        return response

    def static(request: Request):
        name = request.path_params["name"]
        if name not in STATIC:
            return error(404, f"no static file {name!r}; the page uses {', '.join(STATIC)}")
        data = (files("concordia_ai.web") / "static" / name).read_bytes()
        return Response(data, media_type=STATIC[name], headers=SECURITY_HEADERS)

    def get(fn):
        return api(lambda request, body: fn(dict(request.query_params)))

    def post(fn):
        return api(lambda request, body: fn(body))

    routes = [
        Route("/", page),
        Route("/static/{name}", static),
        Route("/api/version", get(lambda q: board.version())),
        Route("/api/state", get(lambda q: board.state())),
        Route("/api/files", get(lambda q: board.files())),
        Route("/api/boardinfo", get(board.board_info)),
        Route("/api/view", get(board.view)),
        Route("/api/why", get(board.why)),
        Route("/api/history", get(board.history)),
        Route("/api/replay", get(board.replay)),
        Route("/api/job", get(board.job)),
        Route("/api/open", post(lambda b: board.open(b.get("file"))), methods=["POST"]),
        Route("/api/new", post(board.new), methods=["POST"]),
        Route("/api/close", post(board.close), methods=["POST"]),
        Route("/api/play", post(board.play), methods=["POST"]),
        Route("/api/undo", post(board.undo), methods=["POST"]),
        Route("/api/redo", post(board.redo), methods=["POST"]),
        Route("/api/hint", post(board.hint), methods=["POST"]),
        Route("/api/review", post(board.review), methods=["POST"]),
        Route("/api/stop", post(board.stop), methods=["POST"]),
    ]

    async def http_error(request, exc: HTTPException):
        if exc.status_code == 404:
            return error(404, f"no page {request.url.path}; the board is at /")
        if exc.status_code == 405:
            return error(405, f"{request.method} is not how {request.url.path} is used")
        return error(exc.status_code, exc.detail or "bad request")

    app = Starlette(routes=routes, exception_handlers={HTTPException: http_error})
    app.add_middleware(GuardMiddleware, guard=guard)
    app.state.board = board
    return app
