"""The worlds' versioned names (``belief.envs.bomb_v0``, PettingZoo style) have no files of their own
(:mod:`belief.envs.versions` serves them): every spelling a user writes gives a module of that name holding
the world's own ``env``, ``parallel_env`` and ``raw_env``; a name outside the table fails as any missing
module does; ``import belief.envs`` imports none of the worlds."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from types import ModuleType

import pytest

import belief.envs

pettingzoo = pytest.importorskip("pettingzoo")

#: versioned name -> the world's package (or maze game module), whose env/parallel_env/raw_env it must give
WORLDS = {
    "blocks_v0": "belief.envs.blocks", "bomb_v0": "belief.envs.bomb", "capture_v0": "belief.envs.maze.capture",
    "escape_v0": "belief.envs.maze.escape", "guandan_v0": "belief.envs.guandan", "hanabi_v0": "belief.envs.hanabi",
    "household_v0": "belief.envs.household", "overcooked_v0": "belief.envs.overcooked",
    "transport_v0": "belief.envs.transport",
}
#: the four ways to ask for one; each leaves the versioned module in the namespace's ``result``
SPELLINGS = {
    "from": "from belief.envs import {name}\nresult = {name}",
    "import": "import belief.envs.{name}\nresult = belief.envs.{name}",
    "import as": "import belief.envs.{name} as m\nresult = m",
    "import_module": "import importlib\nresult = importlib.import_module('belief.envs.{name}')",
}


def _forget(name: str) -> None:
    """Drop a versioned module from the import system and from ``belief.envs``, so it is imported afresh."""
    sys.modules.pop(f"belief.envs.{name}", None)
    belief.envs.__dict__.pop(name, None)


@pytest.fixture
def fresh():
    names = list(WORLDS) + ["bomb_v9"]
    for name in names:
        _forget(name)
    yield
    for name in names:
        _forget(name)


def _spell(spelling: str, name: str) -> ModuleType:
    namespace: dict = {}
    exec(SPELLINGS[spelling].format(name=name), namespace)
    return namespace["result"]


@pytest.mark.parametrize("spelling", SPELLINGS)
@pytest.mark.parametrize("name", WORLDS)
def test_every_spelling_gives_the_worlds_own_env(name, spelling, fresh):
    if name == "overcooked_v0":
        pytest.importorskip("overcooked_ai_py")
    module = _spell(spelling, name)
    world = importlib.import_module(WORLDS[name])

    assert isinstance(module, ModuleType) and module.__name__ == f"belief.envs.{name}"
    assert module.__doc__ and WORLDS[name] in module.__doc__
    assert sys.modules[f"belief.envs.{name}"] is module and getattr(belief.envs, name) is module
    assert (module.env, module.parallel_env, module.raw_env) == (world.env, world.parallel_env, world.raw_env)
    aec, parallel = module.env(), module.parallel_env()
    assert isinstance(aec, pettingzoo.AECEnv) and isinstance(parallel, pettingzoo.ParallelEnv)
    assert isinstance(aec.unwrapped, module.raw_env)
    aec.close()
    parallel.close()
    assert _spell("import_module", name) is module  # asked for again: the same module, not a second one


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_every_spelling_works_in_a_fresh_interpreter(spelling):
    """Nothing but the spelling itself, in a new process: ``belief.envs`` is imported by the import, not before."""
    pytest.importorskip("overcooked_ai_py")
    lines = [SPELLINGS[spelling].format(name=name) + f"\nassert result.env is importlib.import_module("
             f"{WORLDS[name]!r}).env and result.__name__ == 'belief.envs.{name}'" for name in WORLDS]
    code = "import importlib\n" + "\n".join(lines) + "\nprint('ok')"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and r.stdout.split() == ["ok"], r.stderr


@pytest.mark.parametrize("spelling", ["import", "import as", "import_module"])
@pytest.mark.parametrize("name", ["bomb_v9", "bomb_v1", "chess_v6", "bombv0"])
def test_an_unknown_versioned_name_is_a_missing_module(name, spelling, fresh):
    with pytest.raises(ModuleNotFoundError, match=f"No module named 'belief.envs.{name}'") as e:
        _spell(spelling, name)
    assert e.value.name == f"belief.envs.{name}"
    assert f"belief.envs.{name}" not in sys.modules


@pytest.mark.parametrize("name", ["bomb_v9", "chess_v6", "Bomb_v0"])
def test_an_unknown_versioned_name_is_a_missing_attribute(name, fresh):
    with pytest.raises(ImportError, match=f"cannot import name '{name}' from 'belief.envs'"):
        _spell("from", name)
    with pytest.raises(AttributeError, match=f"module 'belief.envs' has no attribute '{name}'"):
        getattr(belief.envs, name)
    assert not hasattr(belief.envs, name)
    assert f"belief.envs.{name}" not in sys.modules


@pytest.mark.parametrize("fullname", ["belief.bomb_v0", "belief.agents.bomb_v0", "belief.envs.bomb.bomb_v0",
                                      "bomb_v0"])
def test_a_versioned_name_lives_in_belief_envs_only(fullname):
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module(fullname)
    assert fullname not in sys.modules


def test_a_world_that_fails_to_import_fails_its_versioned_name_unchanged(fresh, monkeypatch):
    """The world's own import error comes through (here: its module is blocked), and no half module stays."""
    monkeypatch.setitem(sys.modules, "belief.envs.hanabi.environment", None)
    with pytest.raises(ModuleNotFoundError, match="belief.envs.hanabi.environment"):
        importlib.import_module("belief.envs.hanabi_v0")
    assert "belief.envs.hanabi_v0" not in sys.modules and "hanabi_v0" not in belief.envs.__dict__
    with pytest.raises(ModuleNotFoundError, match="belief.envs.hanabi.environment"):
        belief.envs.hanabi_v0  # noqa: B018


