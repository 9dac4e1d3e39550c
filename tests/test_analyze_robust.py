"""`concordia analyze` driven through pipes: no line stops or hangs it, and terminate stops a search.

The engine runs in a subprocess; every read has a generous timeout that only guards against a hang
(no test asserts how long anything takes)."""
import json
import os
import queue
import subprocess
import sys
import threading

import pytest

from concordia_ai import core
from concordia_ai.engine.game import Game
from concordia_ai.table.game_file import GameFile

HANG_GUARD = 120.0     # seconds: only reached if the engine hangs


class Engine:
    def __init__(self, cwd, *args):
        self.p = subprocess.Popen([sys.executable, "-c", "from concordia_ai.cli import main; main()", "analyze",
                                   *args], cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE)
        # a reader thread: select() on a buffered pipe misses lines already in Python's buffer
        self.lines = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self):
        for line in iter(self.p.stdout.readline, b""):
            self.lines.put(line)
        self.lines.put(b"")          # end of output

    def send(self, line):
        data = line if isinstance(line, bytes) else (line if isinstance(line, str) else json.dumps(line)).encode()
        self.p.stdin.write(data + b"\n")
        self.p.stdin.flush()

    def recv(self) -> dict:
        try:
            line = self.lines.get(timeout=HANG_GUARD)
        except queue.Empty:
            raise AssertionError("the engine did not answer (hang)") from None
        assert line, f"the engine ended: {self.p.stderr.read().decode()}"
        return json.loads(line)

    def close(self) -> tuple[int, str]:
        self.p.stdin.close()
        code = self.p.wait(HANG_GUARD)
        return code, self.p.stderr.read().decode()


@pytest.fixture
def folder(tmp_path):
    gf = GameFile.create(str(tmp_path / "g.json"), Game.new("imperium", 2, seed=3))
    gf.save()
    return tmp_path


BAD_LINES = [
    # (line, id, field, words in the error)
    ('{"id":1,"file":"g.json","iterations":3000000000}', 1, "iterations", "1..2,147,483,647"),
    ('{"id":2,"file":"g.json","iterations":1e300}', 2, "iterations", "out of range"),
    ('{"id":3,"file":"g.json","config":{"rollout_turns":1000000000000}}', 3, "config.rollout_turns", "0..10,000"),
    ('{"id":4,"file":"g.json","seconds":Infinity}', 4, "seconds", "not a finite number"),
    ('{"id":5,"file":"g.json","seconds":NaN}', 5, "seconds", "not a finite number"),
    ('{"id":6,"file":"g.json","seed":1180591620717411303424}', 6, "seed", "0..9,223,372,036,854,775,807"),
    ('{"id":7,"file":"g.json","reportEvery":1e-6}', 7, "reportEvery", "0.05..86,400"),
    ('{"id":8,"file":"g.json","iterations":true}', 8, "iterations", "not a number"),
    ('{"id":9,"file":"g.json","lines":100000}', 9, "lines", "1..1,000"),
    ('{"id":10,"file":"fifo"}', 10, "file", "FIFO"),
    ('{"id":11,"file":"deep.json"}', 11, "file", "100,000 deep"),
    ('{"id":12,"file":"digits.json"}', 12, "file", "5,000-digit integer"),
    ('{"id":13,"file":"."}', 13, "file", "a folder"),
    ('{"id":14,"file":"binary.json"}', 14, "file", "not UTF-8"),
    ('{"id":15,"file":"g.json","config":{"seed":-1}}', 15, "config.seed", "0..9,223"),
    ('{"id":16,"file":"g.json","seconds":1e400}', 16, "seconds", "not a finite number"),
    # a client names no files on the engine's machine: weight directories are for bot specs only
    ('{"id":20,"file":"g.json","config":{"value_weights":"/etc"}}', 20, "config.value_weights",
     "unknown search knob 'value_weights'"),
    ("[" * 100_000 + "]" * 100_000, None, None, "100,000 deep"),
    ('{"id":' + "9" * 5000 + "}", None, None, "5,000-digit integer"),
    ("42", None, None, "must be a JSON object"),
    (b"\xff\xfe\x00junk", None, None, "not UTF-8"),
    ("{not json", None, None, "could not parse the query as JSON"),
    (b'{"id":19,"pad":"' + b"a" * (9 * 2 ** 20) + b'"}', None, None, "longer than 8,388,608 bytes"),
    ('{"id":17,"action":"fly"}', 17, "action", "valid: query_version, terminate, terminate_all"),
    ('{"id":18,"action":"terminate","terminateId":[1]}', 18, "terminateId", "the id of a query"),
]


