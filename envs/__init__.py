"""Environments (PettingZoo): bomb defusal (``bomb_v0``) and object transport (``transport_v0``).

Importing the package registers each environment's translator with the core
(:func:`belief.translate_env.register_env`), so ``get_env("bomb")`` works once ``belief.envs`` is imported;
the core itself never imports an environment.
"""

from belief.envs import bomb_rules  # noqa: F401  (registers the "bomb" translation env)
