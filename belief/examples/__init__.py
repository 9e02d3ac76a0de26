"""A shared registry of example domains and scenarios, used by the demo, the CLI and the tests.

The example domains are registered by name by :mod:`belief.logic.example_domains` (``import belief`` imports
it), so a scenario's ``(:domain tomi)`` finds them; :func:`domain` is that module's.
"""

from __future__ import annotations

from importlib import resources

from belief.errors import BeliefError
from belief.logic.example_domains import DOMAIN_FILES, domain  # noqa: F401  (examples.domain(name))
from belief.logic.scenario import Scenario, load_scenario

_SCENARIOS = {"sally-anne": "sally_anne.pddl"}


def text(filename: str) -> str:
    return resources.files(__name__).joinpath(filename).read_text(encoding="utf-8")


def path(filename: str):
    return resources.files(__name__).joinpath(filename)


def domain_names() -> list[str]:
    return sorted(DOMAIN_FILES)


def scenario_names() -> list[str]:
    return sorted(_SCENARIOS)


def scenario(name: str) -> Scenario:
    if name not in _SCENARIOS:
        raise BeliefError(f"no example scenario {name!r}; have: {', '.join(scenario_names())}")
    return load_scenario(text(_SCENARIOS[name]), source=_SCENARIOS[name])
