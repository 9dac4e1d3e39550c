"""A time match in rating per doubling (lab/ratings.win_share_to_elo, scripts/time_elo.py): the Plackett-Luce
model's win share of one bot above equal opponents, and back, with exact numbers."""
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from concordia_ai.lab.ratings import ELO_PER_LOG, elo_to_win_share, win_share_to_elo

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "time_elo.py"


def test_a_fair_share_is_no_rating_and_half_the_wins_against_three_is_ln3():
    assert win_share_to_elo(0.25, 4) == pytest.approx(0.0, abs=1e-12)
    assert win_share_to_elo(0.5, 4) == pytest.approx(ELO_PER_LOG * math.log(3)) == pytest.approx(190.848, abs=1e-3)
    assert win_share_to_elo(0.5, 2) == pytest.approx(0.0, abs=1e-12)
    # two players: the head-to-head Elo formula, 400 points for ten to one
    assert win_share_to_elo(10 / 11, 2) == pytest.approx(400.0)
    for share, n in ((0.39, 4), (0.1, 5), (0.7, 3)):
        assert elo_to_win_share(win_share_to_elo(share, n), n) == pytest.approx(share)
    with pytest.raises(ValueError):
        win_share_to_elo(1.0, 4)


def _run(*args):
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=60)


def test_the_script_gives_the_gain_per_doubling_and_the_targets_in_each_others_terms():
    out = json.loads(_run("--won", "39", "--games", "100", "--players", "4", "--ratio", "4").stdout)
    assert out["elo"] == round(ELO_PER_LOG * math.log(0.39 * 3 / 0.61), 1) == 113.1
    assert out["elo_per_doubling"] == 56.6 and out["share_ci95"] == [0.3002, 0.488]
    # half the games at four times the time needs +95.4 a doubling; +60 a doubling gives 39.9 %
    assert out["targets"] == dict(share_needs_elo_per_doubling=95.4, elo_per_doubling_gives_share=0.3994)


@pytest.mark.parametrize("args", [("--won", "0", "--games", "10"), ("--won", "5", "--games", "10", "--ratio", "1")])
def test_bad_input_is_one_line_and_exit_2(args):
    r = _run(*args)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr
