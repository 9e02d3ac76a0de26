"""belief: a symbolic belief engine for multi-agent Theory of Mind."""

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
from belief import old_names

old_names.install()  # `import belief.checker`, `belief.envs.bomb_v0`, ...: the names from before the packages

__version__ = "0.1.0"


__all__ = [
    "Atom", "Believes", "Fact", "Formula", "Not", "Stance", "Unsure", "Var",
    "BatchError", "BeliefConflictError", "BeliefError", "BeliefSyntaxError", "BeliefTypeError", "QueryError",
    "TraceError", "Tracker",
]