def test_a_versioned_module_reloads(fresh):
    module = _spell("import", "bomb_v0")
    assert importlib.reload(module) is module
    assert module.env is importlib.import_module("belief.envs.bomb").env


def test_dir_lists_the_versioned_names():
    names = dir(belief.envs)
    assert set(WORLDS) <= set(names)
    assert {"bomb", "versions"} <= set(names)  # the real attributes stay
    assert names == sorted(names)


_REPORT = "import json, sys; print(json.dumps(sorted(sys.modules)))"


def _modules_after(code: str) -> set[str]:
    r = subprocess.run([sys.executable, "-c", code + "\n" + _REPORT], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return set(json.loads(r.stdout.splitlines()[-1]))


def _worlds_in(modules: set[str]) -> set[str]:
    """The world modules among ``modules``: environments, maze games, PettingZoo, and the versioned names."""
    heavy = {m for m in modules if m.endswith(".environment") and m.startswith("belief.envs.")}
    heavy |= {m for m in modules if m.partition(".")[0] in ("pettingzoo", "gymnasium", "overcooked_ai_py")}
    heavy |= modules & {"belief.envs.maze.capture", "belief.envs.maze.escape"}
    heavy |= modules & {f"belief.envs.{name}" for name in WORLDS}
    return heavy


def test_importing_belief_envs_imports_no_world():
    modules = _modules_after("import belief.envs\nnames = dir(belief.envs)\nhasattr(belief.envs, 'bomb_v9')")
    assert "belief.envs" in modules and "belief.envs.versions" in modules
    assert _worlds_in(modules) == set()
    # of the world packages only bomb's is imported: its translation registers with the core by design
    packages = {m.split(".")[2] for m in modules if m.startswith("belief.envs.") and m.count(".") >= 2}
    assert packages == {"base", "bomb", "versions"}


def test_a_versioned_name_imports_its_world_only():
    modules = _modules_after("import belief.envs.hanabi_v0")
    worlds = _worlds_in(modules)
    assert {"belief.envs.hanabi_v0", "belief.envs.hanabi.environment", "pettingzoo"} <= worlds
    assert {m for m in worlds if m.startswith("belief.envs.")} == {"belief.envs.hanabi_v0",
                                                                   "belief.envs.hanabi.environment"}
