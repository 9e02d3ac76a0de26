"""The versioned name of :mod:`belief.envs.maze.escape` (PettingZoo style: ``from belief.envs import escape_v0``)."""
from belief.envs.maze.escape import env, parallel_env, raw_env  # noqa: F401
