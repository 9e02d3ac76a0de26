"""belief: a symbolic belief engine for multi-agent Theory of Mind."""

import importlib

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

from belief.truth.tracker import Tracker  # online tracking (after the grammar: the trace reads message facts)
from belief.truth.checker import GroundTruth, check
from belief.truth.trace import (Action, Announce, Effect, Enter, Event, Exit, Move, Noise, Noop, Observe, Possible, Set,
                                Statement, Tell, Trace)
from belief import old_names

old_names.install()  # the module names from before the packages, deprecated: they warn for one release

__version__ = "0.1.0"

#: names loaded on first use (the store brings networkx, which a checker-only user never needs)
_LAZY = {"BeliefStore": "belief.logic.store"}


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
