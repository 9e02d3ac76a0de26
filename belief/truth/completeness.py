"""Is a trace file whole (it ends with its end marker) or was it cut short? Commands that answer from a
trace file (``grade``, ``explain``) refuse one that is not whole."""

from __future__ import annotations

from pathlib import Path

from belief.errors import TraceError
from belief.truth.trace import Trace


def trace_completeness(path) -> str | None:
    """Why the trace file at `path` is not complete, or None when it is whole.

    A complete trace ends with a newline and its end marker (``Trace.dumps`` writes one); a file cut
    mid-line, cut at a line boundary, or malformed is reported with the reason.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        return f"cannot read it: {e}"
    if not text.strip():
        return "it is empty"
    if not text.endswith("\n"):
        return f"it is cut in the middle of line {text.count(chr(10)) + 1}"
    try:
        trace = Trace.loads(text, source=str(path))
    except TraceError as e:
        return f"it is malformed: {e}"
    if not trace.ended:
        return f"it has no end marker after its {len(trace)} event(s) (cut short?)"
    return None


def trace_is_complete(path) -> bool:
    return trace_completeness(path) is None


__all__ = ["trace_completeness", "trace_is_complete"]
