"""The parallel form of a strictly turn-based AEC environment (blocks, hanabi, capture, escape).

One parallel ``step`` is one turn: every live agent submits an action, but only the action of the agent
whose turn it is (``infos[agent]["active_agent"]``) is applied; the others' are ignored. This is
PettingZoo's :func:`pettingzoo.utils.conversions.turn_based_aec_to_parallel`, except that a step after the
episode ended returns the five dicts of the parallel API (the stock wrapper returns four), ``reset``'s
infos name the active agent too, and the AEC env's own info dicts are never written to.
"""

from __future__ import annotations

from pettingzoo.utils import wrappers
from pettingzoo.utils.conversions import turn_based_aec_to_parallel_wrapper


class TurnBasedParallelEnv(turn_based_aec_to_parallel_wrapper):
    def _infos(self, infos: dict) -> dict:
        active = self.aec_env.agent_selection if self.aec_env.agents else None
        return {a: {**info, "active_agent": active} for a, info in infos.items()}

    def reset(self, seed=None, options=None):
        observations, infos = super().reset(seed=seed, options=options)
        return observations, self._infos(infos)

    def step(self, actions):
        if not self.agents:
            return {}, {}, {}, {}, {}
        env = self.aec_env
        active = env.agent_selection
        if active not in actions:
            raise KeyError(f"no action for {active!r}, whose turn it is (infos[agent]['active_agent'])")
        env.step(actions[active])
        rewards, terminations, truncations = dict(env.rewards), dict(env.terminations), dict(env.truncations)
        infos = dict(env.infos)
        observations = {a: env.observe(a) for a in env.agents}
        while env.agents and (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
            env.step(None)  # the episode is over: the AEC env retires its agents one dead step at a time
        self.agents = env.agents[:]
        return observations, rewards, terminations, truncations, self._infos(infos)


def turn_based_parallel(aec_env) -> TurnBasedParallelEnv:
    """``aec_env`` (a wrapped AEC env) as a parallel env, one turn per step."""
    return TurnBasedParallelEnv(aec_env)


__all__ = ["TurnBasedParallelEnv", "turn_based_parallel"]


def turn_based_constructors(make_raw):
    """``env`` and ``parallel_env`` of a turn-based world whose raw environment ``make_raw(**kwargs)`` makes."""

    def env(**kwargs):
        """The wrapped AEC env (order enforcing, bounds checks)."""
        return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(make_raw(**kwargs)))

    def parallel_env(**kwargs):
        """The parallel form: one turn per step, only the active agent's action is applied
        (:class:`TurnBasedParallelEnv`)."""
        return turn_based_parallel(env(**kwargs))

    return env, parallel_env

