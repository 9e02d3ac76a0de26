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
from belief.formula import Atom, Believes, Fact, Formula, Not, Stance, Unsure, Var

__version__ = "0.1.0"

__all__ = [
    "Atom", "Believes", "Fact", "Formula", "Not", "Stance", "Unsure", "Var",
    "BatchError", "BeliefConflictError", "BeliefError", "BeliefSyntaxError", "BeliefTypeError", "QueryError",
    "TraceError",
]
