"""The Game object's Python face (concordia_ai.engine.game)."""

import json
import random

import pytest

from concordia_ai import core
from concordia_ai.engine.game import CHANCE, SCORE_COLUMNS, Game, GameError


@pytest.mark.parametrize("board", ["mars", "", None, 3, "imperium2"])
def test_new_unknown_board(board):
    with pytest.raises(GameError, match="unknown board"):
        Game.new(board, 3)


@pytest.mark.parametrize("players", [1, 6, 0, -2, "3", 3.0, True, None])
def test_new_bad_player_count(players):
    with pytest.raises(GameError, match="2 to 5"):
        Game.new("imperium", players)


@pytest.mark.parametrize("names", [["a", "a", "b"], ["a", "A", "b"], ["a", "", "b"], ["a", "b"], ["a", "b", "c", "d"],
                                   ["a", "  ", "b"]])
def test_new_bad_names(names):
    with pytest.raises(GameError, match="names"):
        Game.new("imperium", 3, names=names)


@pytest.mark.parametrize("board", ["imperium", "italia", " Imperium ", "ITALIA"])
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_new_valid(board, n):
    g = Game.new(board, n, seed=4)
    assert g.n_players == n and g.names == [f"P{i + 1}" for i in range(n)]
    assert g.phase == "play" and g.decider == 0 and not g.is_over
    assert g.board.name == board.strip().lower()
    assert g.legal_moves() and all(g.text(m).startswith("play ") for m in g.legal_moves())


def test_same_seed_same_game():
    assert Game.new("italia", 4, seed=9).to_json() == Game.new("italia", 4, seed=9).to_json()
    assert Game.new("italia", 4, seed=9).to_json() != Game.new("italia", 4, seed=10).to_json()


def test_options_recorded():
    pos = Game.new("imperium", 3, seed=1, wine_variant=True, intermediate_scoring=True).to_json()
    assert pos["options"] == {"wine_variant": True, "intermediate_scoring": True}


def test_clone_independence():
    g = Game.new("imperium", 3, seed=2)
    before = g.to_json()
    c = g.clone()
    c.apply("play architect")
    assert g.to_json() == before and g.phase == "play"
    assert c.phase == "architect-move"
    g.apply("play prefect")
    assert c.phase == "architect-move"
    c.names[0] = "Changed"
    assert g.names[0] == "P1"


def test_decider_phase_is_over_along_a_game():
    g = Game.new("italia", 3, seed=5)
    rng = random.Random(5)
    seen = set()
    while not g.is_over:
        d = g.decider
        assert d == CHANCE or 0 <= d < 3
        assert g.decider_name == ("chance" if d == CHANCE else g.names[d])
        assert g.phase in core.PHASES.values() and g.phase != "over"
        assert g.to_json()["turn"]["phase"] == g.phase
        seen.add(g.phase)
        g.apply(rng.choice(g.legal_moves()))
    assert g.phase == "over" and g.decider is None and g.legal_moves() == []
    assert g.decider_name.startswith("nobody")
    assert {"play", "architect-move", "prefect", "mercator", "senator"} <= seen
    ranking = g.ranking()
    assert sorted(ranking) == [0, 1, 2]
    totals = [s["total"] for s in g.scores()]
    assert all(totals[a] >= totals[b] for a, b in zip(ranking, ranking[1:]))


def test_scores_keys():
    g = Game.new("imperium", 4, seed=1)
    scores = g.scores()
    assert len(scores) == 4
    for row in scores:
        assert list(row) == list(SCORE_COLUMNS)
        assert list(row) == ["Vesta", "Jupiter", "Saturnus", "Mercurius", "Mars", "Minerva", "Concordia",
                             "Squares", "total"]
        assert all(isinstance(v, int) for v in row.values())
        assert row["total"] == sum(v for k, v in row.items() if k != "total")


def test_from_json_accepts_string_and_dict():
    g = Game.new("imperium", 3, seed=1)
    g.apply("play architect")
    pos = g.to_json()
    assert Game.from_json(json.dumps(pos)).to_json() == pos
    assert Game.from_json(pos).to_json() == pos


def test_from_json_bad_string():
    with pytest.raises(ValueError):
        Game.from_json("{not json")


def test_apply_returns_code_and_accepts_codes():
    g = Game.new("imperium", 3, seed=1)
    code = g.parse("play architect")
    h = g.clone()
    assert g.apply("play architect") == code
    assert h.apply(code) == code
    assert g.to_json() == h.to_json()


def test_repr():
    r = repr(Game.new("imperium", 3, seed=1))
    assert "imperium" in r and "3p" in r and "play" in r


@pytest.mark.parametrize("seed", [-1, 2 ** 64, 1.5, "7", True])
def test_new_refuses_seeds_outside_64_bits(seed):
    with pytest.raises(GameError) as e:
        Game.new("imperium", 3, seed=seed)
    assert "seed" in str(e.value)


def test_package_exports():
    import concordia_ai
    assert concordia_ai.Game is Game
    assert concordia_ai.SearchConfig().iterations > 0
    with pytest.raises(AttributeError):
        concordia_ai.no_such_name
