"""The final-result model's scripts on the committed positions (results/outcome/): the fit replays the hint's
pick exactly as the search made it, and every list recorded follows the ranking rule."""
import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from concordia_ai.ai import outcome

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
LOG = ROOT / "results" / "outcome" / "positions-2p.jsonl"

import outcome_data  # noqa: E402
import outcome_fit  # noqa: E402


@pytest.fixture(scope="module")
def positions(tmp_path_factory):
    # a copy of the first 12 games: the reader may repair a torn last line, never in the committed log
    copy = tmp_path_factory.mktemp("outcome") / "p.jsonl"
    copy.write_text("".join(LOG.read_text().splitlines(keepends=True)[:12]))
    return outcome_fit.positions([str(copy)])


def test_the_replayed_pick_is_the_recorded_one_under_the_model_it_was_made_with(positions, monkeypatch):
    # the chunk ran before any model was fitted: the search halved and picked under the default model, with
    # the tie rule among the finalists only (search.TIE_ROUNDS 1 then) at 2 standard errors (TIE_Z 2 then), with
    # a floor of 0.5 points (TIE_WIN 0.005 then)
    from concordia_ai.ai import search
    monkeypatch.setattr(search, "TIE_ROUNDS", 1)
    monkeypatch.setattr(search, "TIE_Z", 2.0)
    monkeypatch.setattr(search, "TIE_WIN", 0.005)
    default = outcome.Model("hand", 2, 3.0, fitted=False)
    assert len(positions) == 48
    for p in positions:
        for budget in p["searches"]:
            replayed = outcome_fit.chosen_turn(p, budget, default)
            assert replayed["moves"] == outcome_fit.chosen_turn(p, budget, None)["moves"]


def test_the_recorded_figure_is_the_model_on_the_recorded_statistics(positions):
    default = outcome.Model("hand", 2, 3.0, fitted=False)
    for p in positions:
        t = outcome_fit.chosen_turn(p, "3.0", None)
        out, _ = outcome.predict_stats(outcome_fit._stats(t), p["decider"], p["h"], default)
        assert out.win == pytest.approx(t["shown"], abs=2e-5)


def test_a_fit_on_them_is_a_distribution_that_widens_towards_the_opening(positions):
    m = outcome_fit.fit_setting(positions, 2, "3.0", "hand")
    _, k_end, _, sigma_end = m.at(0.0)
    _, k_open, _, sigma_open = m.at(1.0)
    assert k_end > 0 and k_open > 0 and sigma_open > sigma_end > outcome.MIN_SIGMA


# ---------------------------------------------------------------- outcome_data.py: --search and --from

def _outcome_data(*args):
    import subprocess
    return subprocess.run([sys.executable, str(ROOT / "scripts" / "outcome_data.py"), *args],
                          capture_output=True, text=True, timeout=300)


