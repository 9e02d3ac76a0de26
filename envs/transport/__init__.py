"""Text TDW-MAT object transport: world, token counting, environment.

``env()`` is the AEC environment, ``parallel_env()`` the parallel one, ``raw_env`` the class; the versioned
name ``belief.envs.transport_v0`` stays importable. They load on first use (PEP 562), so importing a helper
module of this package (rules, events, text) does not import PettingZoo.
"""

_ENV_MODULE = "belief.envs.transport.environment"
__all__ = ["env", "parallel_env", "raw_env"]


def __getattr__(name):
    if name in __all__:
        import importlib
        return getattr(importlib.import_module(_ENV_MODULE), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
