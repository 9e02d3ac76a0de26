"""Guandan: four players in two teams, two decks, a level rank with wild hearts; rules, events, text, ToM.

``env()`` is the AEC environment, ``parallel_env()`` the parallel one, ``raw_env`` the class. They load on
first use (:mod:`belief.envs.base.lazy_env`); the rules (:mod:`.cards`, :mod:`.combinations`, :mod:`.moves`,
:mod:`.world`, :mod:`.match`) import no PettingZoo; the versioned name is ``belief.envs.guandan_v0``.
"""

from belief.envs.base.lazy_env import ENV_NAMES, env_attributes

__all__ = list(ENV_NAMES)
__getattr__ = env_attributes(__name__, "belief.envs.guandan.environment")
