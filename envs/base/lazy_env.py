"""A world package's ``env``, ``parallel_env`` and ``raw_env``, loaded on first use (PEP 562), so that
importing a helper module of the package (rules, events, text) does not import PettingZoo; without the
``envs`` extra, asking for one of them raises :class:`belief.errors.MissingExtraError` naming it."""

from __future__ import annotations

import importlib

from belief.errors import missing_extra

ENV_NAMES = ("env", "parallel_env", "raw_env")


def env_attributes(package: str, module: str):
    """The ``__getattr__`` of world package ``package``: the names of :data:`ENV_NAMES` from ``module``."""
    def __getattr__(name):
        if name in ENV_NAMES:
            try:
                return getattr(importlib.import_module(module), name)
            except ImportError as e:  # PettingZoo, Gymnasium or NumPy not installed: name the extra
                error = missing_extra(e, f"{package}.{name}")
                if error is None:
                    raise
                raise error from None
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    return __getattr__
