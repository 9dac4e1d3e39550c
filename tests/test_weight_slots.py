"""Weight sets a search names by directory (SearchConfig.value_weights, policy_weights), held in the core's slots
beside the shipped ones (concordia_ai/ai/weight_slots.py, cext/value.pxi and policy.pxi): a search reads only its
own slot, so searches with different weights give what each gives alone, one after another or at once."""
import json
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from concordia_ai import core
from concordia_ai.ai import outcome, policy, value, weight_slots
from concordia_ai.ai.bots import BotSpecError, make_bot, parse_spec, spec_meaning
from concordia_ai.ai.search import BEFORE_GEN5, SearchConfig, search_raw
from concordia_ai.engine.game import Game
from concordia_ai.lab import prior_weights, value_weights

ROOT = Path(__file__).resolve().parent.parent
# another generation than the shipped one: the sets shipped until generation 5, kept in the package
OTHER = dict(value_weights=str(weight_slots.SETS / "before-gen5" / "value"),
             policy_weights=str(weight_slots.SETS / "before-gen5" / "policy"))


def _figures(r):
    return [[c["action"], c["visits"], c["mean"], c["win"], c["vp"]] for c in r["children"]]


def _search(game, **knobs):
    return _figures(search_raw(game, SearchConfig(iterations=800, seed=9, rollout_turns=4, **knobs)))


def test_a_named_directory_plays_as_if_it_were_installed_and_leaves_the_shipped_search_alone():
    g = Game.new("imperium", 4, 3)
    shipped_before = _search(g)
    named = _search(g, **OTHER)
    assert named != shipped_before                         # other weights, another search
    assert _search(g) == shipped_before                    # the shipped sets (slot 0) are untouched
    # the directory's sets put into slot 0 instead (as the gate did before slots) give the same search, bit for bit
    try:
        prior_weights.hold(OTHER["policy_weights"])
        value_weights.hold(OTHER["value_weights"])
        assert _search(g) == named
    finally:
        prior_weights.hold(str(policy.DATA_DIR))
        value_weights.hold(None)
    assert _search(g) == shipped_before


def test_each_kind_has_its_own_slot():
    g = Game.new("italia", 3, 2)
    both, value_only, prior_only = _search(g, **OTHER), _search(g, value_weights=OTHER["value_weights"]), \
        _search(g, policy_weights=OTHER["policy_weights"])
    assert len({json.dumps(x) for x in (both, value_only, prior_only, _search(g))}) == 4
    d = SearchConfig(**OTHER).core_dict(players=3)
    assert d["value_slot"] == weight_slots.slot_for("value", OTHER["value_weights"]) >= 1
    assert d["policy_slot"] == weight_slots.slot_for("policy", OTHER["policy_weights"]) >= 1
    assert "value_weights" not in d and "policy_weights" not in d        # the core takes slots, not paths
    # the hand formula reads no value model, a search without the prior no policy: their slots stay 0
    assert SearchConfig(eval="hand", policy=0.0, **OTHER).core_dict(players=3)[
        "value_slot"] == 0 == SearchConfig(eval="hand", policy=0.0, **OTHER).core_dict(players=3)["policy_slot"]


