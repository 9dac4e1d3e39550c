"""`concordia serve` on the command line: the address it prints, the token off loopback, refusals."""
import socket

import pytest

from cli_helpers import error_line, new_game, run
from concordia_ai.web import server


@pytest.fixture
def served(monkeypatch):
    """Run `serve` up to the point where it would start listening; record what it would run."""
    calls = []
    monkeypatch.setattr(server, "run", lambda app, host, port: calls.append((app, host, port)))
    return calls


def test_serve_prints_the_address_and_serves_the_game(tmp_path, served):
    game = new_game(tmp_path)
    out = run("serve", game, "--port", 8799).stdout.splitlines()
    assert out == ["concordia board: http://127.0.0.1:8799/", f"serving {tmp_path}; Ctrl-C stops it"]
    app, host, port = served[0]
    assert (host, port, app.state.board.guard.token) == ("127.0.0.1", 8799, None)
    assert app.state.board.path == str(game.resolve())


def test_serve_on_another_address_needs_a_token(tmp_path, served, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = run("serve", "--host", "0.0.0.0", "--port", 8798).stdout.splitlines()
    token = served[0][0].state.board.guard.token
    assert len(token) >= 32
    assert out == [f"concordia board: http://127.0.0.1:8798/?token={token}",
                   f"from other machines: http://{socket.gethostname()}:8798/?token={token} (or this machine's "
                   "address in place of its name)",
                   f"serving {tmp_path}; the token is required on 0.0.0.0; Ctrl-C stops it"]
    assert served[0][0].state.board.path is None


def test_serve_refuses_what_is_no_game(tmp_path, served):
    r = run("serve", tmp_path / "none.json", code=2)
    error_line(r)
    assert r.stderr == (f"error: {tmp_path / 'none.json'} is not a file; start one with: concordia new "
                        f"{tmp_path / 'none.json'} (or run concordia serve without a file and start it on the page)\n")
    (tmp_path / "bad.json").write_text("{}")
    r = run("serve", tmp_path / "bad.json", code=2)
    assert r.stderr == f"error: {tmp_path / 'bad.json'}: $.format is not 'concordia-game'\n"
    r = run("serve", "--port", 70000, code=2)
    assert "70000 is not in the range 1<=x<=65535" in r.stderr
    assert served == []
