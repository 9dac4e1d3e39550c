"""SearchConfig.opponents: the other seats' moves as tree nodes ("tree", every search before it) or played outside
the tree by a policy, so that the tree holds the searching seat's decisions only (cext/ismcts.pxi)."""
import pytest

from concordia_ai.ai.search import SearchConfig, SearchConfigError, search, search_raw
from concordia_ai.engine.game import Game


def _raw(game, **knobs):
    return search_raw(game, SearchConfig(iterations=1500, seed=5, **knobs))


def _figures(r):
    return [[c["action"], c["visits"], round(c["mean"], 6), c["pv"]] for c in r["children"]]


def test_tree_is_the_default_and_keeps_the_others_moves_in_the_tree():
    g = Game.new("imperium", 4, 3)
    assert SearchConfig().opponents == "tree"
    r = _raw(g)
    assert _figures(r) == _figures(_raw(g, opponents="tree"))
    # 1,500 iterations from the opening reach the next seats' turns: their moves are nodes of the tree
    assert r["opponent_nodes"] > 0


@pytest.mark.parametrize("opponents", ["random", "greedy", "policy"])
@pytest.mark.parametrize("board,players", [("imperium", 4), ("italia", 2), ("creta", 5)])
def test_outside_the_tree_every_node_is_the_searching_seats_decision(opponents, board, players):
    g = Game.new(board, players, 8)
    r = _raw(g, opponents=opponents)
    assert r["opponent_nodes"] == 0 and r["iterations"] == 1500
    # the same seed gives the same search (every random draw comes from it)
    assert _figures(r) == _figures(_raw(g, opponents=opponents))
    # and the tree reaches past the searching seat's own turn: some line is longer than the longest turn
    # the others' moves would otherwise cut it to (its own decisions of two turns or more)
    assert max(len(c["pv"]) for c in r["children"]) >= 2


def test_outside_the_tree_the_lines_go_deeper_into_the_players_own_turns():
    # the tree spends its nodes on one seat's decisions only: with the same iterations the principal lines
    # of the most visited moves reach further (in that seat's decisions) than with the others in the tree
    g = Game.new("imperium", 4, 3)
    tree = _raw(g)
    own = _raw(g, opponents="random")
    depth = lambda r: max(len(c["pv"]) for c in r["children"][:3])   # noqa: E731
    assert own["opponent_nodes"] == 0 < tree["opponent_nodes"]
    assert depth(own) >= depth(tree)


def test_the_whole_turn_choice_and_the_figures_work_with_the_others_outside():
    g = Game.new("italia", 3, 2)
    res = search(g, SearchConfig(iterations=3000, seed=2, focus=0.25, opponents="random"))
    assert res.turns and any(t.chosen for t in res.turns)
    chosen = next(t for t in res.turns if t.chosen)
    assert 0.0 <= chosen.win <= 1.0 and chosen.visits > 0
    # the chosen turn is a legal whole turn of the player deciding now
    st = g.state.copy()
    for a in chosen.moves:
        assert a in st.legal_actions()
        st.apply(a)


@pytest.mark.parametrize("bad", ["max", "", 1, None, True])
def test_a_bad_setting_is_refused_with_one_line(bad):
    with pytest.raises(SearchConfigError) as e:
        SearchConfig(opponents=bad)
    assert e.value.field == "opponents" and "\n" not in str(e.value)


def test_policy_opponents_read_the_prior():
    assert SearchConfig(opponents="policy", policy=0.0).reads_prior
    assert not SearchConfig(opponents="random", policy=0.0).reads_prior


# ---------------------------------------------------------------- opponent move abstraction (opponents = "oma")

@pytest.mark.parametrize("board,players", [("imperium", 4), ("italia", 2), ("creta", 5), ("aegyptus", 3)])
def test_oma_every_other_seats_move_leads_to_one_shared_node(board, players):
    g = Game.new(board, players, 8)
    r = _raw(g, opponents="oma")
    # the others' moves are nodes of the tree, chosen by their own statistics (they have figures) ...
    assert r["opponent_nodes"] > 0 and r["shared_nodes"] > 0 and r["iterations"] == 1500
    # ... but none of them has children: what follows is the shared node beside it, whatever was chosen
    assert r["opponent_parents"] == 0
    # the prior is still computed once per node (a move a later sample makes legal takes an even share)
    assert r["prior_calls"] == r["expanded"] > 0
    assert _figures(r) == _figures(_raw(g, opponents="oma"))
    # the tree search of before has none of it
    tree = _raw(g)
    assert tree["shared_nodes"] == 0 and tree["opponent_parents"] > 0


def test_oma_principal_lines_go_on_through_the_shared_nodes():
    # a line follows the most visited move of another seat, then the shared node after it: the root's best
    # line holds moves of the others, and it replays legally as far as the first card revealed (merged)
    g = Game.new("italia", 2, 2)
    r = _raw(g, opponents="oma")
    best = r["children"][0]
    st = g.state.copy()
    movers = set()
    for a in best["pv"]:
        if not st.is_legal(a):
            break
        movers.add(st.decider)
        st.apply(a)
    assert movers == {0, 1}


def test_oma_the_whole_turn_choice_works():
    g = Game.new("imperium", 4, 2)
    res = search(g, SearchConfig(iterations=2000, seed=2, focus=0.25, opponents="oma"))
    chosen = next(t for t in res.turns if t.chosen)
    st = g.state.copy()
    for a in chosen.moves:
        assert a in st.legal_actions()
        st.apply(a)
    assert 0.0 <= chosen.win <= 1.0 and chosen.visits > 0


@pytest.mark.parametrize("knobs", [dict(select="ucb"), dict(minimax_mix=0.3)])
def test_oma_needs_puct_and_no_minimax(knobs):
    with pytest.raises(SearchConfigError) as e:
        SearchConfig(opponents="oma", **knobs)
    assert e.value.field == "opponents" and "\n" not in str(e.value)
    # the core refuses the same dict on its own (a caller that builds it by hand)
    from concordia_ai import core
    g = Game.new("italia", 3, 1)
    d = SearchConfig(iterations=10).core_dict(1, players=3)
    d.update(opponents="oma", **knobs)
    with pytest.raises(ValueError, match="oma needs select=puct"):
        core.search_config(g.state, d)
