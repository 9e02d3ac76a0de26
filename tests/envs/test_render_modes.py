"""PettingZoo's render convention in every world: a render_mode not in metadata["render_modes"] is refused
when the env is made; "human" prints and returns None; "ansi" returns the text; no mode returns None."""

import importlib

import pytest

from belief.envs.base.render import RenderModeError

#: every world's raw env (module, kwargs that make it small)
WORLDS = [("belief.envs.bomb.environment", {}), ("belief.envs.blocks.environment", {}),
          ("belief.envs.hanabi.environment", {}), ("belief.envs.household.environment", {}),
          ("belief.envs.maze.capture", {}), ("belief.envs.maze.escape", {}),
          ("belief.envs.transport.environment", {"episode": 0}),
          ("belief.envs.overcooked.environment", {"horizon": 5}), ("belief.envs.guandan.environment", {})]


def _make(module, kwargs, mode):
    return importlib.import_module(module).raw_env(render_mode=mode, **kwargs)


def test_every_world_is_listed():
    import belief.envs as envs
    import pkgutil

    worlds = {m.name for m in pkgutil.iter_modules(envs.__path__) if m.ispkg} - {"base", "coordqa"}
    listed = {m.split(".")[2] for m, _ in WORLDS}
    assert listed == worlds


@pytest.mark.parametrize("module,kwargs", WORLDS, ids=[m.split(".")[-2] + "." + m.split(".")[-1] for m, _ in WORLDS])
def test_render_modes(module, kwargs, capsys):
    with pytest.raises(ValueError, match="render_mode 'bogus'.*human, ansi") as e:
        _make(module, kwargs, "bogus")
    assert isinstance(e.value, RenderModeError)

    env = _make(module, kwargs, "ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and text.strip()
    assert capsys.readouterr().out == ""

    env = _make(module, kwargs, "human")
    env.reset(seed=0)
    assert env.render() is None
    assert capsys.readouterr().out.strip() == text.strip()

    env = _make(module, kwargs, None)
    env.reset(seed=0)
    assert env.render() is None


def test_transport_env_is_aec_and_parallel_env_is_parallel():
    from pettingzoo import AECEnv, ParallelEnv
    from pettingzoo.test import api_test

    from belief.envs.transport import environment as tv

    aec = tv.env(episode=0)
    assert isinstance(aec, AECEnv) and not isinstance(aec, ParallelEnv)
    assert isinstance(tv.parallel_env(episode=0), ParallelEnv)
    api_test(tv.env(episode=0, n_agents=1), num_cycles=20)