def test_positions_are_kept_and_searched_again_under_other_knobs(tmp_path):
    import json
    first, again = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    done = _outcome_data("--players", "2", "--games", "1", "--per-game", "2", "--budgets", "0.01", "--seed", "5",
                         "--log", str(first))
    assert done.returncode == 0, done.stderr
    rec = json.loads(first.read_text())
    assert rec["search"] == {} and len(rec["rows"]) == 2
    # the full search it used (the budget and the seed aside), with the learned weights': what a fit records
    from concordia_ai.ai.search import TABLE_SEARCH, SearchConfig
    assert rec["config"] == outcome.search_record(SearchConfig(**TABLE_SEARCH))
    assert outcome_fit.search_of([rec]) == rec["config"]
    # as if the log had been made under another value model: its figures at 0 s are not the installed model's
    stale = tmp_path / "stale.jsonl"
    stale.write_text(json.dumps(dict(rec, rows=[dict(r, mu_net=[0.0] * 2, q_net=[0.5] * 2) for r in rec["rows"]]))
                     + "\n")
    done = _outcome_data("--players", "2", "--budgets", "0.01,0.02", "--search", "select=puct,c_puct=0.5",
                         "--from", str(stale), "--log", str(again))
    assert done.returncode == 0, done.stderr
    new = json.loads(again.read_text())
    assert new["search"] == {"select": "puct", "c_puct": 0.5} and new["budgets"] == [0.01, 0.02]
    assert new["config"] == outcome.search_record(SearchConfig(**{**TABLE_SEARCH, "select": "puct", "c_puct": 0.5}))
    # the same game and positions (the real result is the game's), only the searches are new
    assert (new["final"], new["winner"]) == (rec["final"], rec["winner"])
    for old_row, row in zip(rec["rows"], new["rows"]):
        assert (row["turn"], row["position"], row["h"]) == (old_row["turn"], old_row["position"], old_row["h"])
        # the position's own evaluations are made again, by the model installed now (the stale ones replaced)
        assert (row["mu_net"], row["q_net"], row["mu_hand"]) == (old_row["mu_net"], old_row["q_net"], old_row["mu_hand"])
        if not row.get("forced"):
            assert sorted(row["searches"]) == ["0.01", "0.02"]
            assert any(t["chosen"] for t in row["searches"]["0.02"]["turns"])


def test_bad_knobs_and_logs_without_positions_are_refused_in_one_line(tmp_path):
    done = _outcome_data("--players", "2", "--search", "select=sideways", "--log", str(tmp_path / "x.jsonl"))
    assert done.returncode == 2 and "--search" in done.stderr and "select" in done.stderr
    assert "Traceback" not in done.stderr
    old = tmp_path / "old.jsonl"
    old.write_text("".join(LOG.read_text().splitlines(keepends=True)[:2]))   # written before positions were kept
    done = _outcome_data("--players", "2", "--from", str(old), "--log", str(tmp_path / "y.jsonl"))
    assert done.returncode == 2 and "keep no positions" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "y.jsonl").exists()


def test_a_log_resumes_by_the_search_its_knobs_stand_for(tmp_path):
    import json
    import os
    log = tmp_path / "r.jsonl"
    base = ("--players", "2", "--games", "1", "--per-game", "1", "--budgets", "0.01", "--seed", "3", "--log", str(log))
    done = _outcome_data(*base, "--search", "rollout_turns=4")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["new"] == 1
    # the hint's weights (search.TABLE_SEARCH's, the kept set) named: the same search, nothing searched again
    for kept in (os.fspath(ROOT / "concordia_ai" / "data" / "sets" / "before-gen5" / "{}"), "before-gen5"):
        same = f"rollout_turns=4,value_weights={kept.format('value')},policy_weights={kept.format('policy')}"
        done = _outcome_data(*base, "--search", same)
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["new"] == 0 and len(log.read_text().splitlines()) == 1
    # another search (the installed weights, or other knobs) is searched anew
    data = ROOT / "concordia_ai" / "data"
    for other in (f"rollout_turns=4,value_weights={data / 'value'},policy_weights={data / 'policy'}", "rollout_turns=2"):
        done = _outcome_data(*base, "--search", other)
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["new"] == 1
    assert len(log.read_text().splitlines()) == 3
    # a record written before `config` was recorded keys by its knobs as spelled: no task takes it for its own
    old = json.loads(log.read_text().splitlines()[0])
    legacy = {k: v for k, v in old.items() if k != "config"}
    assert outcome_data.log_key(legacy) != outcome_data.log_key(old)


