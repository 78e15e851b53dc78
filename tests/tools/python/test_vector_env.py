"""wallgo.VectorEnv against wallgo.Game, step for step, and the AEC
wrapper."""

import random

import numpy as np
import pytest

import wallgo
from conftest import VARIANTS


@pytest.mark.parametrize("rules", VARIANTS)
def test_vector_env_agrees_with_game(rules):
    n = 5
    env = wallgo.VectorEnv(n, rules=rules, seed=4)
    games = [wallgo.Game(rules) for _ in range(n)]
    finished = 0
    for _ in range(150):
        for i, game in enumerate(games):
            assert (env.observations[i] == game.observation()).all()
            assert (env.masks[i] == game.legal_action_mask()).all()
            assert env.to_move[i] == game.to_move
            assert env.game(i).position() == game.position()
        actions = env.random_actions()
        obs, masks, rewards, dones = env.step(actions)
        for i, game in enumerate(games):
            game.play(int(actions[i]))
            assert dones[i] == game.is_over
            assert rewards[i].tolist() == game.rewards
            if game.is_over:
                finished += 1
                games[i] = wallgo.Game(rules)
    assert finished > 0


def test_views_are_not_copies_and_follow_the_steps():
    env = wallgo.VectorEnv(8, seed=1)
    obs, masks, rewards, dones = env.reset()[0], env.masks, env.rewards, env.dones
    for view in (obs, masks, rewards, dones, env.to_move):
        assert not view.flags.owndata
    before = masks.copy()
    env.step(env.random_actions())
    assert np.shares_memory(masks, env.masks)
    assert not (masks == before).all()  # the same buffer, new contents
    assert masks.shape == (8, wallgo.ACTION_SIZE) and masks.dtype == np.bool_
    assert rewards.shape == (8, 2) and rewards.dtype == np.float32


def test_view_outlives_the_name_of_its_env():
    masks = wallgo.VectorEnv(3).masks
    assert masks.sum() == 3 * 45  # the env is kept alive by the view


def test_reset_and_seeds():
    a = wallgo.VectorEnv(16, seed=9)
    b = wallgo.VectorEnv(16, seed=9)
    start = a.observations.copy()
    for _ in range(20):
        actions = a.random_actions()
        assert (actions == b.random_actions()).all()
        a.step(actions)
        b.step(actions)
    assert (a.observations == b.observations).all()
    a.reset()
    assert (a.observations == start).all() and not a.dones.any()
    assert (a.masks.sum(axis=1) == 45).all()


def test_bad_steps_raise_and_change_nothing():
    env = wallgo.VectorEnv(4, seed=2)
    env.step(env.random_actions())
    before = (env.observations.copy(), env.masks.copy())
    actions = env.random_actions()
    with pytest.raises(ValueError, match="expected 4 actions"):
        env.step(actions[:3])
    with pytest.raises(ValueError, match="1-d"):
        env.step(actions.reshape(2, 2))
    bad = actions.copy()
    bad[2] = wallgo.PASS_ACTION
    with pytest.raises(ValueError, match="game 2: action 5145 \\(pass\\)"):
        env.step(bad)
    bad[2] = -7
    with pytest.raises(ValueError, match="game 2"):
        env.step(bad)
    with pytest.raises(TypeError):
        env.step("d4")
    with pytest.raises(ValueError):
        wallgo.VectorEnv(0)
    with pytest.raises(ValueError, match="bad rules"):
        wallgo.VectorEnv(2, rules="players=9")
    with pytest.raises(IndexError):
        env.game(4)
    assert (env.observations == before[0]).all()
    assert (env.masks == before[1]).all()


@pytest.mark.parametrize("rules", ["players=2", "players=4 stay=mobile"])
def test_aec_env_plays_whole_games(rules):
    rng = random.Random(1)
    env = wallgo.AECEnv(rules)
    players = env.game.num_players
    assert env.possible_agents == list(wallgo.COLOURS[:players])
    shadow = wallgo.Game(rules)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    steps = 0
    while env.agents:
        agent = env.agent_selection
        obs, reward, termination, truncation, info = env.last()
        totals[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        assert wallgo.COLOURS[shadow.to_move] == agent
        assert (obs["observation"] == shadow.observation()).all()
        legal = np.flatnonzero(obs["action_mask"]).tolist()
        assert sorted(legal) == sorted(shadow.legal_actions())
        action = rng.choice(legal)
        env.step(action)
        shadow.play(action)
        steps += 1
    assert shadow.is_over and steps == len(shadow.moves)
    assert [totals[a] for a in env.possible_agents] == shadow.rewards
    env.reset()
    assert env.agents == env.possible_agents and not env.game.moves


def test_aec_env_rejects_bad_steps():
    env = wallgo.AECEnv()
    with pytest.raises(ValueError, match="None is not an action"):
        env.step(None)
    with pytest.raises(ValueError, match="occupied"):
        env.step("b2")
    assert env.agent_selection == "red" and env.game.moves == []
