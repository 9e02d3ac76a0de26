"""The baselines: overcooked-ai's own planning agent (``GreedyHumanModel`` on the engine's cached
``MediumLevelActionManager``) and a random chef. The belief chef without partner inference is
:func:`belief.agents.overcooked.belief.no_inference_chef`.

The greedy model plans on the engine's full state (``info["state"]``, which the runner supplies: the engine's
agent cannot act on a text view); its current subgoal, for the ToM questions, is the label of the rule its
``ml_action`` follows (:func:`belief.agents.overcooked.kitchen.greedy_subgoal`). It draws from NumPy's
global generator (its "unstuck" moves): the runner seeds it per episode.

:class:`GreedyYieldChef` (kind ``greedy_yield``) is the greedy model with a traffic rule and no inference
about the partner (the strongest simple baseline). When the model's next move would enter the cell its partner
stands in: head-on (the partner faces it, so it wants this chef's cell) bob steps aside at once into the free
floor cell farthest from the partner (ties broken by a seeded generator), alice after :data:`HEAD_ON_WAIT`
steps; otherwise the chef keeps the model's move (the engine keeps both in place; the partner is usually about
to move on) and steps aside once blocked for more than :data:`BLOCKED_WAIT` steps. The rule was chosen among
six variants (always yield at once, by waits per chef, only bob stays, ...) on seeds 0-2 of cramped room,
coordination ring, counter circuit and asymmetric advantages (the most soups in all); the bench's figures are
on other seeds.
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


HEAD_ON_WAIT = 2      # head-on, alice steps aside after this many blocked steps (bob at once)
BLOCKED_WAIT = 3      # otherwise a chef steps aside after this many blocked steps
STAY = 4


class GreedyYieldChef(GreedyChef):
    kind = "greedy_yield"

    def __init__(self, name: str, layout: str, seed: int = 0):
        super().__init__(name, layout, seed)
        self.rng = random.Random(f"overcooked:greedy_yield:{name}:{seed}")
        self.floor = set(gridworld(layout).get_valid_player_positions())
        self.blocked = 0

    def reset(self, task=None) -> None:
        super().reset(task)
        self.blocked = 0

    def act(self, observation, info) -> int:
        action = super().act(observation, info)
        state = info["state"]
        mine, theirs = state.players[self.index], state.players[1 - self.index]
        me, partner = mine.position, theirs.position
        moves = engine().Action.INDEX_TO_ACTION[:4]
        if action >= 4 or _plus(me, moves[action]) != partner:
            self.blocked = 0
            return action
        self.blocked += 1
        d = moves[action]
        head_on = tuple(theirs.orientation) == (-d[0], -d[1])
        if head_on and (self.index == 1 or self.blocked > HEAD_ON_WAIT) or self.blocked > BLOCKED_WAIT:
            return self.step_aside(me, partner, moves)
        return action

    def step_aside(self, me, partner, moves) -> int:
        """The move into the free floor cell farthest from the partner (STAY when there is none)."""
        options = [(abs(q[0] - partner[0]) + abs(q[1] - partner[1]), self.rng.random(), i)
                   for i, d in enumerate(moves) for q in [_plus(me, d)] if q in self.floor and q != partner]
        return max(options)[2] if options else STAY


def _plus(pos, d):
    return pos[0] + d[0], pos[1] + d[1]


class RandomChef(AgentBase):
    """Uniform over the six actions (seeded)."""

    kind = "random"
    subgoal = None

    def __init__(self, name: str, seed: int = 0):
        self.name = name
        self.rng = random.Random(f"overcooked:random:{name}:{seed}")

    def act(self, observation, info) -> int:
        return self.rng.randrange(N_ACTIONS)


__all__ = ["GreedyChef", "GreedyYieldChef", "RandomChef", "BLOCKED_WAIT", "HEAD_ON_WAIT"]
