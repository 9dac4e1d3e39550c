"""Calibration maps per setting (ai/calibration.py): reading, choosing the map of a setting, applying it."""
import json
import math

import pytest

from concordia_ai.ai import calibration
from concordia_ai.ai.calibration import CalibrationError, PlattMap


def _write(path, maps):
    path.write_text(json.dumps({"format": calibration.FORMAT, "maps": maps}))
    return path


def test_a_map_file_is_read_per_setting(tmp_path):
    f = _write(tmp_path / "cal.json", [
        {"eval": "net", "players": [3, 4], "seconds": 0.1, "a": 0.8, "b": -0.3},
        {"eval": "net", "players": [3, 4], "seconds": 3, "a": 0.6, "b": -0.2},
        {"eval": "hand", "players": [2], "seconds": 3, "a": 0.5, "b": -0.1}])
    maps = calibration.load(f)
    assert [(m.eval, sorted(m.players), m.seconds, m.a, m.b) for m in maps] == [
        ("net", [3, 4], 0.1, 0.8, -0.3), ("net", [3, 4], 3.0, 0.6, -0.2), ("hand", [2], 3.0, 0.5, -0.1)]
    # the nearest budget on a log scale: 0.5 s is nearer 0.1 s (x5) than 3 s (x6)
    assert calibration.find("net", 4, 0.5, f).seconds == 0.1
    assert calibration.find("net", 4, 0.6, f).seconds == 3.0
    assert calibration.find("hand", 2, 0.01, f).a == 0.5
    assert calibration.find("net", 2, 3, f) is None          # no value-model map for 2 players
    assert calibration.find("hand", 3, 3, f) is None


def test_a_format_v1_file_reads_as_value_model_maps_at_a_tenth_of_a_second(tmp_path):
    f = tmp_path / "v1.json"
    f.write_text(json.dumps({"players": {"4": {"a": 0.5, "b": -0.2}, "5": {"a": 0.7, "b": 0.0}}}))
    assert calibration.load(f) == [PlattMap("net", frozenset([4]), 0.1, 0.5, -0.2),
                                   PlattMap("net", frozenset([5]), 0.1, 0.7, 0.0)]


@pytest.mark.parametrize("content,message", [
    ("[1, 2]", "not a calibration file"),
    ("{not json", "not a calibration file"),
    (json.dumps({"maps": [{"eval": "net", "players": [4], "seconds": 1, "a": -1.0, "b": 0}]}), "increasing"),
    (json.dumps({"maps": [{"eval": "net", "players": [4], "seconds": 0, "a": 1.0, "b": 0}]}), "increasing"),
    (json.dumps({"maps": [{"eval": "net", "players": [4], "seconds": 1, "a": "nan", "b": 0}]}), "increasing"),
    (json.dumps({"maps": [{"eval": "policy", "players": [4], "seconds": 1, "a": 1, "b": 0}]}), "valid: eval"),
    (json.dumps({"maps": [{"eval": "net", "players": [6], "seconds": 1, "a": 1, "b": 0}]}), "players 2-5"),
    (json.dumps({"maps": [{"eval": "net", "players": [4], "a": 1, "b": 0}]}), "not a calibration file"),
])
def test_a_damaged_map_file_is_refused_with_what_is_wrong(tmp_path, content, message):
    f = tmp_path / "bad.json"
    f.write_text(content)
    with pytest.raises(CalibrationError, match=message):
        calibration.load(f)


def test_without_a_file_there_is_no_map(tmp_path):
    assert calibration.load(tmp_path / "missing.json") == []
    assert calibration.find("net", 3, 0.1, tmp_path / "missing.json") is None


def test_calibrate_follows_the_platt_map_and_its_slope():
    m = PlattMap("net", frozenset([4]), 0.1, 0.5, -0.2)
    p, se = calibration.calibrate(0.8, 0.01, m)
    z = 0.5 * math.log(0.8 / 0.2) - 0.2
    expected = 1 / (1 + math.exp(-z))
    assert p == pytest.approx(expected)
    assert se == pytest.approx(0.01 * 0.5 * expected * (1 - expected) / (0.8 * 0.2))
    assert calibration.calibrate(0.8, 0.01, None) == (0.8, 0.01)   # no map: the raw value
    assert calibration.calibrate(1.0, 0.0, m) == (1.0, 0.0)        # a certain outcome stays certain
    assert calibration.calibrate(0.0, 0.0, m) == (0.0, 0.0)


def test_the_budget_is_the_cpu_seconds_of_all_threads():
    assert calibration.budget_seconds(3.0, 0) == 3.0
    assert calibration.budget_seconds(0, 14_000) == pytest.approx(14_000 / calibration.ITERATIONS_PER_SECOND)
    assert calibration.budget_seconds(3.0, 14_000) == pytest.approx(0.1)     # the smaller of the two
    assert calibration.budget_seconds(0.5, 0, jobs=4) == 2.0


