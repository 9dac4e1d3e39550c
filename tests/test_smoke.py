"""The compiled core imports, plays a game and the interpreter exits cleanly.

Runs in a child interpreter: a crash at interpreter exit (a known Cython 3.3.1 problem) would
otherwise go unnoticed inside pytest's own process.
"""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SCRIPT = """
import random
import concordia_ai.core
from concordia_ai import core
from concordia_ai.engine import vocabulary
for name in ("imperium", "italia"):
    s = core.CoreState.new(vocabulary.board(name).id, 4, 1)
    rng = random.Random(1)
    steps = 0
    while not s.is_over and steps < 20000:
        s.apply(rng.choice(s.legal_actions()))
        steps += 1
    assert s.is_over, (name, steps)
    t = core.CoreState.new(vocabulary.board(name).id, 3, 2)
    assert t.random_playout(2, 100000) > 0 and t.is_over
print('ok')
"""


def test_import_play_and_clean_exit():
    proc = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, f"exit {proc.returncode}\nstdout:{proc.stdout}\nstderr:{proc.stderr[-4000:]}"
    assert proc.stdout.strip().splitlines()[-1] == "ok"


def test_a_pickled_state_loads_in_a_fresh_interpreter():
    # a worker process unpickles a state before it has loaded any board: the core must load it itself
    import pickle
    from concordia_ai.engine.game import Game
    blob = pickle.dumps(Game.new("italia", 3, 5).state)
    code = ("import pickle, sys; s = pickle.loads(sys.stdin.buffer.read()); "
            "print(len(s.legal_actions()) > 0, s.is_over)")
    r = subprocess.run([sys.executable, "-c", code], input=blob, capture_output=True, timeout=120, cwd=ROOT)
    assert r.returncode == 0, r.stderr.decode()
    assert r.stdout.decode().split() == ["True", "False"]
