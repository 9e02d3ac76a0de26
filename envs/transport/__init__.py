"""Text TDW-MAT object transport: world, token counting, environment.

``env()`` is the AEC environment, ``parallel_env()`` the parallel one, ``raw_env`` the class (also as
``belief.envs.transport_v0``). They load on first use
(:mod:`belief.envs.base.lazy_env`).
"""

from belief.envs.base.lazy_env import ENV_NAMES, env_attributes

__all__ = list(ENV_NAMES)
__getattr__ = env_attributes(__name__, "belief.envs.transport.environment")
