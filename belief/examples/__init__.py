"""A shared registry of example domains and scenarios, used by the demo, the CLI and the tests."""

from __future__ import annotations

import functools
from importlib import resources

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
def domain(name: str):
    from belief.domain import Domain
    from belief.errors import BeliefError

    if name not in _DOMAINS:
        raise BeliefError(f"no example domain {name!r}; have: {', '.join(domain_names())}")
    return Domain.parse(text(_DOMAINS[name]))


def scenario(name: str):
    from belief.domain import load_scenario
    from belief.errors import BeliefError

    if name not in _SCENARIOS:
        raise BeliefError(f"no example scenario {name!r}; have: {', '.join(scenario_names())}")
    return load_scenario(text(_SCENARIOS[name]), source=_SCENARIOS[name])
