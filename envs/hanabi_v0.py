"""The versioned name of :mod:`belief.envs.hanabi` (PettingZoo style: ``from belief.envs import hanabi_v0``)."""
from belief.envs.hanabi.environment import env, parallel_env, raw_env  # noqa: F401
