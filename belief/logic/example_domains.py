"""The built-in example domains (``tomi``, ``transport``), registered by name when imported (``import belief``
does), so a scenario's ``(:domain tomi)`` finds them.

Apart from :mod:`belief.examples` (which re-exports :func:`domain`) because that one loads scenarios too, and
with them the belief store: ``import belief`` registering the domains then costs no networkx.
"""

from __future__ import annotations

import functools
from importlib import resources

from belief.errors import BeliefError
from belief.logic.domain import Domain, register_domain

#: example domain name -> its file in the belief/examples folder
DOMAIN_FILES = {"tomi": "tomi.pddl", "transport": "transport.pddl"}


def example_text(filename: str) -> str:
    """A file of the belief/examples folder (read as a resource, without importing that package)."""
    return resources.files("belief").joinpath("examples", filename).read_text(encoding="utf-8")


@functools.lru_cache(maxsize=None)
def domain(name: str) -> Domain:
    if name not in DOMAIN_FILES:
        raise BeliefError(f"no example domain {name!r}; have: {', '.join(sorted(DOMAIN_FILES))}")
    return Domain.parse(example_text(DOMAIN_FILES[name]))


for _name in DOMAIN_FILES:
    register_domain(_name, functools.partial(domain, _name))
