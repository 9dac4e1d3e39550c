"""Helpers for tests that drive the `concordia` command line in-process (click's CliRunner)."""
from click.testing import CliRunner

from concordia_ai.cli import main


def run(*args, code=0):
    """Invoke `concordia ARGS...`; the exit code must be `code` and no traceback may reach stderr."""
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exit_code == code, (args, result.stdout, result.stderr, result.exception)
    assert "Traceback" not in result.stderr
    return result


def error_line(result, *words):
    """The refusal is one `error: ...` line on stderr naming every word of `words`."""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for w in words:
        assert w in lines[0], (w, lines[0])


def new_game(tmp_path, name="game.json"):
    """A tracked 3-player Imperium game (seed 7) of Ann, Bob and Cid."""
    f = tmp_path / name
    run("new", f, "--players", 3, "--seed", 7, "--names", "Ann,Bob,Cid")
    return f
