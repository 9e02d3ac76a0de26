"""One exception root for everything the library raises on bad input or bad state."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


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
            shown, caret_at = excerpt(self.text_line, self.column)
            out += f"\n    {shown}\n    {' ' * caret_at}^"
        return out


#: how much of a bad line an error shows (a window around the column, the rest elided with '...')
EXCERPT_WIDTH = 100


def excerpt(text_line: str, column: int, width: int = EXCERPT_WIDTH) -> tuple[str, int]:
    """(at most ``width`` characters of ``text_line`` around ``column``, the caret's offset in them)."""
    col = max(column - 1, 0)
    if len(text_line) <= width:
        return text_line, col
    start = max(0, min(col - width // 2, len(text_line) - width))
    shown = text_line[start:start + width]
    caret = col - start
    if start > 0:
        shown, caret = "..." + shown, caret + 3
    if start + width < len(text_line):
        shown += "..."
    return shown, caret


def did_you_mean(name: str, candidates: Iterable[str]) -> str:
    """`` (did you mean 'Alice'?)`` for the closest candidate, or "" when none is close."""
    close = difflib.get_close_matches(name, sorted(candidates), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


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


#: the optional extras of the distribution (pyproject.toml, [project.optional-dependencies]) by the top-level
#: modules they install; the core install (lark, networkx, pydantic, typer, rich, openai) has none of them
EXTRA_OF_MODULE: dict[str, str] = {
    "numpy": "envs", "gymnasium": "envs", "pettingzoo": "envs",
    "unified_planning": "plan", "up_pyperplan": "plan", "up_fast_downward": "plan", "pyperplan": "plan",
    "matplotlib": "plot",
    "ray": "ray",
}


class MissingExtraError(BeliefError):
    """An optional dependency that is not installed; the message names the extra that installs it."""

    def __init__(self, extra: str, needed_by: str = "this command"):
        self.extra = extra
        super().__init__(f"{needed_by} needs the '{extra}' extra: pip install 'belief[{extra}]'")


def missing_extra(error: ImportError, needed_by: str = "this command") -> MissingExtraError | None:
    """The MissingExtraError for an import of a module one of the extras installs, else None (a bug)."""
    top = (getattr(error, "name", None) or "").partition(".")[0]
    extra = EXTRA_OF_MODULE.get(top)
    return None if extra is None else MissingExtraError(extra, needed_by)
