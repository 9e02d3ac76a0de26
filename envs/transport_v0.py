"""The versioned name of :mod:`belief.envs.transport` (PettingZoo style: ``from belief.envs import transport_v0``)."""
from belief.envs.transport.environment import env, parallel_env, raw_env  # noqa: F401
