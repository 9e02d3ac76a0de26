"""The versioned name of :mod:`belief.envs.bomb` (PettingZoo style: ``from belief.envs import bomb_v0``)."""
from belief.envs.bomb.environment import env, parallel_env, raw_env  # noqa: F401
