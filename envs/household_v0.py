"""The versioned name of :mod:`belief.envs.household` (PettingZoo style: ``from belief.envs import household_v0``)."""
from belief.envs.household.environment import env, parallel_env, raw_env  # noqa: F401