def test_the_note_says_when_the_win_percent_is_not_calibrated_for_the_setting(tmp_path):
    f = _write(tmp_path / "cal.json", [{"eval": "net", "players": [3], "seconds": 0.1, "a": 0.8, "b": -0.3}])
    assert calibration.note("net", 3, 0.1, f) is None
    assert calibration.note("net", 3, 0.9, f) is None                    # within 10 times the map's budget
    far = calibration.note("net", 3, 3.0, f)
    assert "fitted at 0.1 CPU s" in far and "far from it" in far
    none = calibration.note("hand", 2, 3.0, f)
    assert "the hand formula (2 players)" in none and "no calibration map applies" in none


def test_a_rewritten_file_is_read_again(tmp_path):
    f = _write(tmp_path / "cal.json", [{"eval": "net", "players": [3], "seconds": 0.1, "a": 0.8, "b": -0.3}])
    assert calibration.find("net", 3, 0.1, f).a == 0.8
    _write(f, [{"eval": "net", "players": [3], "seconds": 0.1, "a": 0.65, "b": -0.3}])
    assert calibration.find("net", 3, 0.1, f).a == 0.65


def test_the_package_map_file_is_valid():
    maps = calibration.load()
    assert maps and all(m.eval in ("net", "hand") for m in maps)
    assert calibration.find("net", 4, 0.1) is not None


def _script():
    """scripts/calibration.py as a module (it is a script, not part of the package)."""
    import importlib.util
    from pathlib import Path
    path = Path(__file__).resolve().parent.parent / "scripts" / "calibration.py"
    spec = importlib.util.spec_from_file_location("calibration_script", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_platt_fit_recovers_a_known_map_and_stays_increasing():
    import numpy as np
    script = _script()
    rng = np.random.default_rng(7)
    p = rng.uniform(0.02, 0.98, 20000)
    truth = PlattMap("net", frozenset([3]), 1.0, 0.6, -0.4)
    y = (rng.uniform(size=p.size) < np.array([truth(q) for q in p])).astype(float)
    a, b = script.fit_platt(p, y)
    assert a == pytest.approx(0.6, abs=0.04) and b == pytest.approx(-0.4, abs=0.04)
    # outcomes that fall as the value rises: the flattest increasing map, never a decreasing one
    a, _ = script.fit_platt(p, 1.0 - (p > 0.5))
    assert a == script.MIN_SLOPE
    # certain values are left out of the fit: the map leaves them as they are
    assert script.fit_platt(np.array([0.0, 1.0]), np.array([1.0, 0.0])) == (1.0, 0.0)


def test_the_shown_figure_is_the_normalised_share_of_every_seat_through_the_map():
    script = _script()
    row = dict(seat=1, win_raw=0.5, turn_seats_raw=[0.2, 0.5, 0.3])
    m = PlattMap("net", frozenset([3]), 1.0, 0.7, -0.3)
    mapped = [m(s) for s in row["turn_seats_raw"]]
    assert script._shown([row], 0.7, -0.3)[0] == pytest.approx(mapped[1] / sum(mapped))
    assert script._shown([dict(seat=0, win_raw=0.4)], 0.7, -0.3)[0] == pytest.approx(m(0.4))


def test_a_fit_merges_its_setting_into_the_file_and_keeps_the_others(tmp_path):
    import argparse
    import random
    script = _script()
    f = _write(tmp_path / "cal.json", [
        {"eval": "net", "players": [2, 3, 4, 5], "seconds": 0.1, "a": 0.85, "b": -0.28},
        {"eval": "net", "players": [3], "seconds": 3.0, "a": 9.0, "b": 0.0}])     # replaced by the fit
    rnd = random.Random(3)
    rows = []
    for g in range(80):
        n = 2 + (g // 2) % 2      # both counts in even and odd games (the cross-fit halves)
        for k in range(5):
            raw = rnd.uniform(0.05, 0.95)
            rows.append(dict(game=g, players=n, seat=0, win_raw=raw, won=int(rnd.random() < raw * 0.8)))
    args = argparse.Namespace(search="ismcts:seconds=3,iterations=0", play="x", seed=1, games=80)
    out = script.fit_map(rows, f, args)
    maps = calibration.load(f)
    assert [(m.eval, sorted(m.players), m.seconds) for m in maps][0] == ("net", [2, 3, 4, 5], 0.1)
    new = [m for m in maps if m.seconds == 3.0]
    # auto evaluation: the hand formula with 2 players, the value model with 3
    assert sorted((m.eval, sorted(m.players)) for m in new) == [("hand", [2]), ("net", [3])]
    assert all(m.a != 9.0 for m in new)
    assert out["cross_fitted"]["net"]["one_map"]["positions"] == 200
    assert calibration.find("hand", 2, 3.0, f).a == pytest.approx(out["maps"][0]["a"], abs=1e-6)


def test_margin_deciles_compare_the_shown_margin_with_the_real_one():
    script = _script()
    rows = [dict(turn_margin=float(i), final_margin=float(i) + 2.0) for i in range(100)]
    dec = script.margin_deciles(rows)
    assert len(dec) == 10 and all(d["positions"] == 10 and d["gap"] == 2.0 for d in dec)
    assert dec[0]["shown"] == 4.5 and dec[9]["real"] == 96.5
