"""A shared registry of example domains and scenarios, used by the demo, the CLI and the tests.

Importing it (``import belief`` does) registers the example domains by name
(:func:`belief.logic.domain.register_domain`), so a scenario's ``(:domain tomi)`` finds them.
"""

from __future__ import annotations

import functools
from importlib import resources

from belief.logic.domain import Domain, register_domain
from belief.errors import BeliefError
from belief.logic.scenario import Scenario, load_scenario

_DOMAINS = {"tomi": "tomi.pddl", "transport": "transport.pddl"}
_SCENARIOS = {"sally-anne": "sally_anne.pddl"}


def text(filename: str) -> str:
    return resources.files(__name__).joinpath(filename).read_text(encoding="utf-8")


def path(filename: str):
    return resources.files(__name__).joinpath(filename)


def domain_names() -> list[str]:
    return sorted(_DOMAINS)


def scenario_names() -> list[str]:
    return sorted(_SCENARIOS)


@functools.lru_cache(maxsize=None)
def domain(name: str) -> Domain:
    if name not in _DOMAINS:
        raise BeliefError(f"no example domain {name!r}; have: {', '.join(domain_names())}")
    return Domain.parse(text(_DOMAINS[name]))


def scenario(name: str) -> Scenario:
    if name not in _SCENARIOS:
        raise BeliefError(f"no example scenario {name!r}; have: {', '.join(scenario_names())}")
    return load_scenario(text(_SCENARIOS[name]), source=_SCENARIOS[name])


for _name in _DOMAINS:
    register_domain(_name, functools.partial(domain, _name))
