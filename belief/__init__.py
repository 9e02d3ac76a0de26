"""belief: a symbolic belief engine for multi-agent Theory of Mind."""

import importlib
from typing import TYPE_CHECKING

from belief.errors import (
    BatchError,
    BeliefConflictError,
    BeliefError,
    BeliefSyntaxError,
    BeliefTypeError,
    QueryError,
    TraceError,
)
from belief.logic.formula import Atom, Believes, Fact, Formula, Not, Stance, Unsure, Var

# the grammar registers the parsers behind Formula.parse / Fact.parse; example_domains registers the example
# domains by name (a scenario's "(:domain tomi)"): importing them here makes both hold whatever module is
# imported first (belief.examples, which loads scenarios and so the store and networkx, is left to its users)
from belief import grammar  # noqa: F401
from belief.logic import example_domains  # noqa: F401
from belief import old_names

if TYPE_CHECKING:  # the names of _LAZY, for type checkers
    from belief.logic.store import BeliefStore
    from belief.truth.checker import GroundTruth, check
    from belief.truth.tracker import Tracker
    from belief.truth.trace import (Action, Announce, Effect, Enter, Event, Exit, Move, Noise, Noop, Observe,
                                    Possible, Set, Statement, Tell, Trace)

old_names.install()  # the module names from before the packages, deprecated: they warn for one release

__version__ = "0.1.0"

_TRACE_NAMES = ("Action", "Announce", "Effect", "Enter", "Event", "Exit", "Move", "Noise", "Noop", "Observe",
                "Possible", "Set", "Statement", "Tell", "Trace")
#: names loaded on first use: the tracker, the checker and the trace (its pydantic models) cost more to import
#: than the rest of the package together, and the store brings networkx; a command line that only prints its
#: help, a parser or a checker-only user never needs some of them (tests/test_startup.py)
_LAZY = {"BeliefStore": "belief.logic.store", "Tracker": "belief.truth.tracker", "GroundTruth": "belief.truth.checker",
         "check": "belief.truth.checker", **{name: "belief.truth.trace" for name in _TRACE_NAMES}}


def __getattr__(name: str) -> object:
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'belief' has no attribute {name!r}")


__all__ = [
    "Atom", "Believes", "Fact", "Formula", "Not", "Stance", "Unsure", "Var",
    "BatchError", "BeliefConflictError", "BeliefError", "BeliefSyntaxError", "BeliefTypeError", "QueryError",
    "TraceError", "Tracker", "GroundTruth", "check", "BeliefStore",
    "Trace", "Event", "Enter", "Exit", "Move", "Set", "Statement", "Observe", "Possible", "Tell", "Announce", "Noop",
    "Noise", "Effect", "Action",
]
