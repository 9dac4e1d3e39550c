"""One schema for the search settings: SearchConfig has the defaults and bounds, the core takes every key
and fills in nothing; eval=net loads the model where the config is resolved, and the core refuses it
without weights (issue 17, 1.3 and the flat Monte Carlo defect)."""
import json
import subprocess
import sys
import textwrap
from dataclasses import fields

import numpy as np
import pytest

from concordia_ai import core
from concordia_ai.ai import value
from concordia_ai.ai.search import SearchConfig, search
from concordia_ai.engine.game import Game

# a value for every field that differs from its default (floats exact in the core's float32)
NOT_DEFAULT = dict(iterations=123, seconds=1.5, c=1.25, final="mean", reward="rank", mix=0.25, margin_scale=12.5,
                   rollout="greedy", epsilon=0.5, rollout_turns=3, fpu=0.5, prior=True, pw_k=2.0, pw_alpha=0.75,
                   eval="hand", chance="merge", root_floor=0.5, focus=0.25, focus_turns=5, policy=0.5,
                   select="ucb", c_puct=2.5, c_puct_log=0.5, c_puct_base=100.0, fpu_reduction=0.5,
                   fpu_scaled=False, prior_temp=0.5, leaf_mix=0.25, minimax_mix=0.5, opponents="greedy",
                   seed=77)
PYTHON_ONLY = {"jobs",       # threads of independent searches, merged in Python
               "value_weights", "policy_weights"}      # directories: the core takes their slots (below)
CORE_ONLY = {"value_slot", "policy_slot"}


def _as_float32(d: dict) -> dict:
    # the core keeps most real-valued settings as C floats
    return {k: float(np.float32(v)) if isinstance(v, float) and k != "seconds" else v for k, v in d.items()}


def test_every_search_config_field_reaches_the_core():
    assert set(NOT_DEFAULT) | PYTHON_ONLY == {f.name for f in fields(SearchConfig)}
    assert set(core.SEARCH_KEYS) == set(NOT_DEFAULT) | CORE_ONLY
    state = Game.new("imperium", 3, seed=1).state
    for name, v in NOT_DEFAULT.items():
        cfg = SearchConfig(**{name: v})
        assert getattr(cfg, name) != getattr(SearchConfig(), name), name
        took = core.search_config(state, cfg.core_dict(players=3))
        assert took[name] == v, name
        assert took == _as_float32(cfg.core_dict(players=3)), name
    took = core.search_config(state, SearchConfig(**NOT_DEFAULT).core_dict(players=3))
    assert took == dict(NOT_DEFAULT, value_slot=0, policy_slot=0)     # the shipped sets (tests/test_weight_slots.py)


def test_auto_eval_is_resolved_by_the_config_for_the_player_count():
    assert SearchConfig().core_dict(players=2)["eval"] == "net"         # the hand formula until 2026-12-04
    assert SearchConfig(eval="hand").core_dict(players=2)["eval"] == "hand"
    assert SearchConfig().core_dict(players=3)["eval"] == "net"
    assert SearchConfig(rollout_turns=8).core_dict(players=4)["rollout_turns"] == 8


def _refusal(config: dict, run=core.flat_monte_carlo) -> str:
    state = Game.new("imperium", 3, seed=1).state
    with pytest.raises(ValueError) as e:
        run(state, config)
    return str(e.value)


