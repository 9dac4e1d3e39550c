"""scripts/stability_replay.py: other final picks replayed on recorded searches (stability.py --record)."""
import json
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import stability_replay  # noqa: E402


def turn(moves, win, se, visits, focus, advantage, chosen=False):
    return dict(moves=moves, win=win, win_se=se, vp=100.0, visits=visits, focus=focus, candidate=True,
                chosen=chosen, advantage=advantage)


def row(position, searches):
    return dict(position=position, turns={"3.0": searches})


# Position 0: two finalists 0.8 points apart with a shown error of 0.2 each. Under today's rule (tied only
# within max(0.005, 2 SE of the difference) = 0.57 points) each seed picks its own higher one; with 3 SE
# (0.85 points) they tie, and the tie rule's key (the end position, advantage) picks turn [2] every time.
SEARCHES_0 = [
    [turn([1], 0.508, 0.002, 4000, 3, 1.0, chosen=True), turn([2], 0.500, 0.002, 4000, 3, 2.0)],
    [turn([1], 0.500, 0.002, 4000, 3, 1.0), turn([2], 0.508, 0.002, 4000, 3, 2.0, chosen=True)],
]
# Position 1: one clear best turn, picked by both seeds under any rule tried.
SEARCHES_1 = [
    [turn([5], 0.70, 0.002, 6000, 3, 0.0, chosen=True), turn([6], 0.60, 0.002, 2000, 3, 9.0)],
    [turn([5], 0.71, 0.002, 6000, 3, 0.0, chosen=True), turn([6], 0.61, 0.002, 2000, 3, 9.0)],
]
ROWS = [row(0, SEARCHES_0), row(1, SEARCHES_1)]
TODAY = dict(TIE_WIN=0.005, TIE_Z=2.0, TIE_VISITS=0.25, TIE_ROUNDS=99)


def test_today_s_rule_reproduces_the_recorded_picks(monkeypatch):
    from concordia_ai.ai import search
    monkeypatch.setattr(search, "TIE_Z", 2.0)       # the rule these searches were recorded under
    monkeypatch.setattr(search, "TIE_WIN", 0.005)
    monkeypatch.setattr(search, "TIE_VISITS", 0.25)
    assert stability_replay.reproduced(ROWS, "3.0") == "4 of 4"
    monkeypatch.setattr(search, "TIE_Z", 3.0)       # a rule that ties position 0 picks turn [2] in its first seed
    assert stability_replay.reproduced(ROWS, "3.0") == "3 of 4"


def test_a_wider_tie_margin_makes_position_0_stable_at_a_pooled_cost_of_zero():
    today = stability_replay.replay(ROWS, "3.0", TODAY)
    assert (today["stable"], today["regret"]) == (1, 0.0)
    wide = stability_replay.replay(ROWS, "3.0", dict(TODAY, TIE_Z=3.0))
    # both picks are turn [2]: pooled 0.504 like turn [1] (equal visits), so no regret
    assert (wide["stable"], wide["regret"]) == (2, 0.0)


def test_regret_counts_a_pick_below_the_pooled_best():
    # a tie margin of 15 points also ties position 1's clear best with turn [6], whose end position is better
    loose = stability_replay.replay(ROWS, "3.0", dict(TODAY, TIE_WIN=0.15))
    assert loose["stable"] == 2
    # position 1's pooled figures: [5] 0.705, [6] 0.605: both its picks lose 0.1; position 0's lose nothing
    assert abs(loose["regret"] - 0.05) < 1e-9 and abs(loose["regret_max"] - 0.1) < 1e-9


def test_the_spread_between_seeds_is_read_against_the_shown_error():
    searches = [[turn([1], w, 0.01, 2000, 3, 0.0)] for w in (0.50, 0.52, 0.54)]
    r = stability_replay.se_ratio([row(0, searches)], "3.0")
    assert r["turns"] == 1 and r["median"] == 2.0     # sd 0.02 over a shown 0.01


def test_between_takes_out_the_part_of_the_error_the_sweep_s_model_already_held():
    """Three seeds' win shares 0.50 / 0.52 / 0.54 (spread sd 0.02) with a shown error of 0.01 and a slope of
    0.01 per VP. Shown, the error held nothing beyond sampling: the median ratio 2 needs tau^2 = (0.02^2 -
    0.01^2) / 0.01^2 = 3, tau = 1.732 VP. If the sweep's model had between_sd 0.5 VP in it, its sampling part
    is 0.01^2 - (0.01 * 0.5)^2 = 0.000075 and tau^2 = (0.0004 - 0.000075) / 0.0001 = 3.25, tau = 1.803 VP."""
    searches = [[dict(turn([1], w, 0.01, 2000, 3, 0.0), slope=0.01)] for w in (0.50, 0.52, 0.54)]
    rows = [dict(row(0, searches), players=3)]
    plain = stability_replay.between(rows, "3.0")
    assert abs(plain["3"]["tau_vp"] - 1.732) < 2e-3
    held = stability_replay.between(rows, "3.0", {3: 0.5})
    assert abs(held["3"]["tau_vp"] - 1.803) < 2e-3


