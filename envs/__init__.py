"""Environments (PettingZoo), one package per world, each with ``env()`` (AEC), ``parallel_env()`` and
``raw_env``, and one versioned name per world, as PettingZoo's ``chess_v6`` (``from belief.envs import bomb_v0``
or ``import belief.envs.bomb_v0``): a module of that name holding the world's three objects, served by the
table of :mod:`belief.envs.versions` (no file per name) and imported on first use, never by ``import belief.envs``:

=========================  ====================================  ===================
package                    world                                 versioned name
=========================  ====================================  ===================
``envs.bomb``              bomb defusal (Li et al. 2023)         ``bomb_v0``
``envs.transport``         text TDW-MAT object transport         ``transport_v0``
``envs.household``         symbolic C-WAH household              ``household_v0``
``envs.blocks``            COBLOCK block building                ``blocks_v0``
``envs.hanabi``            Hanabi for 2-5 players                ``hanabi_v0``
``envs.maze.capture``      CollabCapture                         ``capture_v0``
``envs.maze.escape``       CollabEscape                          ``escape_v0``
``envs.overcooked``        Overcooked-AI (its own engine)        ``overcooked_v0``
``envs.guandan``           Guandan (four players, two teams)     ``guandan_v0``
``envs.coordqa``           CoordinationQA questions on mazes     (questions only)
=========================  ====================================  ===================

Inside a world package one file name means one role: ``world.py`` (the world model: rules and state, no
PettingZoo), ``text.py`` (its text), ``events.py`` (what it writes to the trace), ``tom.py`` (its ToM
questions), ``environment.py`` (the PettingZoo environment). ``envs.base`` holds what they share (text env
skeleton, perception log, spaces, labelled questions, token counting).

Importing the package registers the bomb world's observation translator with the core
(:func:`belief.llm.translation_envs.register_env`), so ``get_env("bomb")`` works once ``belief.envs`` is
imported; the core itself never imports an environment.
"""

from types import ModuleType

from belief.envs import versions
from belief.envs.bomb import translation as bomb_translation  # noqa: F401  (registers the "bomb" translation env)

versions.install()  # import belief.envs.bomb_v0 and the other versioned names


def __getattr__(name: str) -> ModuleType:
    """``belief.envs.bomb_v0`` and the other versioned names, imported on first use (PEP 562)."""
    return versions.versioned_module(name)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(versions.VERSIONED))
