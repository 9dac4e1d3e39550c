"""The search a final-result model file was fitted on (ai/outcome.py: its `search`, search_note): a hint on
another search, or after other learned weights are installed, says that its win % is not calibrated there."""
import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from concordia_ai.ai import outcome
from concordia_ai.ai.outcome import OutcomeModelError
from concordia_ai.ai.search import TABLE_SEARCH, SearchConfig
from cli_helpers import run

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import outcome_fit  # noqa: E402

HINT = SearchConfig(**TABLE_SEARCH)          # the search of hint, review and analyze
UCB_HINT = SearchConfig(focus=0.25, select="ucb", policy=0.0, c_puct_log=0.0, rollout_turns=8)   # reads no prior
                                                                                # (the hint's before)
MODEL = dict(b=[0, 0], k=[1, 0], d=[0, 0], log_sigma=[2, 0])


def _file(tmp_path, search, models=None) -> Path:
    f = tmp_path / "outcome.json"
    info = {"format": outcome.FORMAT, "models": models or [dict(MODEL, eval="net", players=3, seconds=3.0)]}
    if search is not None:
        info["search"] = search
    f.write_text(json.dumps(info))
    return f


def _other_sha(kind):
    """current_sha as if `kind` weights other than the fitted ones were installed."""
    real = outcome.current_sha

    def sha(k, directory=""):
        return "0" * 64 if k == kind else real(k, directory)
    return sha


# ---------------------------------------------------------------- the installed file

def test_the_installed_file_gives_the_hints_own_search_no_note():
    for n in (2, 3, 4, 5):
        assert outcome.search_note(HINT, n) is None
        # the budget, the threads and the seed are not part of the search the model was fitted on
        assert outcome.search_note(replace(HINT, iterations=0, seconds=10.0, jobs=4, seed=9), n) is None


def test_the_installed_file_names_the_bots_search_and_the_ucb_search():
    # the bots' default: the same PUCT and no final choice over whole turns, generation 5's weights and 4 random
    # turns (the hint keeps those of before: search.TABLE_SEARCH); its c_puct_log "auto" is the hint's 0.45 with
    # 3-5 players and a constant c_puct with 2
    note = outcome.search_note(SearchConfig(), 4)
    assert ("fitted with rollout_turns 8 and focus 0.25, this search has rollout_turns 4 and focus 0; a different "
            "value model; a different policy prior)") in note
    note = outcome.search_note(SearchConfig(), 2)
    assert ("fitted with rollout_turns 8, focus 0.25 and c_puct_log 0.45, this search has rollout_turns 4, focus 0 "
            "and c_puct_log 0;") in note
    assert note.startswith("the win % here is calibrated on another search (") and "\n" not in note
    # the UCB search the hint ran before 2026-12-04 (3rd session)
    note = outcome.search_note(replace(HINT, select="ucb", policy=0.0), 3)
    assert "fitted with policy 1 and select puct, this search has policy 0 and select ucb" in note


def test_the_installed_file_records_the_hints_search_with_the_shipped_weights():
    fitted = outcome.fitted_search()
    named = {k: v for k, v in fitted.items() if not k.endswith("_sha256") and k != "auto_eval"}
    knobs = outcome.search_knobs(HINT)
    assert named == {k: v for k, v in knobs.items() if k in named}
    # a knob added after the fit is not named; the hint has it at its default, the search there was
    later = set(knobs) - set(named)
    assert later <= {"leaf_mix", "opponents", "minimax_mix"} and all(knobs[k] == getattr(SearchConfig(), k) for k in later)
    # the weights the hint reads: the kept set of before generation 5 (TABLE_SEARCH), not the shipped ones
    assert fitted["policy_sha256"] == outcome.current_sha("policy", HINT.policy_weights) != outcome.current_sha("policy")
    assert fitted["value_sha256"] == outcome.current_sha("value", HINT.value_weights) != outcome.current_sha("value")
    assert fitted["auto_eval"] == outcome.auto_eval_record() == {"2": "net", "3": "net", "4": "net", "5": "net"}
    info = json.loads(outcome.MODELS.read_text())
    # every position searched again with the installed value model: 3-5 players in warm-log, 2 in net2p-log and
    # the first turns of the 2-player self-play references in selfplay-open-2p
    assert {log.split("/")[2] for log in info["logs"]} == {"warm-log", "net2p-log", "selfplay-open-2p", "margin-held"}


# ---------------------------------------------------------------- what the note names

