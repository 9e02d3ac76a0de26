"""The worlds' versioned names (PettingZoo's ``chess_v6`` style): ``belief.envs.bomb_v0`` and the rest, with
no file of their own.

:data:`VERSIONED` maps each name to the module that holds its ``env``, ``parallel_env`` and ``raw_env``.
:class:`VersionedNameFinder` (put on ``sys.meta_path`` by ``import belief.envs``) serves
``import belief.envs.bomb_v0`` as a module of that name holding those three objects (the very objects of
the world's module, not copies); ``belief.envs``'s ``__getattr__`` serves ``from belief.envs import
bomb_v0`` through the same import. The world is imported when its versioned name is, never before, and an
import error of the world (PettingZoo missing) propagates unchanged. A name outside the table is left to
the rest of the import system, so it fails as any missing module does.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
from collections.abc import Sequence
from types import ModuleType

from belief.envs.base.lazy_env import ENV_NAMES

#: the package the versioned names live in
PACKAGE = "belief.envs"
#: versioned name -> the module that defines its env, parallel_env and raw_env
VERSIONED: dict[str, str] = {
    "blocks_v0": "belief.envs.blocks.environment",
    "bomb_v0": "belief.envs.bomb.environment",
    "capture_v0": "belief.envs.maze.capture",
    "escape_v0": "belief.envs.maze.escape",
    "guandan_v0": "belief.envs.guandan.environment",
    "hanabi_v0": "belief.envs.hanabi.environment",
    "household_v0": "belief.envs.household.environment",
    "overcooked_v0": "belief.envs.overcooked.environment",
    "transport_v0": "belief.envs.transport.environment",
}


class _VersionedLoader(importlib.abc.Loader):
    def __init__(self, target: str):
        self.target = target

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return None  # the default: a plain module named spec.name

    def exec_module(self, module: ModuleType) -> None:
        world = importlib.import_module(self.target)
        short = module.__name__.rpartition(".")[2]
        module.__doc__ = (f"The versioned name of :mod:`{self.target}` (PettingZoo style: "
                          f"``from {PACKAGE} import {short}``): its ``env``, ``parallel_env`` and ``raw_env``.")
        for name in ENV_NAMES:
            setattr(module, name, getattr(world, name))


class VersionedNameFinder(importlib.abc.MetaPathFinder):
    """Finds ``belief.envs.<name>`` for a name of :data:`VERSIONED`, and nothing else."""

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        package, _, short = fullname.rpartition(".")
        if package != PACKAGE or short not in VERSIONED:
            return None
        return importlib.machinery.ModuleSpec(fullname, _VersionedLoader(VERSIONED[short]),
                                              origin=f"versioned name of {VERSIONED[short]}")


def install() -> None:
    """Put the finder on ``sys.meta_path`` once (after the path finders: a real file of that name would win)."""
    if not any(isinstance(f, VersionedNameFinder) for f in sys.meta_path):
        sys.meta_path.append(VersionedNameFinder())


def versioned_module(name: str) -> ModuleType:
    """``belief.envs.<name>`` imported, for ``belief.envs.__getattr__``; AttributeError outside the table."""
    if name not in VERSIONED:
        raise AttributeError(f"module {PACKAGE!r} has no attribute {name!r}")
    return importlib.import_module(f"{PACKAGE}.{name}")
