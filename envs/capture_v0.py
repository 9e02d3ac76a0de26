"""The versioned name of :mod:`belief.envs.maze.capture` (PettingZoo style: ``from belief.envs import capture_v0``)."""
from belief.envs.maze.capture import env, parallel_env, raw_env  # noqa: F401