def test_the_openings_of_self_play_are_searched_with_how_each_game_ended(tmp_path):
    import json
    from concordia_ai.engine.game import Game
    sp = ROOT / "results" / "outcome" / "selfplay-2p-net" / "creta.jsonl"
    games = [json.loads(x) for x in sp.read_text().splitlines()[:4]]     # 2 deals, both seatings
    log = tmp_path / "sp.jsonl"
    out = tmp_path / "open.jsonl"
    # first the first deal's two seatings, then the log grows by the second deal: only its games are searched
    log.write_text("".join(json.dumps(g) + "\n" for g in games if g["seed"] == games[0]["seed"]))
    done = _outcome_data("--players", "2", "--budgets", "0.01", "--openings-of", str(log), "--log", str(out))
    assert done.returncode == 0, done.stderr
    first = out.read_text()
    assert len(first.splitlines()) == 2
    log.write_text("".join(json.dumps(g) + "\n" for g in games))
    done = _outcome_data("--players", "2", "--budgets", "0.01", "--openings-of", str(log), "--log", str(out))
    assert done.returncode == 0, done.stderr
    assert out.read_text().startswith(first) and len(out.read_text().splitlines()) == 4
    recs = sorted((json.loads(x) for x in out.read_text().splitlines()), key=lambda r: r["game"])
    # numbered by seating, board and deal (outcome_data.opening_game_id); a deal's two seatings share a parity
    assert [r["seating"] for r in recs] == sorted(g["cand_seat"] for g in games)
    assert all(r["game"] == outcome_data.opening_game_id("creta", r["seed"], r["seating"]) for r in recs)
    assert {r["game"] % 2 for r in recs if r["seed"] == games[0]["seed"]} == {games[0]["seed"] % 2}
    by_seating = sorted(games, key=lambda g: (g["cand_seat"], g["seed"]))
    recs.sort(key=lambda r: (r["seating"], r["seed"]))
    for r, g in zip(recs, by_seating):
        assert (r["seed"], r["board"], r["final"], r["winner"]) == (g["seed"], "creta", g["totals"], g["ranking"][0])
        (row,) = r["rows"]
        assert row["turn"] == 0 and row["decider"] == 0 and row["h"] == 1.0
        assert row["position"] == Game.new("creta", 2, g["seed"]).to_json()
        assert list(row["searches"]) == ["0.01"]
    # a deal past the numbering's range would share a number with another: refused in one line
    big = tmp_path / "big.jsonl"
    big.write_text(json.dumps(dict(games[0], seed=158000)) + "\n")
    done = _outcome_data("--players", "2", "--openings-of", str(big), "--log", str(tmp_path / "b.jsonl"))
    assert done.returncode == 2 and "0 to 99,999" in done.stderr and "Traceback" not in done.stderr
    # a log that is not of self-play, or of another player count, gives nothing to search: refused in one line
    done = _outcome_data("--players", "3", "--openings-of", str(log), "--log", str(tmp_path / "z.jsonl"))
    assert done.returncode == 2 and "no 3-player self-play games" in done.stderr and "Traceback" not in done.stderr


def test_worst_gap_floor_is_the_worst_of_normal_gaps():
    """Ten deciles whose gaps are normal with standard error 1: the mean of the worst |gap| is about 1.88
    (the mean maximum of ten half-normals), and it scales with the error; no decile, no floor."""
    rng = np.random.default_rng(1)
    floor = outcome_fit.worst_gap_floor([1.0] * 10, rng, draws=20000)
    assert 1.84 < floor < 1.92
    assert abs(outcome_fit.worst_gap_floor([3.0] * 10, rng, draws=20000) - 3 * floor) < 0.1
    assert math.isnan(outcome_fit.worst_gap_floor([float("nan")], rng))


def test_a_searched_setting_keeps_the_form_its_seed_spread_was_measured_through(monkeypatch):
    """The 3-player refit of 2026-12-04 dropped w by log loss while its between_sd had been measured through
    w's flatter margin slope: every turn then showed about +-9 points. The measured form now wins over the
    log loss at searched budgets; the position's own evaluation (budget 0) carries no spread and goes by
    log loss, as does a count measured through mixed forms or not at all."""
    monkeypatch.setattr(outcome_fit, "BETWEEN", {3: 1.96, 4: 0.07, 2: 0.0})
    monkeypatch.setattr(outcome_fit, "BETWEEN_FORM", {3: "win values", 4: "mixed", 2: "margin"})
    assert outcome_fit.model_form(3, "3.0", lower_with=False)[0] is True
    assert outcome_fit.model_form(3, "0", lower_with=False)[0] is False
    assert outcome_fit.model_form(4, "3.0", lower_with=False) == (False, "lower log loss")
    assert outcome_fit.model_form(2, "3.0", lower_with=True) == (True, "lower log loss")   # no spread measured
    assert outcome_fit.model_form(5, "3.0", lower_with=True) == (True, "lower log loss")