def test_each_differing_knob_is_named_with_both_values(tmp_path):
    f = _file(tmp_path, outcome.search_record(UCB_HINT))
    assert outcome.search_note(UCB_HINT, 3, f) is None
    note = outcome.search_note(replace(UCB_HINT, c_puct_log=0.45, rollout_turns=4, fpu_scaled=False), 3, f)
    assert ("fitted with rollout_turns 8, c_puct_log 0 and fpu_scaled true, this search has rollout_turns 4, "
            "c_puct_log 0.45 and fpu_scaled false" in note)
    assert "select" not in note and "value model" not in note and "prior" not in note


def test_eval_counts_as_it_resolves_for_the_player_count(tmp_path):
    f = _file(tmp_path, outcome.search_record(HINT))           # fitted with eval auto: the value model with 2-5
    for n in (2, 4):
        assert outcome.search_note(replace(HINT, eval="net"), n, f) is None
    assert "eval net, this search has eval hand" in outcome.search_note(replace(HINT, eval="hand"), 2, f)


def test_a_file_from_before_auto_named_its_meaning_reads_auto_as_it_meant_then(tmp_path):
    # until 2026-12-04 (8th session) eval auto was the hand formula with 2 players; such a file has no auto_eval
    older = _file(tmp_path, {k: v for k, v in outcome.search_record(HINT).items() if k != "auto_eval"})
    assert outcome.recorded_eval(outcome.fitted_search(older), 2) == "hand"
    assert outcome.recorded_eval(outcome.fitted_search(older), 3) == "net"
    assert "eval hand, this search has eval net" in outcome.search_note(HINT, 2, older)
    assert outcome.search_note(replace(HINT, eval="hand"), 2, older) is None
    assert outcome.search_note(HINT, 3, older) is None


def test_c_puct_log_counts_as_it_resolves_for_the_player_count(tmp_path):
    f = _file(tmp_path, outcome.search_record(replace(HINT, c_puct_log="auto")))      # fitted with "auto"
    assert outcome.search_note(HINT, 4, f) is None                   # auto is 0.45 with 3-5 players
    assert "c_puct_log 0, this search has c_puct_log 0.45" in outcome.search_note(HINT, 2, f)
    # a file from before the knob's default became "auto" was fitted at its default then, a constant c_puct
    older = _file(tmp_path, {k: v for k, v in outcome.search_record(HINT).items() if k != "c_puct_log"})
    assert "c_puct_log 0, this search has c_puct_log 0.45" in outcome.search_note(HINT, 3, older)
    assert outcome.search_note(replace(HINT, c_puct_log="auto"), 2, older) is None


def test_a_knob_the_file_does_not_name_counts_at_its_default(tmp_path):
    older = {k: v for k, v in outcome.search_record(HINT).items() if k != "prior_temp"}
    f = _file(tmp_path, older)
    assert outcome.search_note(HINT, 3, f) is None
    assert "prior_temp 1, this search has prior_temp 2" in outcome.search_note(replace(HINT, prior_temp=2.0), 3, f)


def test_another_value_model_is_named_only_where_the_search_evaluates_with_it(tmp_path, monkeypatch):
    f = _file(tmp_path, outcome.search_record(HINT))
    monkeypatch.setattr(outcome, "current_sha", _other_sha("value"))
    for n in (2, 3, 4, 5):                                                  # auto: the value model
        note = outcome.search_note(HINT, n, f)
        assert note == ("the win % here is calibrated on another search (a different value model), so its "
                        "calibration on this search is not measured")
    (tmp_path / "hand").mkdir()
    hand = _file(tmp_path / "hand", outcome.search_record(replace(HINT, eval="hand")))
    assert outcome.search_note(replace(HINT, eval="hand"), 2, hand) is None     # no value model enters
    assert outcome.search_note(replace(HINT, eval="hand"), 4, f) == (
        "the win % here is calibrated on another search (the final-result model was fitted with eval net, this "
        "search has eval hand), so its calibration on this search is not measured")


def test_another_prior_is_named_only_when_the_search_reads_one(tmp_path, monkeypatch):
    puct = replace(UCB_HINT, select="puct", policy=1.0)
    with_prior = _file(tmp_path, outcome.search_record(puct))
    assert outcome.fitted_search(with_prior)["policy_sha256"] == outcome.current_sha("policy")
    assert outcome.search_note(puct, 3, with_prior) is None
    monkeypatch.setattr(outcome, "current_sha", _other_sha("policy"))
    assert "(a different policy prior)" in outcome.search_note(puct, 3, with_prior)
    assert "(a different policy prior)" in outcome.search_note(puct, 2, with_prior)     # every evaluation
    without = _file(tmp_path, outcome.search_record(UCB_HINT))
    assert outcome.fitted_search(without)["policy_sha256"] is None
    assert outcome.search_note(UCB_HINT, 3, without) is None      # neither reads a prior
    note = outcome.search_note(puct, 3, without)                  # the knobs say it; no sha to compare
    assert "policy 0 and select ucb, this search has policy 1 and select puct" in note and "prior)" not in note