def test_searches_with_different_weights_at_once_in_threads_give_what_each_gives_alone():
    g = Game.new("creta", 4, 5)
    alone = {"named": _search(g, **OTHER), "shipped": _search(g)}
    got = {}

    def run(name, knobs):
        got[name] = [_search(g, **knobs) for _ in range(3)]

    threads = [threading.Thread(target=run, args=("named", OTHER)), threading.Thread(target=run, args=("shipped", {}))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got["named"] == [alone["named"]] * 3 and got["shipped"] == [alone["shipped"]] * 3


def test_a_bot_spec_names_a_generation_and_its_records_name_the_weights_it_read():
    spec = f"ismcts:iterations=200,rollout_turns=4,value_weights={OTHER['value_weights']}," \
           f"policy_weights={OTHER['policy_weights']}"
    assert parse_spec(spec)[1]["value_weights"] == OTHER["value_weights"]
    g = Game.new("aegyptus", 2, 4)
    assert make_bot(spec, seed=3).choose(g) in g.legal_moves()
    meaning = spec_meaning(spec, 2)
    sha = lambda d: json.loads((Path(d) / "weights.json").read_text())["sha256"]   # noqa: E731
    assert meaning["value_sha256"] == sha(OTHER["value_weights"]) != outcome.current_sha("value")
    assert meaning["policy_sha256"] == sha(OTHER["policy_weights"]) != outcome.current_sha("policy")
    # the hint's check names the other weights, not their path
    record = outcome.search_record(SearchConfig(**OTHER))
    assert record["value_sha256"] == meaning["value_sha256"] and "value_weights" not in record


def test_a_kept_set_is_named_by_its_name_and_plays_the_default_it_was():
    assert "before-gen5" in weight_slots.kept_sets()
    for kind in weight_slots.KINDS:
        assert weight_slots.directory_of(kind, "before-gen5") == Path(OTHER[f"{kind}_weights"])
        assert weight_slots.directory_of(kind, "results") == Path("results")      # a directory stays itself
    # the kept sets are the ones results/ names as the default of before (same sha256)
    sha = lambda d: json.loads((Path(d) / "weights.json").read_text())["sha256"]   # noqa: E731
    assert sha(OTHER["value_weights"]) == sha(ROOT / "results/value-warm/weights")
    assert sha(OTHER["policy_weights"]) == sha(ROOT / "results/loop/gen-1/weights")
    meaning = spec_meaning(BEFORE_GEN5, 4)
    assert meaning["rollout_turns"] == 8
    assert (meaning["value_sha256"], meaning["policy_sha256"]) == (sha(OTHER["value_weights"]),
                                                                   sha(OTHER["policy_weights"]))
    g = Game.new("imperium", 4, 3)
    by_name = _search(g, value_weights="before-gen5", policy_weights="before-gen5")
    assert by_name == _search(g, **OTHER) != _search(g)


def test_the_lab_holders_name_the_same_files_as_the_slots():
    # the gate and the loop hold weights in slot 0 through lab.prior_weights / value_weights: one naming for all
    for mod, kind in ((prior_weights, "policy"), (value_weights, "value")):
        for d in ("before-gen5", "results/loop/gen-5/weights"):
            assert mod.weight_files(d) == weight_slots.files_of(kind, d)
        assert mod.weight_files("before-gen5")[0] == Path(OTHER[f"{kind}_weights"]) / "weights.npz"
    assert value_weights.weight_files(None) == (value.WEIGHTS, value.META)


@pytest.mark.parametrize("bad,words", [
    ("value_weights=no/such/dir", "value_weights: no/such/dir is not a directory with weights.npz and weights.json"),
    ("policy_weights=results", "policy_weights: results is not a directory with weights.npz and weights.json"),
])
def test_a_spec_naming_an_unusable_directory_is_refused_in_one_line(bad, words):
    with pytest.raises(BotSpecError) as e:
        parse_spec(f"ismcts:iterations=10,{bad}")
    assert words in str(e.value) and "\n" not in str(e.value)
    assert str(e.value).endswith("nor a kept set (before-gen5)")


def test_a_damaged_directory_is_refused(tmp_path):
    src = Path(OTHER["value_weights"])
    for name in ("weights.npz", "weights.json"):
        (tmp_path / name).write_bytes((src / name).read_bytes())
    raw = bytearray((tmp_path / "weights.npz").read_bytes())
    raw[len(raw) // 2] ^= 0xFF
    (tmp_path / "weights.npz").write_bytes(bytes(raw))
    with pytest.raises(BotSpecError) as e:
        parse_spec(f"ismcts:value_weights={tmp_path}")
    assert str(e.value).startswith("bot ismcts: value_weights: ") and "\n" not in str(e.value)


def test_the_core_refuses_a_slot_it_does_not_have():
    state = Game.new("imperium", 3, 1).state
    d = SearchConfig(iterations=10).core_dict(players=3)
    with pytest.raises(ValueError, match=f"value_slot: {core.WEIGHT_SLOTS} is not in 0..{core.WEIGHT_SLOTS - 1}"):
        core.search_config(state, dict(d, value_slot=core.WEIGHT_SLOTS))
    with pytest.raises(ValueError, match="no value weights are loaded for 3 players in slot 3"):
        core.flat_monte_carlo(state, dict(d, value_slot=3, eval="net"))     # an empty slot: refused, never 0's


def test_one_directory_more_than_the_slots_is_refused_in_a_fresh_process():
    dirs = [str(ROOT / f"results/loop/gen-{n}/value-weights") for n in (2, 3, 4, 5)]
    code = textwrap.dedent(f"""
        from concordia_ai.ai import weight_slots
        dirs = {dirs!r}
        print([weight_slots.slot_for("value", d) for d in dirs[:3]], weight_slots.slot_for("value", dirs[0]))
        try:
            weight_slots.slot_for("value", dirs[3])
        except weight_slots.WeightSlotsError as e:
            print(e)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    lines = out.stdout.strip().splitlines()
    assert lines[0] == "[1, 2, 3] 1"
    assert lines[1].startswith(f"value_weights: {dirs[3]} would be the 4th value weights directory in this "
                               f"process; the core holds 3 besides the shipped set")


def test_a_tournament_naming_more_directories_than_slots_is_refused_before_it_starts(tmp_path):
    from concordia_ai.lab.tournament import TournamentConfig, TournamentError
    bots = {f"g{n}": f"ismcts:iterations=10,value_weights={ROOT / f'results/loop/gen-{n}/value-weights'}"
            for n in (2, 3, 4, 5)}
    with pytest.raises(TournamentError) as e:
        TournamentConfig.create(bots)
    assert str(e.value) == ("--bot: value_weights: the bots name 4 directories; at most 3 can be held beside the "
                            "shipped set in one process")
    del bots["g5"]
    assert len(TournamentConfig.create(bots).bots) == 3


def test_a_directory_is_read_once_while_its_files_stay_as_they_are(tmp_path, monkeypatch):
    # a tournament parses its specs for every game: the weights are read and checked once, again only if changed
    src = Path(OTHER["policy_weights"])
    for name in ("weights.npz", "weights.json"):
        (tmp_path / name).write_bytes((src / name).read_bytes())
    reads = []
    real = policy.read_weights
    monkeypatch.setattr(policy, "read_weights", lambda *a: reads.append(a) or real(*a))
    for _ in range(3):
        parse_spec(f"ismcts:iterations=10,policy_weights={tmp_path}")
    assert len(reads) == 1
    meta = tmp_path / "weights.json"
    meta.write_text(meta.read_text() + " ")          # the same content, another size: read again
    parse_spec(f"ismcts:iterations=10,policy_weights={tmp_path}")
    assert len(reads) == 2
