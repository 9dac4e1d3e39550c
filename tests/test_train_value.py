"""scripts/train_value.py's search targets (issue 25, deliverable 3): the soft-target gradient against a
numerical one, a weight of 0 training exactly as the labels alone, a weight of 1 moving the predictions to a
known target distribution while the held-out figures stay on the real results; and value files without
search estimates (older ones) still loading, training and merging (tiny synthetic data)."""
import json
import sys
from pathlib import Path

import numpy as np
import pytest

from concordia_ai import core
from concordia_ai.ai import value
from concordia_ai.lab import loop, selfplay

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import train_value  # noqa: E402

FIT = dict(hidden=4, epochs=4, seed=3, vp_weight=1.0, vp_scale=50.0, lr=3e-3, l2=1e-4)


def positions(n: int, m: int, seed: int = 5, features: int = 6) -> dict:
    """m random positions of n seats, with random search estimates from searches of 20 iterations."""
    rng = np.random.default_rng(seed)
    return dict(x=rng.normal(0, 1, (m, n, features)).astype(np.float32), winner=rng.integers(0, n, m),
                final=rng.normal(100, 20, (m, n)).astype(np.float32), game=np.arange(m) // 10,
                search_win=rng.dirichlet(np.ones(n), m).astype(np.float32),
                search_vp=rng.normal(90, 10, (m, n)).astype(np.float32), search_iters=np.full(m, 20, np.int32))