def test_the_core_refuses_a_missing_key_an_unknown_key_and_a_wrong_value():
    whole = SearchConfig(eval="hand").core_dict(players=3)
    keys = ", ".join(core.SEARCH_KEYS)
    missing = {k: v for k, v in whole.items() if k != "rollout_turns"}
    assert _refusal(missing) == (f"search config: rollout_turns missing (the core takes every key: {keys}; "
                                 "SearchConfig.core_dict builds the dict)")
    assert _refusal({}).startswith("search config: iterations, seconds, c, final, reward, mix, margin_scale, ")
    # search also takes how many whole turns to report, and flat Monte Carlo does not
    assert _refusal(whole, core.search).startswith("search config: turns missing (the core takes every key: ")
    assert _refusal(dict(whole, turns=4)) == f"search config: unknown key 'turns' (the keys are {keys})"
    assert _refusal(dict(whole, polcy=1)) == f"search config: unknown key 'polcy' (the keys are {keys})"
    wrong = [(dict(eval="auto"), "eval: 'auto' is not one of hand, net"),
             (dict(reward="nope"), "reward: 'nope' is not one of win, rank, margin, mix"),
             (dict(rollout=None), "rollout: None is not one of random, greedy, none, policy"),
             (dict(final="best"), "final: 'best' is not one of visits, mean"),
             (dict(chance=1), "chance: 1 is not one of branch, merge"),
             (dict(prior=1), "prior: 1 is not true or false"),
             (dict(rollout_turns=2.5), "rollout_turns: 2.5 is not an integer"),
             (dict(c="0.7"), "c: '0.7' is not a number"),
             (dict(root_floor=2.0), "root_floor: 2.0 is not in 0..1"),
             (dict(iterations=0, seconds=0.0), "iterations, seconds: give a budget (iterations > 0 or seconds > 0)")]
    for change, message in wrong:
        assert _refusal(dict(whole, **change)) == message
        assert _refusal(dict(whole, **change, turns=0), core.search) == message


def test_the_core_refuses_eval_net_without_the_weights_for_the_player_count():
    config = SearchConfig(iterations=50, eval="net").core_dict(players=3)    # loads the model
    assert core.value_ready(3)
    state = Game.new("imperium", 3, seed=1).state
    core.value_clear()
    try:
        message = ("eval: net, but no value weights are loaded for 3 players in slot 0 (concordia_ai.ai.value."
                   "ensure_loaded loads the shipped ones into slot 0, weight_slots.slot_for a directory's into its "
                   "own; SearchConfig.core_dict calls them)")
        assert _refusal(config) == message
        assert _refusal(dict(config, turns=0), core.search) == message
        # the hand formula needs no weights
        assert core.flat_monte_carlo(state, dict(config, eval="hand"))[1] == 50
        # the config loads them again: the core's flag, not a Python one, says what is loaded
        SearchConfig(eval="net").core_dict(players=3)
        assert core.value_ready(3)
    finally:
        value.ensure_loaded()


FLAT_MC = textwrap.dedent("""
    import json, sys
    from concordia_ai import core
    from concordia_ai.ai.search import SearchConfig, search
    from concordia_ai.engine.game import Game
    g = Game.new("imperium", 4, seed=7)
    if sys.argv[1] == "after-ismcts":
        search(g, SearchConfig(iterations=200, seed=2))
    stats, n = core.flat_monte_carlo(g.state, SearchConfig(iterations=400, seed=5).core_dict(players=4))
    print(json.dumps([[a, v, round(m, 6)] for a, v, m in stats]))
""")


def _flat_values(order: str) -> list:
    r = subprocess.run([sys.executable, "-c", FLAT_MC, order], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_flat_monte_carlo_gives_the_same_values_in_a_fresh_process_and_after_an_ismcts_search():
    fresh, after = _flat_values("fresh"), _flat_values("after-ismcts")
    assert fresh == after
    # and they are the value model's, not the hand formula's (which a fresh process used to fall back on)
    g = Game.new("imperium", 4, seed=7)
    search(g, SearchConfig(iterations=200, seed=2))
    stats, _ = core.flat_monte_carlo(g.state, SearchConfig(iterations=400, seed=5).core_dict(players=4))
    assert [[a, v, round(m, 6)] for a, v, m in stats] == fresh
    hand, _ = core.flat_monte_carlo(g.state, SearchConfig(iterations=400, seed=5, eval="hand").core_dict(players=4))
    assert [round(m, 6) for _, _, m in hand] != [m for _, _, m in fresh]
