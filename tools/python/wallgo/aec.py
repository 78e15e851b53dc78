"""One game with PettingZoo's agent-environment-cycle (AEC) conventions,
without depending on PettingZoo: agents, agent_selection, observe, step,
last, action_mask, rewards, terminations, truncations, infos."""

import numpy as np

from wallgo._wallgo import ACTION_SIZE, Game

_COLOURS = ("red", "blue", "green", "yellow")


class AECEnv:
    """Wall Go as an AEC environment.

    Agents are the colour names in the game ("red", "blue", ...). observe()
    gives {"observation": uint8 [6, 7, 7], "action_mask": uint8
    [ACTION_SIZE]} for the agent (planes from the side to move's view, as
    Game.observation). step(action) plays the selected agent's action; at
    the end of the game every agent is terminated with its reward (+1 win,
    0 shared draw, -1 loss) and, as in PettingZoo, must then step(None)
    once to leave.
    """

    metadata = {"name": "wallgo_v0", "is_parallelizable": False}

    def __init__(self, rules="players=2"):
        self._rules = rules
        self.game = Game(rules)
        self.possible_agents = list(_COLOURS[: self.game.num_players])
        self.reset()

    def reset(self, seed=None, options=None):
        """A new game; seed and options are accepted for the API and unused
        (the game has no chance)."""
        del seed, options
        self.game = Game(self._rules)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.to_move]

    def observation_space(self, agent):
        """The observation's shape and dtypes (no gym dependency)."""
        del agent
        return {"observation": ((6, 7, 7), np.uint8),
                "action_mask": ((ACTION_SIZE,), np.uint8)}

    def action_space(self, agent):
        """Discrete(ACTION_SIZE), as its size."""
        del agent
        return ACTION_SIZE

    def action_mask(self, agent=None):
        """uint8 [ACTION_SIZE]: 1 at the legal actions of `agent` (all zero
        when it is not that agent's turn or the game is over)."""
        agent = self.agent_selection if agent is None else agent
        if self.game.is_over or agent != self.agent_selection:
            return np.zeros(ACTION_SIZE, np.uint8)
        return self.game.legal_action_mask().astype(np.uint8)

    def observe(self, agent):
        """The agent's observation and action mask."""
        return {"observation": self.game.observation(),
                "action_mask": self.action_mask(agent)}

    def last(self, observe=True):
        """(observation, cumulative reward, termination, truncation, info)
        of the selected agent."""
        agent = self.agent_selection
        return (self.observe(agent) if observe else None,
                self._cumulative_rewards[agent], self.terminations[agent],
                self.truncations[agent], self.infos[agent])

    def step(self, action):
        """Plays `action` (an int or notation) for the selected agent; a
        terminated agent must pass None, which removes it."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise ValueError(f"{agent} is done: step(None) to remove it")
            self.agents.remove(agent)
            if self.agents:
                self.agent_selection = self.agents[0]
            return
        if action is None:
            raise ValueError(f"{agent} is to move: None is not an action")
        self._cumulative_rewards[agent] = 0.0
        self.game.play(action)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self.game.is_over:
            for a, r in zip(self.possible_agents, self.game.rewards):
                self.rewards[a] = r
                self.terminations[a] = True
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[self.game.to_move]
        for a in self.agents:
            self._cumulative_rewards[a] += self.rewards[a]
