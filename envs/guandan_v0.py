"""The versioned name of :mod:`belief.envs.guandan` (PettingZoo style: ``from belief.envs import guandan_v0``)."""
from belief.envs.guandan.environment import env, parallel_env, raw_env  # noqa: F401
