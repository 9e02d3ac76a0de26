"""Every agent of every world offers the one agent protocol (belief.agents.protocol), and the runners call
agents only through it (no hasattr / isinstance probing of agent objects)."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from pathlib import Path

import pytest

import belief.agents
from belief.agents.protocol import Agent, AgentBase

RUNNERS = Path(__file__).resolve().parents[2] / "app" / "runners"


def _agent_classes() -> set:
    """Every class of belief.agents.* that can act (defines ``act`` or ``choose``), abstract bases aside."""
    found = set()
    for mod in pkgutil.walk_packages(belief.agents.__path__, "belief.agents."):
        if mod.name == "belief.agents.protocol":
            continue
        module = importlib.import_module(mod.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == module.__name__ and ("act" in vars(cls) or "choose" in vars(cls)):
                found.add(cls)
    return found


def _household_task():
    from belief.envs.household import environment as hv
    _, infos = hv.parallel_env(seed=0).reset()
    return infos["alice"]["task"]


def _maze_layout():
    from belief.envs.maze import capture
    return capture.raw_env(seed=0).layout_meta()


def _make(cls):
    """An instance with default arguments (the smallest a runner would pass)."""
    from belief.agents.bomb.llm import LLMBombAgent
    from belief.agents.blocks.oracle import BlocksOracle
    from belief.agents.transport.cobel import TransportAgent
    from belief.envs.blocks.tasks import generate

    module = cls.__module__
    if cls is LLMBombAgent:
        from belief.llm.client import LLMClient, LLMConfig
        return cls("alpha", LLMClient(LLMConfig(base_url="http://127.0.0.1:9/v1", model="m")))
    if cls is BlocksOracle:
        return cls("alice", generate(0, None))
    if cls is TransportAgent:
        return cls("alice")
    if ".guandan." in module:
        if cls.__name__ == "GuandanLLMAgent":
            from belief.llm.client import LLMClient, LLMConfig
            return cls("player_0", LLMClient(LLMConfig(base_url="http://127.0.0.1:9/v1", model="m")))
        return cls("player_0")
    if ".bomb." in module or ".blocks." in module:
        return cls("alpha" if ".bomb." in module else "alice")
    if ".hanabi." in module:
        return cls("alice", "bob")
    if ".household." in module:
        return cls("alice", _household_task())
    if ".maze." in module:
        return cls("alice", "bob", "thief", _maze_layout())
    if ".overcooked." in module:
        from belief.agents.overcooked.llm import LLMChef
        if cls is LLMChef:
            from belief.llm.client import LLMClient, LLMConfig
            return cls("alice", LLMClient(LLMConfig(base_url="http://127.0.0.1:9/v1", model="m")))
        if cls.__name__ == "BeliefChef":
            return cls("alice", "bob", "cramped_room")
        if cls.__name__ in ("GreedyChef", "GreedyYieldChef"):
            return cls("alice", "cramped_room")
        return cls("alice")
    raise AssertionError(f"no default construction for {cls.__qualname__}: add one to this test")


@pytest.mark.parametrize("cls", sorted(_agent_classes(), key=lambda c: (c.__module__, c.__qualname__)),
                         ids=lambda c: f"{c.__module__.split('.')[-2]}.{c.__qualname__}")
def test_every_agent_offers_the_protocol(cls):
    if inspect.isabstract(cls) or "choose" in vars(cls) and "NotImplementedError" in inspect.getsource(vars(cls)["choose"]):
        pytest.skip("an abstract base")
    agent = _make(cls)
    assert isinstance(agent, Agent) and isinstance(agent, AgentBase)
    for method in ("reset", "perceive", "act", "message", "answer"):
        assert callable(getattr(agent, method))
    assert isinstance(agent.name, str) and agent.name


def test_every_world_has_agents():
    worlds = {c.__module__.split(".")[2] for c in _agent_classes()}
    assert worlds == {"blocks", "bomb", "guandan", "hanabi", "household", "maze", "overcooked", "transport"}


def test_the_base_capabilities_are_no_ops():
    class Waiter(AgentBase):
        name = "w"

        def act(self, observation, info):
            return 0

    w = Waiter()
    w.reset({"anything": 1})
    w.perceive(["event"], {"obs": {}})
    assert isinstance(w, Agent) and w.act(None, {}) == 0 and w.message() is None and w.answer({"text": "?"})


def _agent_names(tree: ast.Module) -> set:
    """Names a runner imports from belief.agents (the agent classes and factories)."""
    return {alias.asname or alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
            and (node.module or "").startswith("belief.agents") for alias in node.names}


@pytest.mark.parametrize("path", sorted(RUNNERS.glob("*.py")), ids=lambda p: p.name)
def test_runners_do_not_probe_agents(path):
    """No hasattr/getattr-with-default anywhere in a runner, and no isinstance/issubclass against an agent
    class: what an agent can do is the protocol's business."""
    tree = ast.parse(path.read_text())
    agent_names = _agent_names(tree)
    bad = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            continue
        fn = node.func.id
        if fn == "hasattr" or (fn == "getattr" and len(node.args) == 3):
            bad.append(f"{path.name}:{node.lineno}: {fn}(...)")
        elif fn in ("isinstance", "issubclass") and len(node.args) == 2:
            classes = {n.id for n in ast.walk(node.args[1]) if isinstance(n, ast.Name)}
            if classes & agent_names:
                bad.append(f"{path.name}:{node.lineno}: {fn}(..., {', '.join(sorted(classes & agent_names))})")
    assert not bad, "runners probe agents: " + "; ".join(bad)
