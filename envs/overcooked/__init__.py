"""Overcooked-AI (the ``overcooked_ai_py`` engine, the ``overcooked`` extra) on the five layouts of the
LLM-Coordination study: :mod:`~belief.envs.overcooked.world` (the engine, quiet, cached planners),
:mod:`~belief.envs.overcooked.events` (the trace vocabulary), :mod:`~belief.envs.overcooked.environment`
(``overcooked_v0``), :mod:`~belief.envs.overcooked.tom` (ToM questions) and
:mod:`~belief.envs.overcooked.mcq` (CoordinationQA-style multiple choice).

``env()`` is the AEC environment, ``parallel_env()`` the parallel one, ``raw_env`` the class; they load on
first use (:mod:`belief.envs.base.lazy_env`), and without the extra raise ``MissingExtraError`` naming it.
"""

from belief.envs.base.lazy_env import ENV_NAMES, env_attributes

__all__ = list(ENV_NAMES)
__getattr__ = env_attributes(__name__, "belief.envs.overcooked.environment")
