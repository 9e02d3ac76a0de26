"""The skeleton every text environment shares, written once.

:class:`TextEnv`: the text spaces (:class:`~belief.envs.base.spaces.TextSpaces`), the perception log
(:class:`~belief.envs.base.perception.PerceptionLog`: the global trace in, each agent's perceptions out) and
the start of an episode (every agent in, nothing perceived yet; the world then writes ``self.trace``).
:class:`TurnBasedTextEnv` adds the AEC bookkeeping of a turn-based game (rewards, terminations, the agent
selector, dead steps, the end of the episode); :class:`ParallelTextEnv` the step results of a simultaneous
one. A world states its spaces (``OBS_BOX``, ``N_ACTIONS``, ``TEXT_MAX``) and its rules; nothing else.
"""

from __future__ import annotations

from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import AgentSelector

from belief.envs.base.perception import PerceptionLog
from belief.envs.base.render import check_render_mode
from belief.envs.base.spaces import TextSpaces


class TextEnv(TextSpaces, PerceptionLog):
    def __init__(self, render_mode: str | None = None):
        """``render_mode`` is checked against the world's ``metadata["render_modes"]``."""
        super().__init__()
        self.render_mode = check_render_mode(render_mode, self.metadata)

    def _start_episode(self) -> None:
        """Every possible agent in, nothing perceived yet (call first in ``reset``)."""
        self.agents = list(self.possible_agents)
        self._start_perception(self.agents)

    def close(self):
        pass


class TurnBasedTextEnv(TextEnv, AECEnv):
    """A turn-based game: agents act in ``possible_agents`` order, one per ``step``."""

    def _start_episode(self) -> None:
        super()._start_episode()
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self._selector = AgentSelector(self.agents)
        self.agent_selection = self._selector.reset()

    def step(self, action) -> None:
        """The selected agent takes its turn (:meth:`_take_turn`), unless its episode is over (the AEC dead
        step)."""
        if self._dead_step(action):
            return
        self._take_turn(self.agent_selection, action)

    def _take_turn(self, agent: str, action) -> None:
        """The world's rules for ``agent``'s ``action``."""
        raise NotImplementedError

    def _dead_step(self, action) -> bool:
        """True (and the AEC dead step done) when the selected agent's episode is over."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return True
        return False

    def _reward_everyone(self, reward, actor: str) -> None:
        """Everyone gets ``reward`` for ``actor``'s step (a team game)."""
        for a in self.agents:
            self.rewards[a] = reward
        self._cumulative_rewards[actor] = 0
        self._accumulate_rewards()

    def _end_episode(self, truncated: bool) -> None:
        """Every agent's episode is over: truncated (a limit) or terminated (the game's own end)."""
        for a in self.agents:
            if truncated:
                self.truncations[a] = True
            else:
                self.terminations[a] = True


class ParallelTextEnv(TextEnv, ParallelEnv):
    """A simultaneous game: every live agent acts in each ``step``."""

    @staticmethod
    def _over() -> tuple:
        """What a step returns once the episode is over: five empty dicts."""
        return {}, {}, {}, {}, {}

    def _step_result(self, obs: dict, infos: dict, reward, done: bool, truncated: bool) -> tuple:
        """The five dicts of a parallel step (everyone gets ``reward``); the episode over, no agent is left."""
        rewards = {a: reward for a in self.agents}
        terms = {a: done for a in self.agents}
        truncs = {a: truncated for a in self.agents}
        if done or truncated:
            self.agents = []
        return obs, rewards, terms, truncs, infos


__all__ = ["ParallelTextEnv", "TextEnv", "TurnBasedTextEnv"]


def parse_text_action(act, wait: int) -> tuple[int, str]:
    """``(action index, message text)`` of an agent's action in a text world that takes an index, an
    ``(index, text)`` pair or ``{"action": index, "message": text}``; -1 for an index that is not a number."""
    text = ""
    if isinstance(act, dict):
        text = str(act.get("message", "") or "")
        act = act.get("action", wait)
    elif isinstance(act, (tuple, list)):
        act, text = (act[0], str(act[1]) if len(act) > 1 else "")
    try:
        return int(act), text
    except (TypeError, ValueError):
        return -1, text


#: the first action slots of a world where agents walk between rooms and talk (household, transport): wait,
#: send a message, then one slot per room
A_WAIT = 0
A_SEND = 1
A_ROOMS = 2


def room_action_names(n_actions: int, rooms, go: str, talk: bool) -> list[str | None]:
    """The names of a room world's ``n_actions`` slots, its first ones filled in: ``wait``, ``send message``
    (when there is someone to ``talk`` to) and ``{go} {room}`` for each room; the world names the rest."""
    names: list[str | None] = [None] * n_actions
    names[A_WAIT] = "wait"
    if talk:
        names[A_SEND] = "send message"
    for i, room in enumerate(rooms):
        names[A_ROOMS + i] = f"{go} {room}"
    return names
