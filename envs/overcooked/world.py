"""The Overcooked-AI engine (``overcooked_ai_py``, the ``overcooked`` extra), imported once and quietly.

overcooked-ai 1.1.0 imports the unmaintained ``gym`` (which prints a deprecation banner on import) and still
uses ``np.Inf``, an alias NumPy 2 removed (its planners and ``OvercookedEnv``'s default arguments need it):
:func:`engine` silences the banner and restores that one alias before importing. Nothing of its gym env class
is used. The layouts, the MDP (dynamics, rewards), the env (horizon) and the planners are the engine's; this
module only caches what is slow to build, per layout: the MDP, the motion planner, and the
``MediumLevelActionManager`` its planning agents need (seconds on the larger layouts), with the CPU seconds
each took.
"""

from __future__ import annotations

import contextlib
import functools
import io
import time
import types
import warnings

from belief.errors import BeliefError, MissingExtraError

#: the five layouts of the LLM-Coordination study -> the engine's layout names (Counter Circuit is the
#: onion-only ``counter_circuit_o_1order``, the variant the study's own benchmark script plays)
LAYOUTS = {
    "cramped_room": "cramped_room",
    "asymmetric_advantages": "asymmetric_advantages",
    "forced_coordination": "forced_coordination",
    "coordination_ring": "coordination_ring",
    "counter_circuit": "counter_circuit_o_1order",
}
#: the study's horizon (its Overcooked script runs 400 ticks per game)
HORIZON = 400
SOUP_REWARD = 20


class OvercookedError(BeliefError, ValueError):
    """A bad layout or setting of the Overcooked world."""


@contextlib.contextmanager
def quiet():
    """Swallow what the engine prints (the gym banner, "Computing MotionPlanner ...") and its warnings."""
    sink = io.StringIO()
    with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


@functools.lru_cache(maxsize=None)
def engine() -> types.SimpleNamespace:
    """The engine's classes: ``OvercookedGridworld``, ``OvercookedEnv``, ``Action``, ``Direction``,
    ``MotionPlanner``, ``MediumLevelActionManager``, ``GreedyHumanModel``, ``NO_COUNTERS_PARAMS``.
    Raises :class:`MissingExtraError` naming the ``overcooked`` extra when it is not installed."""
    import numpy as np

    if "Inf" not in np.__dict__:  # removed in NumPy 2; overcooked-ai 1.1.0 still reads it
        np.Inf = np.inf
    try:
        with quiet():
            from overcooked_ai_py.agents.agent import GreedyHumanModel
            from overcooked_ai_py.mdp.actions import Action, Direction
            from overcooked_ai_py.mdp.overcooked_env import OvercookedEnv
            from overcooked_ai_py.mdp.overcooked_mdp import OvercookedGridworld
            from overcooked_ai_py.planning.planners import (NO_COUNTERS_PARAMS, MediumLevelActionManager,
                                                            MotionPlanner)
    except ImportError as e:  # overcooked-ai, or the scipy it imports without declaring it
        raise MissingExtraError("overcooked", "belief.envs.overcooked") from e
    return types.SimpleNamespace(OvercookedGridworld=OvercookedGridworld, OvercookedEnv=OvercookedEnv,
                                 Action=Action, Direction=Direction, MotionPlanner=MotionPlanner,
                                 MediumLevelActionManager=MediumLevelActionManager,
                                 GreedyHumanModel=GreedyHumanModel, NO_COUNTERS_PARAMS=NO_COUNTERS_PARAMS)


def engine_layout(layout: str) -> str:
    if layout not in LAYOUTS:
        raise OvercookedError(f"unknown Overcooked layout {layout!r}; expected one of {', '.join(LAYOUTS)}")
    return LAYOUTS[layout]


@functools.lru_cache(maxsize=None)
def gridworld(layout: str):
    """The engine's MDP of ``layout`` (one of :data:`LAYOUTS`)."""
    name = engine_layout(layout)
    with quiet():
        return engine().OvercookedGridworld.from_layout_name(name)


#: CPU seconds each cached planner took to build: {("motion" | "mlam", layout): seconds}
SETUP_CPU_S: dict[tuple[str, str], float] = {}


@functools.lru_cache(maxsize=None)
def motion_planner(layout: str):
    """The engine's motion planner of ``layout`` (what ``OvercookedEnv.step`` needs), built once."""
    e, mdp = engine(), gridworld(layout)
    t = time.process_time()
    with quiet():
        mp = e.MotionPlanner(mdp, e.NO_COUNTERS_PARAMS["counter_goals"])
    SETUP_CPU_S[("motion", layout)] = time.process_time() - t
    return mp


@functools.lru_cache(maxsize=None)
def action_manager(layout: str):
    """The engine's ``MediumLevelActionManager`` of ``layout`` (its planning agents' set-up), built once."""
    e, mdp = engine(), gridworld(layout)
    t = time.process_time()
    with quiet():
        mlam = e.MediumLevelActionManager(mdp, e.NO_COUNTERS_PARAMS)
    SETUP_CPU_S[("mlam", layout)] = time.process_time() - t
    return mlam


def new_engine_env(layout: str, horizon: int):
    """A fresh ``OvercookedEnv`` of ``layout`` with ``horizon`` steps, sharing the cached motion planner."""
    e = engine()
    with quiet():
        oc = e.OvercookedEnv.from_mdp(gridworld(layout), horizon=horizon, info_level=0)
    oc._mp = motion_planner(layout)
    return oc


__all__ = ["LAYOUTS", "HORIZON", "SOUP_REWARD", "OvercookedError", "SETUP_CPU_S", "action_manager", "engine",
           "engine_layout", "gridworld", "motion_planner", "new_engine_env", "quiet"]
