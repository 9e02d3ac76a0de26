"""The versioned name of :mod:`belief.envs.blocks` (PettingZoo style: ``from belief.envs import blocks_v0``)."""
from belief.envs.blocks.environment import env, parallel_env, raw_env  # noqa: F401