def test_a_file_without_its_search_gives_no_note(tmp_path):
    f = _file(tmp_path, None)
    assert outcome.fitted_search(f) is None
    assert outcome.search_note(SearchConfig(select="puct", c_puct_log=3.0), 3, f) is None
    assert outcome.load(f)[0].players == 3
    assert outcome.fitted_search(tmp_path / "missing.json") is None


def test_a_search_that_is_not_an_object_is_refused(tmp_path):
    with pytest.raises(OutcomeModelError, match="`search` that is not an object"):
        outcome.load(_file(tmp_path, ["ucb"]))


# ---------------------------------------------------------------- where a player reads it: once in each

@pytest.fixture
def fitted_elsewhere(tmp_path, monkeypatch):
    """A model file fitted on the hint's search but with a constant c_puct (the bots'), at the budgets of these
    tests."""
    f = _file(tmp_path, dict(outcome.search_record(HINT), c_puct_log=0.0),
              [dict(MODEL, eval="net", players=3, seconds=0.05)])
    monkeypatch.setattr(outcome, "MODELS", f)
    return "fitted with c_puct_log 0, this search has c_puct_log 0.45"


def test_the_note_reaches_the_hint_its_json_analyze_and_the_board_once(tmp_path, fitted_elsewhere):
    from test_web_api import client, new, wait
    c = client(tmp_path)
    new(c)                                      # tmp_path/g.json: 3 players, the value model
    f = tmp_path / "g.json"
    text = run("hint", f, "--iterations", 2000, "--top", 1).stdout
    assert sum(fitted_elsewhere in line for line in text.splitlines() if line.startswith("note: ")) == 1
    assert text.count(fitted_elsewhere) == 1
    data = json.loads(run("hint", f, "--iterations", 2000, "--top", 1, "--json", "-q").stdout)
    assert sum(fitted_elsewhere in w for w in data["warnings"]) == 1
    done = wait(c, c.post("/api/hint", json={"iterations": 2000, "top": 1}).json())
    assert sum(fitted_elsewhere in w for w in done["result"]["warnings"]) == 1
    query = {"id": "a", "file": str(f), "iterations": 20000, "reportEvery": 0.05, "lines": 1}
    answers = _analyze(query)
    assert len(answers) >= 2 and answers[-1]["isDuringSearch"] is False
    for a in answers:                           # the partial reports too
        assert sum(fitted_elsewhere in n for n in a["notes"]) == 1
    query = dict(query, id="b", config={"c_puct_log": 0.0})        # the search the file was fitted on
    assert _analyze(query)[-1]["notes"] == []


def _analyze(query: dict) -> list[dict]:
    from click.testing import CliRunner
    from concordia_ai.cli import main
    done = CliRunner().invoke(main, ["analyze"], input=json.dumps(query) + "\n")
    assert done.exit_code == 0 and done.stderr == "", (done.stdout, done.stderr)
    return [json.loads(line) for line in done.stdout.splitlines()]


# ---------------------------------------------------------------- outcome_fit.py: the search it writes

def _record(rows=1, players=3, **extra):
    return dict(players=players, game=0, rows=[{}] * rows, **extra)


def test_search_of_records_with_their_config():
    puct = outcome.search_record(replace(HINT, select="puct", policy=1.0))
    assert outcome_fit.search_of([_record(config=puct), _record(config=puct)]) == puct


def test_search_of_records_without_config_is_their_knobs_over_the_hints_search_then():
    legacy = outcome.search_record(SearchConfig(focus=0.25, select="ucb", policy=0.0))
    assert outcome_fit.search_of([_record(), _record()]) == legacy
    assert outcome_fit.search_of([_record(search={})]) == legacy
    knobs = dict(select="puct", policy=1.0, c_puct=0.25)
    puct = outcome_fit.search_of([_record(search=knobs)])
    assert puct == outcome.search_record(SearchConfig(focus=0.25, **knobs))
    assert puct["policy_sha256"] == outcome.current_sha("policy")
    # a record with its config and one without agree when they are one search
    assert outcome_fit.search_of([_record(), _record(config=legacy)]) == legacy


