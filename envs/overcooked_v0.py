"""The versioned name of :mod:`belief.envs.overcooked` (PettingZoo style: ``from belief.envs import overcooked_v0``)."""
from belief.envs.overcooked.environment import env, parallel_env, raw_env  # noqa: F401
