"""Every world offers ``env()`` (AEC), ``parallel_env()`` and ``raw_env``, and passes PettingZoo's API tests
in both forms (small settings, so it is fast)."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.test import api_test, parallel_api_test

#: world module -> small keyword arguments
WORLDS = {
    "belief.envs.bomb": {"seed": 1, "max_rounds": 4},
    "belief.envs.blocks": {"seed": 1, "max_rounds": 4},
    "belief.envs.hanabi": {"seed": 1},
    "belief.envs.household": {"seed": 1, "max_steps": 12},
    "belief.envs.transport": {"world_seed": 1, "max_steps": 12},
    "belief.envs.maze.capture": {"seed": 1, "max_rounds": 5},
    "belief.envs.maze.escape": {"seed": 1, "max_rounds": 5},
}


@pytest.mark.parametrize("world", WORLDS)
def test_world_exposes_env_parallel_env_and_raw_env(world):
    module = importlib.import_module(world)
    assert all(callable(getattr(module, name)) for name in ("env", "parallel_env", "raw_env"))


@pytest.mark.parametrize("world", WORLDS)
def test_aec_api(world):
    e = importlib.import_module(world).env(**WORLDS[world])
    assert isinstance(e, AECEnv)
    api_test(e, num_cycles=60)


@pytest.mark.parametrize("world", WORLDS)
def test_parallel_api(world):
    e = importlib.import_module(world).parallel_env(**WORLDS[world])
    assert isinstance(e, ParallelEnv)
    parallel_api_test(e, num_cycles=60)


@pytest.mark.parametrize("world", [w for w in WORLDS if w.count(".") == 2])
def test_world_package_import_is_lazy(world):
    """Importing a world package (and its rules) does not import PettingZoo; its env loads on first use."""
    code = (f"import sys, {world}; assert 'pettingzoo' not in sys.modules, 'eager'; "
            f"{world}.parallel_env; assert 'pettingzoo' in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("world", WORLDS)
def test_every_world_is_built_on_the_shared_text_env(world):
    from belief.envs.base.text_env import ParallelTextEnv, TextEnv, TurnBasedTextEnv

    raw = importlib.import_module(world).raw_env
    assert issubclass(raw, TextEnv) and issubclass(raw, (TurnBasedTextEnv, ParallelTextEnv))


@pytest.mark.parametrize("name", ["bomb_v0", "blocks_v0", "hanabi_v0", "household_v0", "transport_v0", "capture_v0",
                                  "escape_v0"])
def test_versioned_names_stay_importable(name):
    module = importlib.import_module(f"belief.envs.{name}")
    assert all(callable(getattr(module, attr)) for attr in ("env", "parallel_env", "raw_env"))
