"""`analyze --root` reads a file once, beneath the root, from one descriptor (issue 17: a folder swapped
with a link to the outside answered 17 of 1,500 queries from the outside file)."""
import json
import os
import threading
import time

import pytest

from concordia_ai.engine.game import Game
from concordia_ai.io import safe_read
from concordia_ai.protocol import analyze


def test_read_beneath_follows_links_inside_and_refuses_the_way_out(tmp_path):
    root, outside = tmp_path / "root", tmp_path / "outside"
    (root / "sub").mkdir(parents=True)
    outside.mkdir()
    (root / "a.txt").write_text("inside")
    (outside / "a.txt").write_text("outside")
    (root / "sub" / "rel.txt").symlink_to("../a.txt")
    (root / "sub" / "abs.txt").symlink_to(root / "a.txt")
    (root / "sub" / "out.txt").symlink_to(outside / "a.txt")
    (root / "sub" / "up").symlink_to("../..")
    (root / "loop").symlink_to("loop")
    for path in ("a.txt", "sub/rel.txt", "sub/abs.txt", "sub/../a.txt", str(root / "a.txt")):
        assert safe_read.read_beneath(path, str(root)) == b"inside", path
    for path in ("sub/out.txt", "../outside/a.txt", str(outside / "a.txt"), "sub/up/outside/a.txt", "/etc/passwd"):
        with pytest.raises(safe_read.UserFileError) as e:
            safe_read.read_beneath(path, str(root))
        assert str(e.value) == f"{path} is outside the folder the engine may read (--root)"
    with pytest.raises(safe_read.UserFileError, match=r"^cannot read loop: more than 40 symbolic links$"):
        safe_read.read_beneath("loop", str(root))
    with pytest.raises(safe_read.UserFileError, match=r"^cannot read sub: it is a folder, not a regular file$"):
        safe_read.read_beneath("sub", str(root))


def test_read_beneath_refuses_a_fifo_without_blocking(tmp_path):
    os.mkfifo(tmp_path / "pipe.json")
    with pytest.raises(safe_read.UserFileError) as e:
        safe_read.read_beneath("pipe.json", str(tmp_path))
    assert str(e.value) == "cannot read pipe.json: it is a FIFO (named pipe), not a regular file"


def _swapper(folder, real, link, stop, swaps):
    """Swap `folder` between the real folder and a link to the outside, a bounded number of times
    (the name is missing only between the two renames of a swap)."""
    os.rename(real, folder)
    for i in range(swaps):
        if stop.is_set():
            break
        os.rename(folder, real if i % 2 == 0 else link)
        os.rename(link if i % 2 == 0 else real, folder)
        time.sleep(0.0001)     # each state lasts a moment: reads meet both, and the swaps in between


def _race(tmp_path, read, reads=1500, swaps=200_000):
    """Read root/d/f while d is swapped with a link to outside/d, until `reads` reads found a file (or the
    swaps ran out); returns what each read answered (None: refused)."""
    root, outside = tmp_path / "root", tmp_path / "outside"
    root.mkdir()
    (outside / "d").mkdir(parents=True)
    real, link = root / "d.real", root / "d.link"
    real.mkdir()
    link.symlink_to(outside / "d")
    pos = Game.new("imperium", 2, seed=1).to_json()
    (real / "f.json").write_text(json.dumps(pos))
    (outside / "d" / "f.json").write_text(json.dumps(dict(pos, outside=True)))
    stop = threading.Event()
    t = threading.Thread(target=_swapper, args=(root / "d", real, link, stop, swaps))
    t.start()
    seen = []
    try:
        while sum(x is not None for x in seen) < reads and t.is_alive():
            seen.append(read("d/f.json", str(root)))
    finally:
        stop.set()
        t.join()
    return seen


def test_a_folder_swapped_with_a_link_never_answers_from_outside(tmp_path):
    def read(path, root):
        try:
            return json.loads(safe_read.read_beneath(path, root)).get("outside", False)
        except safe_read.UserFileError:
            return None         # the name did not exist at that moment, or was the link: refused
    seen = _race(tmp_path, read)
    assert True not in seen and False in seen


def test_analyze_file_queries_under_the_swap_never_read_outside(tmp_path, monkeypatch):
    answered = []
    real = analyze.Game.from_json
    monkeypatch.setattr(analyze.Game, "from_json", lambda data: answered.append(data.get("outside", False))
                        or real({k: v for k, v in data.items() if k != "outside"}))

    def read(path, root):
        try:
            return analyze._read_file_query({"file": path}, root)
        except analyze.QueryError as e:
            assert e.field == "file"
    _race(tmp_path, read, reads=100)
    assert True not in answered and False in answered
