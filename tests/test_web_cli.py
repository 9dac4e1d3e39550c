"""`concordia serve` on the command line: the address it prints (with its token, on loopback too), a free
port from --port 0, --no-token, refusals. No test binds a fixed port: each takes port 0 and reads the
port the system gave back."""
import socket

import pytest
from starlette.testclient import TestClient

from cli_helpers import error_line, new_game, run
from concordia_ai.web import server


@pytest.fixture
def served(monkeypatch):
    """Run `serve` up to the point where it would start serving; record the app and the address of the
    socket it bound (closed here: nothing is served)."""
    calls = []

    def fake_run(app, sock):
        calls.append((app, sock.getsockname()[:2]))
        sock.close()
    monkeypatch.setattr(server, "run", fake_run)
    return calls


def test_serve_prints_the_tokened_address_of_a_free_port(tmp_path, served):
    game = new_game(tmp_path)
    out = run("serve", game, "--port", 0).stdout.splitlines()
    app, (host, port) = served[0]
    token = app.state.board.guard.token
    assert host == "127.0.0.1" and port > 0 and token and len(token) >= 32
    assert app.state.board.guard.port == port
    assert out == [f"concordia board: http://127.0.0.1:{port}/?token={token}",
                   f"serving {tmp_path}; every request needs the token in the address (the page opened with it "
                   "keeps it); Ctrl-C stops it"]
    assert app.state.board.path == str(game.resolve())
    # on loopback too, a move without the token is refused with one line
    c = TestClient(app, base_url=f"http://127.0.0.1:{port}", raise_server_exceptions=False)
    r = c.post("/api/play", json={"moves": ["play Prefect"]})
    assert (r.status_code, r.json()) == (403, {"error": "this board needs its token: open the address that "
                                                        "`concordia serve` printed (it ends with ?token=...)"})
    # the printed address opens the page; its cookie carries the token for the page's own requests
    page = c.get(out[0].removeprefix("concordia board: "))
    assert page.status_code == 200 and f"concordia_token_{port}={token}" in page.headers["set-cookie"]
    r = c.post("/api/play", json={"moves": ["play Prefect"]})
    assert r.status_code == 200 and r.json()["moveCount"] == 1


def test_serve_without_a_token_when_asked(tmp_path, served):
    game = new_game(tmp_path)
    out = run("serve", game, "--port", 0, "--no-token").stdout.splitlines()
    app, (host, port) = served[0]
    assert app.state.board.guard.token is None
    assert out == [f"concordia board: http://127.0.0.1:{port}/",
                   f"serving {tmp_path} without a token: anyone who can reach 127.0.0.1 on this machine can play "
                   "moves; Ctrl-C stops it"]
    c = TestClient(app, base_url=f"http://127.0.0.1:{port}", raise_server_exceptions=False)
    r = c.post("/api/play", json={"moves": ["play Prefect"]})
    assert r.status_code == 200 and r.json()["moveCount"] == 1


def test_serve_on_another_address_needs_a_token(tmp_path, served, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = run("serve", "--host", "0.0.0.0", "--port", 0).stdout.splitlines()
    app, (host, port) = served[0]
    token = app.state.board.guard.token
    assert host == "0.0.0.0" and port > 0 and len(token) >= 32
    assert out == [f"concordia board: http://127.0.0.1:{port}/?token={token}",
                   f"from other machines: http://{socket.gethostname()}:{port}/?token={token} (or this machine's "
                   "address in place of its name)",
                   f"serving {tmp_path}; every request needs the token in the address (the page opened with it "
                   "keeps it); Ctrl-C stops it"]
    assert app.state.board.path is None
    r = run("serve", "--host", "0.0.0.0", "--port", 0, "--no-token", code=2)
    error_line(r)
    assert r.stderr == ("error: --no-token: only on this machine's loopback address (127.0.0.1, ::1, localhost); on "
                        "0.0.0.0 anyone on the network could play moves, so the board keeps its token there\n")
    assert len(served) == 1


def test_serve_refuses_what_is_no_game(tmp_path, served):
    r = run("serve", tmp_path / "none.json", code=2)
    error_line(r)
    assert r.stderr == (f"error: {tmp_path / 'none.json'} is not a file; start one with: concordia new "
                        f"{tmp_path / 'none.json'} (or run concordia serve without a file and start it on the page)\n")
    (tmp_path / "bad.json").write_text("{}")
    r = run("serve", tmp_path / "bad.json", code=2)
    assert r.stderr == f"error: {tmp_path / 'bad.json'}: $.format is not 'concordia-game'\n"
    r = run("serve", "--port", 70000, code=2)
    assert "70000 is not in the range 0<=x<=65535" in r.stderr
    assert served == []


def test_serve_refuses_a_port_in_use(tmp_path, served):
    game = new_game(tmp_path)
    busy = server.listen("127.0.0.1", 0)
    try:
        port = busy.getsockname()[1]
        r = run("serve", game, "--port", port, code=2)
        error_line(r)
        assert r.stderr.startswith(f"error: --host/--port: cannot listen on 127.0.0.1:{port} (")
        assert r.stderr.endswith("try another --port (or --port 0 for a free one)\n")
    finally:
        busy.close()
    assert served == []
