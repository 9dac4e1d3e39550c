"""SearchConfig.leaf_mix: each backed-up estimate mixes the evaluation at the leaf itself with the one after the
rollout (cext/heuristics.pxi reward_vector, cext/ismcts.pxi). Off (0) by default: the search of before."""
import pytest

from concordia_ai.ai.search import SearchConfig, SearchConfigError, search_raw
from concordia_ai.engine.game import Game


def _play(game, **knobs):
    r = search_raw(game, SearchConfig(iterations=800, seed=4, **knobs))
    return [[c["action"], c["visits"], round(c["mean"], 6), round(c["vp"], 4)] for c in r["children"]]


@pytest.mark.parametrize("board,players,eval_kind", [("imperium", 4, "net"), ("italia", 2, "hand")])
def test_a_leaf_with_no_rollout_mixes_with_itself_and_changes_nothing(board, players, eval_kind):
    # with rollout "none" the cut-off is the leaf: half of one estimate plus half of the same is that estimate
    # bit for bit, so the leaf's evaluation is the cut-off's own (same evaluation, same seat order)
    g = Game.new(board, players, 3)
    assert _play(g, rollout="none", eval=eval_kind, leaf_mix=0.5) == _play(g, rollout="none", eval=eval_kind)


def test_the_mix_changes_the_estimates_and_zero_is_the_default():
    g = Game.new("italia", 3, 6)
    assert SearchConfig().leaf_mix == 0.0
    assert _play(g) == _play(g, leaf_mix=0.0)
    mixed = _play(g, leaf_mix=0.5)
    assert mixed != _play(g)
    # all on the leaf: every estimate is the leaf's, the rollout's is weighed at nothing; the values stay in range
    assert all(0.0 <= c[2] <= 1.0 for c in _play(g, leaf_mix=1.0))


@pytest.mark.parametrize("bad", [-0.1, 1.5, "half", True])
def test_a_bad_weight_is_refused_with_one_line(bad):
    with pytest.raises(SearchConfigError) as e:
        SearchConfig(leaf_mix=bad)
    assert e.value.field == "leaf_mix" and "\n" not in str(e.value)
