"""No stack-order leak: what the learned models see of a state does not depend on the hidden order of the
unseen cards. The policy's features (core.policy_features_of) and the value model's input and output
(core.value_features_of, value.predict) are identical after CoreState.shuffle_hidden."""
import numpy as np

from concordia_ai import core
from concordia_ai.ai import value
from concordia_ai.ai.bots import make_bot
from concordia_ai.engine.game import Game


def random_states(board, players, seed, every=7):
    """Every `every`-th state of a seeded random game, to its end."""
    game = Game.new(board, players, seed)
    bot = make_bot("random", seed=seed)
    out, step = [], 0
    while not game.is_over:
        if step % every == 0:
            out.append(game.clone())
        game.state.apply(bot.choose(game))
        step += 1
    return out


def test_the_features_and_the_value_model_ignore_the_hidden_stack_order():
    games = [("italia", 2, 1), ("imperium", 3, 2), ("imperium", 4, 3), ("italia", 5, 4), ("creta", 2, 5)]
    states = [g for board, players, seed in games for g in random_states(board, players, seed)]
    assert len(states) >= 300
    moved = 0
    for i, g in enumerate(states):
        h = g.clone()
        h.state.shuffle_hidden(1000 + i)
        before, after = g.to_json()["stack_order"], h.to_json()["stack_order"]
        assert sorted(before) == sorted(after)
        moved += before != after
        assert h.state.legal_actions() == g.state.legal_actions()
        assert np.array_equal(core.policy_features_of(h.state), core.policy_features_of(g.state)), i
        assert np.array_equal(core.value_features_of(h.state), core.value_features_of(g.state)), i
        assert value.predict(h.state) == value.predict(g.state), i
    # the shuffles did reorder the stack, in every state with a deck of two unseen cards or more but a few
    # (late in a game the stack is empty): not a vacuous check
    assert moved >= 150
