"""Environments (PettingZoo): bomb defusal (``bomb_v0``) and object transport (``transport_v0``).

Importing the package registers each environment's translator with the core
(:func:`belief.llm.translation_envs.register_env`), so ``get_env("bomb")`` works once ``belief.envs`` is imported;
the core itself never imports an environment.
"""

from belief.envs.bomb import rules as bomb_rules  # noqa: F401  (registers the "bomb" translation env)