def run_main(argv: list[str]) -> int | None:
    """stability_replay.main() on these arguments: its exit code (None when it returned)."""
    saved = sys.argv
    sys.argv = ["stability_replay.py", *argv]
    try:
        stability_replay.main()
    except SystemExit as e:
        return e.code
    finally:
        sys.argv = saved
    return None


def test_the_script_refuses_a_log_without_recorded_turns(tmp_path, capsys):
    log = tmp_path / "plain.jsonl"
    log.write_text(json.dumps(dict(position=0, budgets={})) + "\n")
    assert run_main(["--log", str(log)]) == 2
    assert "no recorded turns" in capsys.readouterr().err


def test_between_pools_sweeps_each_with_the_part_its_own_model_held():
    """Two sweeps of the same turn, each with the spread and shown error of the test above; the first ran
    with a model holding between_sd 0.5 VP, the second with none. Pooled, each row's own part comes out:
    the median of the two ratios (at tau^2 = 3.25 and 3 apart) brings tau between 1.732 and 1.803."""
    searches = [[dict(turn([1], w, 0.01, 2000, 3, 0.0), slope=0.01)] for w in (0.50, 0.52, 0.54)]
    held = dict(row(0, searches), players=3, included={3: 0.5})
    plain = dict(row(0, searches), players=3, included={})
    assert abs(stability_replay.between([held], "3.0")["3"]["tau_vp"] - 1.803) < 2e-3
    assert abs(stability_replay.between([plain], "3.0", {3: 0.5})["3"]["tau_vp"] - 1.732) < 2e-3  # its own: none
    pooled = stability_replay.between([held, plain], "3.0")["3"]
    assert pooled["turns"] == 2 and 1.732 + 1e-3 < pooled["tau_vp"] < 1.803 - 1e-3


def test_the_script_pools_logs_and_wants_one_model_file_per_log(tmp_path, capsys):
    searches = [[dict(turn([1], w, 0.01, 2000, 3, 0.0, chosen=True), slope=0.01)] for w in (0.50, 0.52, 0.54)]
    logs = []
    for k in (0, 1):
        logs.append(tmp_path / f"s{k}.jsonl")
        logs[-1].write_text(json.dumps(dict(row(0, searches), players=3)) + "\n")
    out = tmp_path / "out.json"
    assert run_main(["--log", str(logs[0]), "--log", str(logs[1]), "--tie-win", "0.005", "--tie-z", "2",
                     "--tie-visits", "0.25", "--tie-rounds", "99", "--out", str(out)]) is None
    r = json.loads(out.read_text())
    assert r["between"]["3"]["turns"] == 2 and [x["positions"] for x in r["between_logs"]] == [1, 1]
    assert run_main(["--log", str(logs[0]), "--log", str(logs[1]), "--sweep-models", "a.json",
                     "--sweep-models", "b.json", "--sweep-models", "c.json"]) == 2
    assert "3 files for 2 logs" in capsys.readouterr().err


def test_between_names_the_model_form_each_count_was_measured_through():
    """tau is fitted through the recorded slopes of the form the sweep ran with (w or the margin alone), so
    the answer says which: one form for every pooled sweep, `mixed` when they differ, `unknown` without the
    model files."""
    from concordia_ai.ai import outcome
    with_w = outcome.Model("net", 3, 3.0, w=(-5.0, 30.0))
    plain = outcome.Model("net", 3, 3.0)
    assert stability_replay.model_form(with_w) == "win values"
    assert stability_replay.model_form(plain) == "margin"
    out = stability_replay.with_forms({"3": {}, "4": {}, "5": {}, "note": {}},
                                      {3: {"win values"}, 4: {"win values", "margin"}})
    assert out["3"]["form"] == "win values" and out["4"]["form"] == "mixed" and out["5"]["form"] == "unknown"
    assert "form" not in out["note"]