def same(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


# ---------------------------------------------------------------- the gradient with soft targets

def test_the_gradient_with_soft_targets_matches_a_numerical_one():
    rng = np.random.default_rng(1)
    m, n, F, H = 5, 3, 4, 3
    prm = dict(w1=rng.normal(0, 0.7, (H, F)), b1=rng.normal(0, 0.3, H), w_win=rng.normal(0, 0.8, H),
               w_vp=rng.normal(0, 0.8, H), b_vp=np.array(0.4))
    xb = rng.normal(0, 1, (m, n, F))
    yb = rng.dirichlet(np.ones(n), m)          # soft targets: every row a distribution, none one-hot
    fb = rng.normal(1.5, 0.3, (m, n))
    args = (xb, yb, fb, 0.7, 0.01)
    grads = train_value.gradients(prm, *args)
    eps = 1e-6
    for k, arr in prm.items():
        numeric = np.zeros_like(arr)
        for i in np.ndindex(arr.shape):
            keep = arr[i]
            arr[i] = keep + eps
            up = train_value.loss(prm, *args)
            arr[i] = keep - eps
            down = train_value.loss(prm, *args)
            arr[i] = keep
            numeric[i] = (up - down) / (2 * eps)
        assert np.allclose(grads[k], numeric, rtol=1e-6, atol=1e-9), k


def test_the_targets_mix_the_result_and_the_renormalised_estimate_where_one_is_good_enough():
    d = dict(x=np.zeros((4, 2, 1), np.float32), winner=np.array([1, 1, 0, 1]),
             final=np.array([[40, 60]] * 4, np.float32),
             search_win=np.array([[1.6, 0.4], [1.6, 0.4], [np.nan, np.nan], [1.6, 0.4]], np.float32),
             search_vp=np.array([[70, 50], [np.nan, np.nan], [np.nan, np.nan], [70, 50]], np.float32),
             search_iters=np.array([200, 200, 0, 5], np.int32))
    y, f, took = train_value.targets(d, 0.5, search_min_iters=100)
    # position 0: both mixed (the win share 0.8/0.2 once renormalised); 1: the win share only (no VP
    # estimate); 2: no estimate; 3: an estimate from 5 iterations, under the floor of 100
    assert np.allclose(y, [[0.4, 0.6], [0.4, 0.6], [1, 0], [0, 1]])
    assert np.allclose(f, [[55, 55], [40, 60], [40, 60], [40, 60]])
    assert took == 2
    y0, f0, took0 = train_value.targets(d)
    assert np.array_equal(y0, np.eye(2, dtype=np.float32)[d["winner"]]) and f0 is d["final"] and took0 == 0


# ---------------------------------------------------------------- training

@pytest.mark.parametrize("counts", [[2], [2, 3]])
def test_a_weight_of_zero_trains_exactly_as_the_labels_alone(counts):
    with_estimates = [positions(n, 700, seed=n) for n in counts]
    labels_only = [{k: v for k, v in d.items() if not k.startswith("search_")} for d in with_estimates]
    before = train_value.fit(labels_only, **FIT)
    assert same(train_value.fit(with_estimates, **FIT, search_target=0.0), before)
    # estimates under the iteration floor count as none
    assert same(train_value.fit(with_estimates, **FIT, search_target=0.5, search_min_iters=21), before)
    assert not same(train_value.fit(with_estimates, **FIT, search_target=0.5, search_min_iters=20), before)


def known_estimates(m: int = 2000) -> dict:
    """2-player positions where seat 1 always won with 40 VP to 60, and every search said seat 0 wins 80 %
    (given unnormalised) and ends on 70 VP to 50; feature 0 tells the seats apart."""
    d = positions(2, m, seed=7)
    d["x"][:, :, 0] = [0.0, 1.0]
    d.update(winner=np.ones(m, np.int64), final=np.tile(np.float32([40, 60]), (m, 1)),
             search_win=np.tile(np.float32([1.6, 0.4]), (m, 1)), search_vp=np.tile(np.float32([70, 50]), (m, 1)))
    return d


def test_a_weight_of_one_moves_the_predictions_to_the_searches_and_the_holdout_stays_on_the_results():
    d = known_estimates()
    fit = dict(FIT, hidden=4, epochs=40, lr=0.03)
    predicted = {}
    for lam in (0.0, 0.5, 1.0):
        w = train_value.fit([d], **fit, search_target=lam)
        p, vp = value.forward_numpy(w, d["x"])
        predicted[lam] = (p[:, 0].mean(), vp.mean(axis=0))
        # held out: against the game's results (seat 1 won with 60 VP), never against the estimates
        ev = train_value.evaluate(w, d)
        assert ev["log_loss"] == pytest.approx(-np.mean(np.log(p[:, 1])), rel=1e-6)
        assert ev["vp_mae"] == pytest.approx(np.mean(np.abs(vp - [40, 60])), rel=1e-5)
    # P(seat 0 wins): the labels say 0, the searches 0.8, half of each 0.4; VP likewise
    assert predicted[0.0][0] < 0.05
    assert predicted[0.5][0] == pytest.approx(0.4, abs=0.02)
    assert predicted[1.0][0] == pytest.approx(0.8, abs=0.02)
    assert np.allclose(predicted[0.0][1], [40, 60], atol=1)
    assert np.allclose(predicted[0.5][1], [55, 55], atol=1)
    assert np.allclose(predicted[1.0][1], [70, 50], atol=1)


# ---------------------------------------------------------------- files with and without estimates

def records(games: int, search: bool, features: int = 5) -> list[dict]:
    """Finished 3-player games of 4 turn starts as lab.selfplay logs them; with `search`, with estimates
    (seat 0 at 0.5 from 200 iterations)."""
    rng = np.random.default_rng(games)
    out = []
    for g in range(games):
        rec = dict(game_id=g, board="italia", players=3, winner=g % 3, final=[90, 100, 110], turns=[0, 1, 2, 3],
                   feats=selfplay._pack(rng.normal(0, 1, (4, 3, features))))
        if search:
            rec.update(search_win=selfplay._pack(np.tile([0.5, 0.3, 0.2], (4, 1))),
                       search_vp=selfplay._pack(np.tile([95.0, 100.0, 105.0], (4, 1))), search_iters=[200] * 4)
        out.append(rec)
    return out


def save(path: Path, data: dict) -> str:
    np.savez(path, **data)
    return str(path)


def test_a_file_without_estimates_loads_as_having_none_and_trains_as_the_labels(tmp_path):
    old = selfplay.arrays(records(20, search=False))
    assert not set(selfplay.SEARCH_TARGETS) & set(old)      # the format as before: no new arrays
    d = train_value.load_data([save(tmp_path / "old.npz", old)])[3]
    assert d["search_win"].shape == d["search_vp"].shape == (80, 3)
    assert np.isnan(d["search_win"]).all() and np.isnan(d["search_vp"]).all() and (d["search_iters"] == 0).all()
    assert same(train_value.fit([d], **FIT, search_target=1.0), train_value.fit([d], **FIT))


def test_records_with_and_without_estimates_make_one_file(tmp_path):
    new, old = records(2, search=True), records(3, search=False)
    mixed = selfplay.arrays(new + old[2:])      # a resumed log: a game logged before the estimates were
    assert (mixed["pos_search_iters"] == [200] * 8 + [0] * 4).all()
    assert np.allclose(mixed["row_search_win"][:24].reshape(8, 3), [0.5, 0.3, 0.2])
    assert np.isnan(mixed["row_search_win"][24:]).all() and np.isnan(mixed["row_search_vp"][24:]).all()
    # the loop merges chunks made before and after: the old one's positions have no estimate
    paths = [save(tmp_path / "new.npz", selfplay.arrays(new)), save(tmp_path / "old.npz", selfplay.arrays(old))]
    loop.merge_value_files(paths, tmp_path / "merged.npz")
    with np.load(tmp_path / "merged.npz") as z:
        assert (z["pos_search_iters"] == [200] * 8 + [0] * 12).all() and len(z["row_search_vp"]) == 60
        assert np.isnan(z["row_search_vp"][24:]).all() and (z["row_search_vp"][:3] == [95, 100, 105]).all()


def test_the_command_records_the_weight_and_floor_and_refuses_a_bad_weight(tmp_path, monkeypatch):
    data = save(tmp_path / "d.npz", selfplay.arrays(records(30, search=True, features=core.VALUE_FEATURES)))
    report = tmp_path / "report.json"
    monkeypatch.setattr(value, "DATA_DIR", tmp_path / "installed")
    monkeypatch.setattr(value, "WEIGHTS", tmp_path / "installed" / "weights.npz")
    monkeypatch.setattr(value, "META", tmp_path / "installed" / "weights.json")
    monkeypatch.setattr(sys, "argv", ["train_value.py", "train", "--data", data, "--epochs", "1", "--hidden", "2",
                                      "--search-target", "0.25", "--search-min-iters", "100", "--shared",
                                      "--report", str(report), "--install"])
    train_value.main()
    took = json.loads(report.read_text())["3"]["search_targets"]
    assert took == dict(weight=0.25, min_iters=100, positions=108)      # 27 training games x 4 turn starts
    training = json.loads(value.META.read_text())["training"]
    assert training["search_target"] == 0.25 and training["search_min_iters"] == 100
    monkeypatch.setattr(sys, "argv", ["train_value.py", "train", "--data", data, "--search-target", "1.5"])
    with pytest.raises(SystemExit) as e:
        train_value.main()
    assert e.value.code == 2


# ---------------------------------------------------------------- --out and evaluate

# a set of the first feature layout (60 features, 32 hidden units, one network for 3-5 players) that stays what it
# is whatever is installed next
FIRST_LAYOUT = Path(__file__).resolve().parent.parent / "results/value-warm/weights"     # shipped since 2026-12-04


def shipped_copy(tmp_path, monkeypatch, source: Path | None = None) -> Path:
    """The shipped weights (or `source`'s) copied to tmp_path/shipped, standing in for the package's (nothing
    here may write the real package data)."""
    import shutil
    shipped = tmp_path / "shipped"
    shipped.mkdir()
    shutil.copy(source / "weights.npz" if source else value.WEIGHTS, shipped / "weights.npz")
    shutil.copy(source / "weights.json" if source else value.META, shipped / "weights.json")
    monkeypatch.setattr(value, "DATA_DIR", shipped)
    monkeypatch.setattr(value, "WEIGHTS", shipped / "weights.npz")
    monkeypatch.setattr(value, "META", shipped / "weights.json")
    return shipped


def run_main(monkeypatch, capsys, *argv) -> dict:
    monkeypatch.setattr(sys, "argv", ["train_value.py", *argv])
    train_value.main()
    return json.loads(capsys.readouterr().out)


def test_train_out_writes_a_set_read_weights_accepts_and_evaluate_gives_the_same_held_out_figures(
        tmp_path, monkeypatch, capsys):
    shipped = shipped_copy(tmp_path, monkeypatch)
    before = {p.name: p.read_bytes() for p in shipped.iterdir()}
    data = save(tmp_path / "d.npz", selfplay.arrays(records(30, search=False, features=core.VALUE_FEATURES)))
    out, report = tmp_path / "candidate", tmp_path / "train.json"
    printed = run_main(monkeypatch, capsys, "train", "--data", data, "--epochs", "1", "--hidden", "2",
                       "--report", str(report), "--out", str(out), "--keep-others")
    # the directory holds a complete checked set: 3 players trained here, the others the shipped networks
    sets = value.read_weights(out / "weights.npz", out / "weights.json")
    old = value.read_weights()
    assert sets[3]["w1"].shape == (2, core.VALUE_FEATURES)
    assert all(same(sets[n], old[n]) for n in (2, 4, 5))
    meta = json.loads((out / "weights.json").read_text())
    assert meta["player_counts"] == [2, 3, 4, 5] and sorted(meta["kept_from_before"]) == ["2", "4", "5"]
    assert meta["holdout"] == printed and "--out" in meta["command"]
    assert {p.name: p.read_bytes() for p in shipped.iterdir()} == before      # the package's are untouched
    # evaluate on the same data: the same held-out games (3 of 30) and the very same figures
    again = tmp_path / "evaluate.json"
    assert run_main(monkeypatch, capsys, "evaluate", "--data", data, "--weights", str(out),
                    "--report", str(again)) == printed
    trained, evaluated = json.loads(report.read_text()), json.loads(again.read_text())
    assert evaluated["3"]["holdout"] == trained["3"]["holdout"] and trained["3"]["holdout"]["games"] == 3
    assert trained["3"]["holdout"]["reliability"]
    # without --weights: the shipped set, on the same games
    shipped_figures = run_main(monkeypatch, capsys, "evaluate", "--data", data)["3"]
    assert shipped_figures["games"] == 3 and shipped_figures["log_loss"] != printed["3"]["log_loss"]


def test_out_and_install_are_exclusive_and_evaluate_refuses_a_missing_set(tmp_path, monkeypatch, capsys):
    shipped_copy(tmp_path, monkeypatch)
    monkeypatch.setattr(sys, "argv", ["train_value.py", "train", "--data", "d.npz", "--install", "--out",
                                      str(tmp_path / "w")])
    with pytest.raises(SystemExit) as e:
        train_value.main()
    errors = [line for line in capsys.readouterr().err.splitlines() if "error:" in line]
    assert e.value.code == 2 and errors == ["train_value.py train: error: argument --out: not allowed with "
                                            "argument --install"]
    assert not (tmp_path / "w").exists()
    monkeypatch.setattr(sys, "argv", ["train_value.py", "evaluate", "--data", "d.npz", "--weights",
                                      str(tmp_path / "none")])
    with pytest.raises(SystemExit) as e:
        train_value.main()
    assert e.value.code == 2 and capsys.readouterr().err.startswith("error: value weights: cannot read")


# ---------------------------------------------------------------- a warm start (--init)

def test_a_warm_start_begins_at_exactly_the_function_it_was_given_and_then_moves_from_it():
    """unfold undoes the export's folding for the new data's standardisation, so zero epochs from --init's
    weights give back the same network (to float32), and training from it moves it towards the data."""
    d = known_estimates()
    start = train_value.fit([positions(2, 300, seed=2)], **dict(FIT, epochs=2))
    same_again = train_value.fit([d], **dict(FIT, epochs=0), init=start)
    x = d["x"]
    p0, vp0 = value.forward_numpy(start, x)
    p1, vp1 = value.forward_numpy(same_again, x)
    assert np.allclose(p0, p1, atol=1e-5) and np.allclose(vp0, vp1, atol=1e-3)
    moved = train_value.fit([d], **dict(FIT, epochs=40, lr=0.03), init=start)
    p2, _ = value.forward_numpy(moved, x)
    assert p2[:, 1].mean() > p0[:, 1].mean() + 0.2      # every game of d was won by seat 1


def test_init_records_what_it_started_from_and_refuses_a_set_of_another_shape(tmp_path, monkeypatch, capsys):
    shipped = shipped_copy(tmp_path, monkeypatch, FIRST_LAYOUT)
    data = save(tmp_path / "d.npz", selfplay.arrays(records(30, search=False, features=core.VALUE_FEATURES)))
    out = tmp_path / "warm"
    run_main(monkeypatch, capsys, "train", "--data", data, "--epochs", "1", "--lr", "3e-4", "--init", "shipped",
             "--shared", "3", "4", "5", "--out", str(out), "--keep-others")
    init = json.loads((out / "weights.json").read_text())["training"]["init"]
    assert init["source"] == "shipped"
    assert init["sha256"] == json.loads((shipped / "weights.json").read_text())["sha256"]
    # the shipped net has 32 hidden units: a warm start of 2 is refused in one line, nothing written
    monkeypatch.setattr(sys, "argv", ["train_value.py", "train", "--data", data, "--hidden", "2", "--init",
                                      "shipped", "--out", str(tmp_path / "no")])
    with pytest.raises(SystemExit) as e:
        train_value.main()
    err = capsys.readouterr().err.strip().splitlines()
    assert e.value.code == 2 and len(err) == 1 and "--init" in err[0] and "32 hidden units" in err[0]
    assert not (tmp_path / "no").exists()


def test_a_first_layout_set_warm_starts_on_second_layout_data_as_exactly_itself(tmp_path, monkeypatch, capsys):
    """A shipped set of the first layout reads 60 features; data of the second layout has 71. --init pads the new
    features with zero weights, so zero epochs give back the shipped network's predictions; the set written
    reads 71."""
    shipped = shipped_copy(tmp_path, monkeypatch, FIRST_LAYOUT)
    assert value.metadata(shipped / "weights.json")["features"] == 60
    data = save(tmp_path / "d.npz", selfplay.arrays(records(30, search=False, features=core.VALUE_FEATURES)))
    out = tmp_path / "warm"
    run_main(monkeypatch, capsys, "train", "--data", data, "--epochs", "0", "--init", "shipped", "--shared", "3",
             "4", "5", "--out", str(out), "--keep-others")
    sets = value.read_weights(out / "weights.npz", out / "weights.json")
    assert sets[3]["w1"].shape == (32, core.VALUE_FEATURES) and sets[2]["w1"].shape == (32, 60)    # 2: kept
    assert json.loads((out / "weights.json").read_text())["features"] == core.VALUE_FEATURES
    x = train_value.load_data([data])[3]["x"]
    p_old, vp_old = value.forward_numpy(value.read_weights(shipped / "weights.npz", shipped / "weights.json")[3], x)
    p_new, vp_new = value.forward_numpy(sets[3], x)
    assert np.allclose(p_old, p_new, atol=1e-5) and np.allclose(vp_old, vp_new, atol=1e-3)


def test_data_files_of_two_feature_layouts_are_refused_in_one_line(tmp_path, monkeypatch, capsys):
    new = save(tmp_path / "new.npz", selfplay.arrays(records(10, search=False, features=core.VALUE_FEATURES)))
    old = save(tmp_path / "old.npz", selfplay.arrays(records(10, search=False, features=60)))
    monkeypatch.setattr(sys, "argv", ["train_value.py", "train", "--data", new, old, "--out", str(tmp_path / "no")])
    with pytest.raises(SystemExit) as e:
        train_value.main()
    err = capsys.readouterr().err.strip().splitlines()
    assert e.value.code == 2 and len(err) == 1 and "has 60 features a seat" in err[0] and "has 71" in err[0]
    assert not (tmp_path / "no").exists()
