"""Fuzz over mutated positions (tests/loader_fuzz.py): every position the loader accepts, loose or strict,
has a legal move or is over, reads back unchanged, plays on for dozens of random moves keeping the
core's invariants, and can be saved and loaded again. In a subprocess: a crash in the core must fail
this test, not end the test run."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def test_every_accepted_mutated_position_continues():
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT, HERE, os.environ.get("PYTHONPATH", "")]))
    r = subprocess.run([sys.executable, os.path.join(HERE, "loader_fuzz.py"), "11", "4000"], capture_output=True,
                       text=True, env=env, timeout=600)
    assert r.returncode == 0, f"exit {r.returncode}\n{r.stdout[-6000:]}\n{r.stderr[-4000:]}"
    counts = dict(zip(*[iter(r.stdout.split())] * 2))
    assert int(counts["cases"]) == 4000
    assert int(counts["accepted"]) >= 1000, r.stdout      # the mutations stay near real positions