def test_search_of_takes_a_knob_added_after_a_record_at_the_value_it_had_then():
    # records of one search made before leaf_mix and opponents existed, and after (at their defaults), are one
    # search; the fit records every knob of today's SearchConfig
    today = outcome.search_record(replace(HINT, select="puct", policy=1.0))
    before = {k: v for k, v in today.items() if k not in ("leaf_mix", "opponents")}
    assert outcome_fit.search_of([_record(config=before), _record(config=today)]) == today
    assert outcome.complete_record(before) == today
    # a knob whose default moved counts at the old one when not named (c_puct_log: 0 before "auto")
    older = {k: v for k, v in before.items() if k != "c_puct_log"}
    assert outcome.complete_record(older)["c_puct_log"] == 0.0
    # a record made after, with another value, is another search
    with pytest.raises(outcome_fit.MixedSearchError, match="differ in opponents"):
        outcome_fit.search_of([_record(config=before), _record(config=dict(today, opponents="random"))])


def test_search_of_refuses_records_of_different_searches_in_one_line():
    legacy = outcome.search_record(SearchConfig(**outcome_fit.LEGACY))
    with pytest.raises(outcome_fit.MixedSearchError) as e:
        outcome_fit.search_of([_record(), _record(search=dict(select="puct"))])
    assert "2 different searches (they differ in select)" in str(e.value) and "\n" not in str(e.value)
    with pytest.raises(outcome_fit.MixedSearchError, match="differ in value_sha256"):
        outcome_fit.search_of([_record(), _record(config=dict(legacy, value_sha256="0" * 64))])
    # a truncated game holds no position: its search does not count
    assert outcome_fit.search_of([_record(), _record(rows=0, search=dict(select="puct"))]) == legacy
    with pytest.raises(outcome_fit.MixedSearchError, match="no positions"):
        outcome_fit.search_of([])


def test_write_refuses_logs_of_different_searches_before_fitting(tmp_path):
    lines = (ROOT / "results" / "outcome" / "positions-2p.jsonl").read_text().splitlines(keepends=True)
    (tmp_path / "a.jsonl").write_text("".join(lines[:2]))
    puct = json.loads(lines[2])
    puct["search"] = {"select": "puct"}
    (tmp_path / "b.jsonl").write_text(json.dumps(puct) + "\n")
    # one pattern for both, or one pattern each (the 2-player logs of one folder, the others of another)
    for logs in ([str(tmp_path / "*.jsonl")], [str(tmp_path / "a.*"), str(tmp_path / "b.*")]):
        done = subprocess.run([sys.executable, str(ROOT / "scripts" / "outcome_fit.py"), "--logs", *logs,
                               "--write", str(tmp_path / "out.json")], capture_output=True, text=True, timeout=120)
        assert done.returncode == 2 and not (tmp_path / "out.json").exists()
        assert done.stderr.strip().splitlines() == [
            "error: --write: the logs hold positions of 2 different searches (they differ in select); a model "
            "file is fitted on one search: fit each one's logs apart"]


def test_hand_formula_records_of_different_value_models_are_one_search():
    """A record whose search evaluates with the hand formula (eval hand, or a 2-player record of eval auto made
    before auto meant the value model there) takes nothing from the value model: its sha256 does not count.
    Between records that used the model, another sha256 is another search, as before."""
    hand = outcome.search_record(replace(HINT, select="puct", policy=1.0, eval="hand"))
    two = dict(players=2, game=0, rows=[{}], config=hand)
    three = dict(players=3, game=0, rows=[{}], config=dict(hand, value_sha256="1" * 64))
    assert outcome_fit.search_of([two, three]) == dict(hand, value_sha256=None) == outcome_fit.search_of([three, two])
    net = outcome.search_record(replace(HINT, select="puct", policy=1.0))
    with pytest.raises(outcome_fit.MixedSearchError, match=r"differ in value_sha256\)"):
        outcome_fit.search_of([dict(three, config=net), dict(three, players=4, config=dict(net, value_sha256="1" * 64))])


def test_2_player_records_are_one_search_with_the_others_as_their_evaluation_resolved():
    """Eval auto meant the hand formula with 2 players until 2026-12-04 (8th session) and the value model since:
    a 2-player record of auto made before (no auto_eval) is the hand formula's and does not fit with records of
    the value model; one searched with eval=net, or with auto since, does, and the search written is auto."""
    today = outcome.search_record(HINT)
    before = {k: v for k, v in today.items() if k != "auto_eval"}
    three = dict(players=3, game=0, rows=[{}], config=before)       # 3-5 players: auto was net then too
    assert outcome_fit.search_of([three, dict(three, players=2, config=today)]) == today
    assert outcome_fit.search_of([three, dict(three, players=2, config=dict(before, eval="net"))]) == today
    with pytest.raises(outcome_fit.MixedSearchError, match=r"differ in eval\)"):
        outcome_fit.search_of([three, dict(three, players=2, config=before)])
    hand = outcome_fit.search_of([dict(three, players=2, config=before)])      # on its own: the hand formula's
    assert hand["eval"] == "hand" and outcome.recorded_eval(hand, 2) == "hand"
