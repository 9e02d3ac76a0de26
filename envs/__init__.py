"""Environments (PettingZoo), one package per world, each with ``env()`` (AEC), ``parallel_env()`` and
``raw_env``:

=====================  ====================================  ==================
package                world                                 versioned name
=====================  ====================================  ==================
``envs.bomb``          bomb defusal (Li et al. 2023)         ``bomb_v0``
``envs.transport``     text TDW-MAT object transport         ``transport_v0``
``envs.household``     symbolic C-WAH household              ``household_v0``
``envs.blocks``        COBLOCK block building                ``blocks_v0``
``envs.hanabi``        two-player Hanabi                     ``hanabi_v0``
``envs.maze.capture``  CollabCapture                         ``capture_v0``
``envs.maze.escape``   CollabEscape                          ``escape_v0``
``envs.coordqa``       CoordinationQA questions on mazes     (questions only)
=====================  ====================================  ==================

``envs.base`` holds what they share (text env skeleton, perception log, spaces, labelled questions, token
counting). The versioned names stay importable (``from belief.envs import bomb_v0``) through
:mod:`belief.old_names`.

Importing the package registers the bomb world's rule translator with the core
(:func:`belief.llm.translation_envs.register_env`), so ``get_env("bomb")`` works once ``belief.envs`` is
imported; the core itself never imports an environment.
"""

from belief.envs.bomb import rules as bomb_rules  # noqa: F401  (registers the "bomb" translation env)