def test_a_count_is_pooled_only_over_sweeps_that_evaluated_it_alike(tmp_path):
    """2-player searches evaluated with the hand formula until 2026-12-04 (eval auto) and with the value model
    since: their seed-to-seed spreads are two searches'. Pooled with a newer sweep first, the older sweep's
    2-player rows are left out, its 3-player rows kept."""
    from concordia_ai.ai import outcome
    from concordia_ai.ai.search import TABLE_SEARCH, SearchConfig
    searches = [[dict(turn([1], w, 0.01, 2000, 3, 0.0, chosen=True), slope=0.01)] for w in (0.50, 0.52, 0.54)]
    record = outcome.search_record(SearchConfig(**TABLE_SEARCH))
    models = [dict(b=[0, 0], k=[1, 0], d=[0, 0], log_sigma=[2, 0], eval=e, players=n, seconds=3.0)
              for e, n in (("net", 2), ("hand", 2), ("net", 3))]
    files, logs = [], []
    for k, search in enumerate((record, {x: v for x, v in record.items() if x != "auto_eval"})):  # new, old
        files.append(tmp_path / f"m{k}.json")
        files[-1].write_text(json.dumps({"format": outcome.FORMAT, "search": search, "models": models}))
        logs.append(tmp_path / f"s{k}.jsonl")
        logs[-1].write_text("".join(json.dumps(dict(row(p, searches), players=n)) + "\n"
                                    for p, n in ((0, 2), (1, 3))))
    out = tmp_path / "out.json"
    args = ["--tie-win", "0.005", "--tie-z", "2", "--tie-visits", "0.25", "--tie-rounds", "99", "--out", str(out)]
    assert run_main(["--log", str(logs[0]), "--log", str(logs[1]), "--sweep-models", str(files[0]),
                     "--sweep-models", str(files[1]), *args]) is None
    r = json.loads(out.read_text())
    assert r["between"]["2"]["turns"] == 1 and r["between"]["3"]["turns"] == 2
    assert [x["evals"] for x in r["between_logs"]] == [{"2": "net", "3": "net"}, {"2": "hand", "3": "net"}]
    assert [x["left_out"] for x in r["between_logs"]] == [[], [2]]


def test_between_is_per_search_when_each_hint_merged_several():
    """A hint of k threads pools k searches and shows between_sd^2 / k (outcome.predict_stats): the same spread
    read on a sweep of 2-thread hints is a per-search tau sqrt(2) times larger, and the part the sweep's model
    held is taken out as it was shown, divided by k."""
    searches = [[dict(turn([1], w, 0.01, 2000, 3, 0.0), slope=0.01)] for w in (0.50, 0.52, 0.54)]
    one = dict(row(0, searches), players=3, included={}, bot="ismcts:focus=0.25")
    two = dict(one, bot="ismcts:focus=0.25,jobs=2")
    tau_one = stability_replay.between([one], "3.0")["3"]["tau_vp"]
    assert abs(tau_one - 1.732) < 2e-3
    assert abs(stability_replay.between([two], "3.0")["3"]["tau_vp"] - 1.732 * math.sqrt(2)) < 3e-3
    # the sweep's model held between_sd 0.5 VP, shown as 0.5^2 / 2 in each 2-thread hint
    held = stability_replay.between([dict(two, included={3: 0.5})], "3.0")["3"]["tau_vp"]
    assert abs(held - math.sqrt(2 * (3.0 + 0.25 / 2))) < 3e-3
    assert stability_replay.searches_of({}) == 1 and stability_replay.searches_of({"bot": "ismcts:jobs=4"}) == 4


def test_a_sweep_replays_under_another_tie_key_made_on_its_own_positions():
    """--tie-key net: each recorded turn's key is made again on the sweep's position (stability.position) by the
    value model, as search.end_advantage gives it; --between puts another between_sd into the shown errors."""
    from stability import position
    from concordia_ai.ai.search import end_advantage
    game = position(0)
    moves = [[m] for m in game.legal_moves()[:2]]
    recs = [dict(turn(m, 0.5, 0.01, 2000, 3, 123.0), slope=0.01) for m in moves]
    rows = [dict(row(0, [recs]), players=game.n_players, included={game.n_players: 1.0}, bot="ismcts:jobs=2")]
    again = stability_replay.rekeyed(rows, "3.0", "net")[0]["turns"]["3.0"][0]
    assert [r["advantage"] for r in again] == [end_advantage(game, m, "net") for m in moves]
    assert all(0 <= r["advantage"] <= 1 and r["advantage_eval"] == "net" for r in again)
    wider = stability_replay.with_between(rows, "3.0", {game.n_players: 3.0})[0]["turns"]["3.0"][0][0]
    assert abs(wider["win_se"] - math.sqrt(0.01 ** 2 - (0.01 * 1.0) ** 2 / 2 + (0.01 * 3.0) ** 2 / 2)) < 1e-12


def test_a_between_file_that_is_not_a_replay_answer_is_refused_in_one_line(tmp_path, capsys):
    searches = [[dict(turn([1], w, 0.01, 2000, 3, 0.0, chosen=True), slope=0.01)] for w in (0.50, 0.52, 0.54)]
    log = tmp_path / "s.jsonl"
    log.write_text(json.dumps(dict(row(0, searches), players=3)) + "\n")
    bad = tmp_path / "b.json"
    bad.write_text('{"between": 3}')
    assert run_main(["--log", str(log), "--between", str(bad)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"error: --between: {bad}: not a stability_replay.py answer")
    assert run_main(["--log", str(log), "--between", str(tmp_path / "missing.json")]) == 2