def test_every_bad_line_is_answered_and_the_engine_keeps_serving(folder):
    os.mkfifo(folder / "fifo")
    (folder / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    (folder / "digits.json").write_text('{"format": "concordia-game", "version": ' + "7" * 5000 + "}")
    (folder / "binary.json").write_bytes(b'{"format": "\xff"}')
    e = Engine(folder)
    for line, qid, field, words in BAD_LINES:
        e.send(line if isinstance(line, bytes) else line.encode())
        out = e.recv()
        assert out["id"] == qid and out["field"] == field and words in out["error"], (line[:60], out)
        assert set(out) == {"id", "error", "field"}
    e.send({"id": "after", "file": "g.json", "iterations": 50, "lines": 1})
    out = e.recv()
    assert out["id"] == "after" and out["rootInfo"]["iterations"] == 50 and len(out["candidates"]) == 1
    assert e.close() == (0, "")


def test_terminate_stops_the_running_query_with_its_partial_result(folder):
    e = Engine(folder)
    e.send({"id": "long", "file": "g.json", "seconds": 86400, "reportEvery": 0.05, "lines": 2})
    e.send({"id": "next", "file": "g.json", "iterations": 40, "lines": 1})
    first = e.recv()                          # a partial report: the search is running
    assert first["id"] == "long" and first["isDuringSearch"] is True
    e.send({"id": "long", "action": "terminate"})
    seen = [e.recv()]
    while "terminated" not in seen[-1]:
        seen.append(e.recv())
    acks = [o for o in seen if o.get("action") == "terminate"]
    assert acks == [{"id": "long", "action": "terminate", "queries": 1, "terminateId": "long"}]
    final = seen[-1]
    assert final["id"] == "long" and final["terminated"] is True and final["isDuringSearch"] is False
    assert final["rootInfo"]["iterations"] >= first["rootInfo"]["iterations"] > 0
    assert len(final["candidates"]) == 2
    nxt = e.recv()                            # the queue goes on
    assert nxt["id"] == "next" and nxt["rootInfo"]["iterations"] == 40 and "terminated" not in nxt
    assert e.close() == (0, "")


def test_terminate_all_stops_the_running_and_the_queued_queries(folder):
    e = Engine(folder)
    e.send({"id": "a", "file": "g.json", "seconds": 86400, "reportEvery": 0.05})
    e.send({"id": "b", "file": "g.json", "seconds": 86400})
    assert e.recv()["isDuringSearch"] is True
    e.send({"id": "t", "action": "terminate_all"})
    e.send({"id": "t2", "action": "terminate", "terminateId": "nobody"})
    seen = [e.recv() for _ in range(4)]
    seen = [o for o in seen if not o.get("isDuringSearch")]
    while len(seen) < 4:
        o = e.recv()
        if not o.get("isDuringSearch"):
            seen.append(o)
    assert {"id": "t", "action": "terminate_all", "queries": 2} in seen
    assert {"id": "t2", "action": "terminate", "queries": 0, "terminateId": "nobody"} in seen
    answers = [o for o in seen if "action" not in o]
    assert [o["id"] for o in answers] == ["a", "b"] and all(o["terminated"] for o in answers)
    assert answers[1] == {"id": "b", "terminated": True}       # stopped before it started
    assert e.close() == (0, "")


def test_a_refused_id_is_never_echoed(folder):
    """Queries refuse ids over 200 characters; so does a terminate line, for its own id and the one it
    names, and none of them is echoed back (a 100,000-character id would come back whole)."""
    long = "x" * 100_000
    e = Engine(folder)
    e.send({"id": long, "action": "terminate"})
    assert e.recv() == {"id": None, "error": "id must be at most 200 characters", "field": "id"}
    e.send({"id": long, "action": "terminate_all"})
    assert e.recv() == {"id": None, "error": "id must be at most 200 characters", "field": "id"}
    e.send({"id": 2 ** 63, "action": "terminate"})
    assert e.recv() == {"id": None, "error": "id must be a string or an integer", "field": "id"}
    e.send({"id": "t", "action": "terminate", "terminateId": long})
    assert e.recv() == {"id": "t", "error": "terminateId must be the id of a query (it must be at most 200 "
                                            "characters)", "field": "terminateId"}
    e.send({"id": long, "file": "g.json", "iterations": 10})
    assert e.recv() == {"id": None, "error": "id must be at most 200 characters", "field": "id"}
    e.send({"id": "t2", "action": "terminate", "terminateId": "y" * 200})      # the longest id there can be
    assert e.recv() == {"id": "t2", "action": "terminate", "queries": 0, "terminateId": "y" * 200}
    assert e.close() == (0, "")


def test_root_confines_file_queries(folder, tmp_path_factory):
    outside = tmp_path_factory.mktemp("outside")
    GameFile.create(str(outside / "o.json"), Game.new("imperium", 2, seed=1)).save()
    (folder / "sub").mkdir()
    os.symlink(outside / "o.json", folder / "sub" / "link.json")
    os.symlink(folder / "g.json", folder / "sub" / "inside.json")
    e = Engine(outside, "--root", str(folder))        # the working folder is outside the root
    for path, ok in [("g.json", True), ("sub/inside.json", True), ("sub/../g.json", True),
                     ("../" + outside.name + "/o.json", False), (str(outside / "o.json"), False),
                     ("sub/link.json", False), ("/etc/passwd", False)]:
        e.send({"id": path, "file": path, "iterations": 20, "lines": 1})
        out = e.recv()
        if ok:
            assert "candidates" in out, out
        else:
            assert out["field"] == "file" and "outside the folder" in out["error"], out
    assert e.close() == (0, "")


def test_root_must_be_a_folder(folder):
    r = subprocess.run([sys.executable, "-c", "from concordia_ai.cli import main; main()", "analyze", "--root",
                        str(folder / "g.json")], input=b"", capture_output=True, timeout=HANG_GUARD)
    assert r.returncode == 2 and r.stderr.decode().startswith("error: --root:") and r.stderr.count(b"\n") == 1


def test_file_errors_do_not_echo_what_the_file_holds(folder):
    (folder / "secret.json").write_text('{"format": "hunter2", "password": "hunter2"}')
    (folder / "secret.txt").write_text("root:hunter2:0:0\n")
    (folder / "nested.json").write_text('{"format": {"key": "hunter2"}}')
    e = Engine(folder)
    for name in ("secret.json", "secret.txt", "nested.json"):
        e.send({"id": name, "file": name})
        out = e.recv()
        assert out["field"] == "file" and "hunter2" not in out["error"], out
    assert e.close() == (0, "")


def test_a_stop_token_ends_the_core_search():
    from concordia_ai.engine import vocabulary
    vocabulary.board("imperium")
    token = core.StopToken()
    assert token.stopped is False
    token.stop()
    from concordia_ai.ai.search import SearchConfig
    whole = dict(SearchConfig().core_dict(players=2), turns=0)
    r = core.search(core.CoreState.new(0, 2, 1), dict(whole, iterations=0, seconds=86400.0), token)
    assert r["stopped"] is True and r["iterations"] == 0
    token.reset()
    r = core.search(core.CoreState.new(0, 2, 1), dict(whole, iterations=64), token)
    assert r["stopped"] is False and r["iterations"] == 64


def test_errors_name_the_field_of_the_query():
    """Issue 11, class 9: the field is the one that is wrong, at its own path."""
    from concordia_ai.protocol.analyze import handle
    pos = Game.new("imperium", 2, seed=3).to_json()
    big_turn = json.loads(json.dumps(pos))
    big_turn["turn"]["number"] = 2 ** 31
    cases = [({"position": big_turn}, "position.turn.number"),
             ({"position": pos, "seconds": float("nan")}, "seconds"),
             ({"position": pos, "seed": 2 ** 70}, "seed"),
             ({"position": pos, "config": {"seed": 2 ** 70}}, "config.seed"),
             ({"position": pos, "config": {"mix": float("inf")}}, "config.mix"),
             ({"position": pos, "config": {"jobs": 0}}, "config.jobs")]
    for query, field in cases:
        replies = []
        handle(json.dumps({"id": "x", **query}), replies.append)
        assert replies[0]["field"] == field, (query, replies)
    upper = json.loads(json.dumps(pos))
    upper["provinces"] = {k.upper(): v for k, v in pos["provinces"].items()}
    replies = []
    handle(json.dumps({"id": "u", "position": upper, "iterations": 20}), replies.append)
    assert "candidates" in replies[0], replies
