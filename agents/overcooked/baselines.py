"""The baselines: overcooked-ai's own planning agent (``GreedyHumanModel`` on the engine's cached
``MediumLevelActionManager``) and a random chef. The belief chef without partner inference is
:func:`belief.agents.overcooked.belief.no_inference_chef`.

The greedy model plans on the engine's full state (``info["state"]``, which the runner supplies: the engine's
agent cannot act on a text view); its current subgoal, for the ToM questions, is the label of the rule its
``ml_action`` follows (:func:`belief.agents.overcooked.kitchen.greedy_subgoal`). It draws from NumPy's
global generator (its "unstuck" moves): the runner seeds it per episode.
"""

from __future__ import annotations

import random

from belief.agents.overcooked.kitchen import greedy_subgoal, world_of
from belief.agents.protocol import AgentBase
from belief.envs.overcooked.world import action_manager, engine, gridworld
from belief.envs.overcooked.events import CHEFS

N_ACTIONS = 6


class GreedyChef(AgentBase):
    kind = "greedy"

    def __init__(self, name: str, layout: str, seed: int = 0):
        self.name, self.layout = name, layout
        self.index = CHEFS.index(name)
        self.model = engine().GreedyHumanModel(action_manager(layout))
        self.model.set_agent_index(self.index)
        self.model.set_mdp(gridworld(layout))
        self.subgoal = "wait"

    def reset(self, task=None) -> None:
        self.model.reset()  # the engine's reset forgets the agent index and the MDP
        self.model.set_agent_index(self.index)
        self.model.set_mdp(gridworld(self.layout))

    def act(self, observation, info) -> int:
        state = info["state"]
        self.subgoal = greedy_subgoal(world_of(state, gridworld(self.layout)), self.index)
        action, _ = self.model.action(state)
        return engine().Action.ACTION_TO_INDEX[action]


class RandomChef(AgentBase):
    """Uniform over the six actions (seeded)."""

    kind = "random"
    subgoal = None

    def __init__(self, name: str, seed: int = 0):
        self.name = name
        self.rng = random.Random(f"overcooked:random:{name}:{seed}")

    def act(self, observation, info) -> int:
        return self.rng.randrange(N_ACTIONS)


__all__ = ["GreedyChef", "RandomChef"]
