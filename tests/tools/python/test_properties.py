"""A property test: random sequences of calls, good and bad, never crash
the interpreter, and a failed call never changes the game."""

from hypothesis import given, settings, strategies as st

import wallgo
from conftest import VARIANTS

values = st.one_of(
    st.integers(min_value=-10**20, max_value=10**20),
    st.integers(min_value=0, max_value=wallgo.ACTION_SIZE - 1),
    st.text(max_size=12),
    st.sampled_from(["d4", "pass", "resign", "c3c5n", "b2b3xn", "a1a1n"]),
    st.floats(allow_nan=True), st.none(), st.binary(max_size=4),
    st.lists(st.integers(), max_size=3))

calls = st.lists(st.tuples(
    st.sampled_from(["play", "play_legal", "undo", "symmetry", "perft",
                     "from_position", "action_to_move", "vector_step"]),
    values, st.integers(min_value=0, max_value=300)), max_size=40)


@settings(max_examples=150, deadline=None, database=None)
@given(st.sampled_from(VARIANTS), calls)
def test_random_calls_never_crash(rules, sequence):
    game = wallgo.Game(rules)
    env = wallgo.VectorEnv(2, rules=rules, seed=1)
    for name, value, number in sequence:
        before = game.position(), game.moves
        try:
            if name == "play":
                game.play(value)
            elif name == "play_legal" and not game.is_over:
                game.play(game.legal_actions()[number % len(game.legal_actions())])
            elif name == "undo":
                game.undo()
            elif name == "symmetry":
                game.symmetry(value)
            elif name == "perft":
                game.perft(number % 2)
            elif name == "from_position":
                wallgo.Game.from_position(value)
            elif name == "action_to_move":
                wallgo.action_to_move(value)
            elif name == "vector_step":
                env.step([value, number])
        except (ValueError, TypeError, OverflowError, IndexError):
            if name != "undo":
                assert (game.position(), game.moves) == before
        assert game.legal_action_mask().sum() == len(game.legal_moves())
