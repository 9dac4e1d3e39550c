"""Implicit minimax backups (SearchConfig.minimax_mix; Lanctot, Winands, Pepels and Sturtevant 2014): every node
keeps the evaluation of its state made at its first visit, backed up max^n (each seat's best child for it; the
visit-weighted mean over revealed cards), and the selection reads a child's Q as (1 - w) * its mean reward + w * that
value for the seat choosing. Off (0) by default: the search of before, bit for bit."""
import pytest

from concordia_ai import core
from concordia_ai.ai.bots import meaning_changes, spec_meaning
from concordia_ai.ai.search import SearchConfig, SearchConfigError, search_raw
from concordia_ai.engine.game import Game


def test_a_node_takes_the_values_of_its_best_child_for_the_seat_choosing_there():
    # seat 1 chooses: the child worth 0.7 to seat 1 wins, although another is worth more to seat 0
    kids = [(1, 5, [0.9, 0.2, 0.1]), (1, 3, [0.1, 0.7, 0.2]), (1, 9, [0.3, 0.5, 0.2])]
    assert core.minimax_value(kids)[:3] == pytest.approx([0.1, 0.7, 0.2])
    # an unvisited child has no value yet: it is passed over, however good its (unset) numbers
    kids = [(1, 0, [0.0, 0.99, 0.0]), (1, 2, [0.4, 0.6, 0.0])]
    assert core.minimax_value(kids)[:3] == pytest.approx([0.4, 0.6, 0.0])


def test_a_revealed_card_averages_its_outcomes_by_their_visits():
    kids = [(-1, 1, [1.0, 0.0]), (-1, 3, [0.0, 1.0])]
    assert core.minimax_value(kids)[:2] == pytest.approx([0.25, 0.75])


def test_puct_reads_the_mixed_q_on_constructed_numbers():
    # equal mean rewards (0.5) and priors: the implicit minimax value decides, with any weight above 0
    kids = [(10, 5.0, 0.5, 20), (10, 5.0, 0.5, 20)]
    assert core.puct_pick(kids, 0.25, 0.2, minimax=[0.3, 0.6], minimax_mix=0.5) == 1
    assert core.puct_pick(kids, 0.25, 0.2, minimax=[0.6, 0.3], minimax_mix=0.5) == 0
    # Q 0.6 against 0.5 with values 0.2 and 0.5: at w = 0.2, 0.52 against 0.50 (the first); at w = 0.5, 0.40
    # against 0.50 (the second); at w = 0 the values are not read
    kids = [(10, 6.0, 0.5, 20), (10, 5.0, 0.5, 20)]
    assert core.puct_pick(kids, 0.25, 0.2, minimax=[0.2, 0.5], minimax_mix=0.2) == 0
    assert core.puct_pick(kids, 0.25, 0.2, minimax=[0.2, 0.5], minimax_mix=0.5) == 1
    assert core.puct_pick(kids, 0.25, 0.2, minimax=[0.2, 0.5], minimax_mix=0.0) == 0


def test_off_by_default_and_the_same_search_when_zero():
    assert SearchConfig().minimax_mix == 0.0
    g = Game.new("imperium", 4, 3)
    base = search_raw(g, SearchConfig(iterations=600, seed=5))
    zero = search_raw(g, SearchConfig(iterations=600, seed=5, minimax_mix=0.0))
    assert base["children"] == zero["children"] and base["nodes"] == zero["nodes"]


def test_on_it_is_seeded_and_changes_the_search():
    g = Game.new("italia", 3, 8)
    a = search_raw(g, SearchConfig(iterations=1500, seed=2, minimax_mix=0.5))
    b = search_raw(g, SearchConfig(iterations=1500, seed=2, minimax_mix=0.5))
    base = search_raw(g, SearchConfig(iterations=1500, seed=2))
    assert a["children"] == b["children"] and a["iterations"] == 1500
    assert [c["visits"] for c in a["children"]] != [c["visits"] for c in base["children"]]


def test_ucb_reads_it_too_and_bad_weights_are_refused():
    g = Game.new("italia", 3, 8)
    ucb = dict(select="ucb", policy=0.0, iterations=1500, seed=2)
    a = search_raw(g, SearchConfig(**ucb, minimax_mix=0.5))
    base = search_raw(g, SearchConfig(**ucb))
    assert [c["visits"] for c in a["children"]] != [c["visits"] for c in base["children"]]
    with pytest.raises(SearchConfigError, match="minimax_mix"):
        SearchConfig(minimax_mix=1.5)
    d = SearchConfig(iterations=50).core_dict(players=3)
    with pytest.raises(ValueError, match="minimax_mix"):
        core.search(g.state, dict(d, minimax_mix=-0.1, turns=0))


def test_a_log_made_before_the_knob_existed_still_means_the_same_bot():
    # a spec's meaning recorded before minimax_mix was added lacks it: it meant minimax_mix 0, today's default
    now = spec_meaning("ismcts:seconds=0.03", 4)
    then = {k: v for k, v in now.items() if k != "minimax_mix"}
    assert meaning_changes(then, now) == []
    assert meaning_changes(then, spec_meaning("ismcts:seconds=0.03,minimax_mix=0.3", 4)) == \
        ["minimax_mix 0.0 -> 0.3"]
