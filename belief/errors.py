"""One exception root for everything the library raises on bad input or bad state."""

from __future__ import annotations


class BeliefError(Exception):
    """Root of every error raised by `belief`."""


class BeliefSyntaxError(BeliefError):
    """Text that does not parse; carries line, column, the offending line with a caret, and what was expected."""

    def __init__(self, message: str, *, line: int, column: int, text_line: str = "", expected: str = "",
                 source: str | None = None):
        self.message = message
        self.line = line
        self.column = column
        self.text_line = text_line
        self.expected = expected
        self.source = source
        super().__init__(self._render())

    def _render(self) -> str:
        where = f"{self.source}:" if self.source else ""
        out = f"{where}{self.line}:{self.column}: {self.message}"
        if self.text_line:
            caret = " " * max(self.column - 1, 0) + "^"
            out += f"\n    {self.text_line}\n    {caret}"
        return out


class BeliefTypeError(BeliefError):
    """A well-formed fact that the domain rejects: unknown predicate or entity, wrong arity or argument type."""


class BeliefConflictError(BeliefError):
    """A fact that contradicts what the store already holds (e.g. a second value of a functional fluent)."""


class BatchError(BeliefError):
    """A transactional batch was rejected; `errors` lists every problem, the store is unchanged."""

    def __init__(self, errors: list[BeliefError]):
        self.errors = list(errors)
        lines = "\n".join(f"  - {e}" for e in self.errors)
        super().__init__(f"batch rejected, store unchanged ({len(self.errors)} error(s)):\n{lines}")


class TraceError(BeliefError):
    """An event or trace that is malformed or inconsistent."""


class QueryError(BeliefError):
    """A query that cannot be answered as asked."""