def test_a_model_file_is_measured_as_it_is_on_positions_it_was_not_fitted_on(positions, tmp_path):
    # fitted on the even games, written as --write writes it, measured on the odd ones with --held-out-with
    even = [p for p in positions if p["game"] % 2 == 0]
    odd = [p for p in positions if p["game"] % 2 == 1]
    fitted = [outcome_fit.fit_setting(even, 2, b, "hand") for b in ("0.3", "3.0", "0")]
    path = tmp_path / "models.json"
    path.write_text(json.dumps(dict(format=outcome.FORMAT, logs=["elsewhere.jsonl"],
                                    models=[m.to_dict() for m in fitted])))
    report = outcome_fit.held_out_report({2: odd}, str(path))
    assert set(report) == {"2p 0.3s", "2p 3.0s", "2p 0s", "all 0.3s", "all 3.0s", "all 0s"}
    for budget, model in zip(("0.3", "3.0", "0"), fitted):
        by_hand = outcome_fit.measure([outcome_fit.shown(p, budget, model, "hand") for p in odd])
        assert report[f"2p {budget}s"]["ece"] == by_hand["ece"]
        # (json: a decile of one game has a standard error of nan, which is not equal to itself)
        assert json.dumps(report[f"2p {budget}s"]["margin_deciles"]) == json.dumps(by_hand["margin_deciles"])
        assert report[f"2p {budget}s"]["positions"] == len(odd)
    # a setting the file has no model for is named, not measured under an unfitted default
    path.write_text(json.dumps(dict(format=outcome.FORMAT, models=[fitted[1].to_dict()])))
    with pytest.raises(outcome.OutcomeModelError, match="2 players, the position itself"):
        outcome_fit.held_out_report({2: odd}, str(path))


def test_held_out_refuses_the_logs_the_file_was_fitted_on(tmp_path):
    log = tmp_path / "p.jsonl"
    log.write_text("".join(LOG.read_text().splitlines(keepends=True)[:4]))
    fitted = tmp_path / "models.json"
    fitted.write_text(json.dumps(dict(format=outcome.FORMAT, logs=[str(log)], models=[])))
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "outcome_fit.py"), "--logs", str(log),
                        "--held-out-with", str(fitted)], capture_output=True, text=True)
    assert r.returncode == 2
    assert r.stderr.strip().count("\n") == 0 and "was fitted on" in r.stderr
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "outcome_fit.py"), "--logs", str(log),
                        "--held-out-with", str(fitted), "--write", str(tmp_path / "x.json")],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "takes no --write" in r.stderr


def test_a_games_positions_count_as_one_draw_in_the_margins_standard_error():
    # four positions of one game (one final margin) and four of another: two draws, not eight
    values = np.array([10.0, 10.0, 10.0, 10.0, -10.0, -10.0, -10.0, -10.0])
    se = outcome_fit.clustered_se(values, ["a"] * 4 + ["b"] * 4)
    # the cluster sums are +40 and -40: sqrt(2 * 1600 * 2 / 1) / 8 = 10, the standard error of two draws of +-10
    assert se == pytest.approx(10.0)
    assert se > values.std(ddof=1) / math.sqrt(len(values))      # the independent reading: 3.78
    # one position a game: the usual standard error (n / (n - 1) with the population spread)
    values = np.array([1.0, 2.0, 3.0, 6.0])
    assert outcome_fit.clustered_se(values, list("abcd")) == pytest.approx(values.std(ddof=1) / 2)
    assert math.isnan(outcome_fit.clustered_se(values, ["a"] * 4))
