"""`plan:F.toml` reads its file through safe_read in every command that takes a bot: a FIFO, a link to
/dev/zero, a binary file or a plan nested 5,000 deep is one line and exit code 2, never a hang, a full
memory or an internal error (issue 17)."""
import os

import pytest

from cli_helpers import run

BIN = b"\x7fELF\x02\x01\x01\x00" + bytes(range(256))


def make(tmp_path, kind):
    f = tmp_path / f"{kind}.toml"
    if kind == "fifo":
        os.mkfifo(f)
    elif kind == "zero":
        f.symlink_to("/dev/zero")
    elif kind == "binary":
        f.write_bytes(BIN)
    else:
        f.write_text("buy = " + "[" * 5000 + "]" * 5000 + "\n")
    return f


WHY = {"fifo": ": it is a FIFO (named pipe), not a regular file",
       "zero": ": it is a device, not a regular file",
       "binary": " is not UTF-8 text (bad byte at offset 136)",
       "deep": " nests lists or tables 5,000 deep; at most 64 is allowed"}


def command(name, plan, tmp_path):
    if name == "tournament":
        return (["tournament", "--bot", f"a=plan:{plan}", "--bot", "b=random", "--players", 2, "--games", 2,
                 "--out", tmp_path / "out"], "--bot a: ")
    if name == "research":
        return (["research", "cards", "--bot", f"plan:{plan}", "--players", 2, "--games", 2, "-q",
                 "--out", tmp_path / "out"], "--bot: ")
    game = tmp_path / "g.json"
    run("new", game, "--players", 2, "--seed", 1)
    return ["hint", game, "--bot", f"plan:{plan}", "--iterations", 10], ""


@pytest.mark.parametrize("kind", list(WHY))
@pytest.mark.parametrize("name", ["tournament", "hint", "research"])
def test_a_bad_plan_file_is_one_line_and_exit_2(tmp_path, name, kind):
    plan = make(tmp_path, kind)
    args, prefix = command(name, plan, tmp_path)
    r = run(*args, code=2)
    assert r.stderr == f"error: {prefix}plan file {plan}{WHY[kind]}\n"
    assert not (tmp_path / "out").exists()
