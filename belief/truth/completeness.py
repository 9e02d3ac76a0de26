"""Is a trace file whole (it ends with its end marker) or was it cut short? Commands that answer from a
trace file (``grade``, ``explain``) read it with :func:`read_complete_trace`, which refuses one that is not
whole instead of answering from part of an episode."""

from __future__ import annotations

from pathlib import Path

from belief.errors import TraceError
from belief.truth.trace import Trace


def _read(path) -> tuple[Trace | None, str | None]:
    """(the trace, None) when the file at `path` is whole, else (None, why it is not)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return None, "no such file"
    except (OSError, UnicodeDecodeError) as e:
        return None, f"cannot read it: {e}"
    if not text.strip():
        return None, "it is empty"
    if not text.endswith("\n"):
        return None, f"it is cut in the middle of line {text.count(chr(10)) + 1}"
    try:
        trace = Trace.loads(text, source=str(path))
    except TraceError as e:
        return None, f"it is malformed: {e}"
    if not trace.ended:
        return None, f"it has no end marker after its {len(trace)} event(s) (cut short?)"
    return trace, None


def trace_completeness(path) -> str | None:
    """Why the trace file at `path` is not complete, or None when it is whole.

    A complete trace ends with a newline and its end marker (``Trace.dumps`` writes one); a file cut
    mid-line, cut at a line boundary, or malformed is reported with the reason.
    """
    return _read(path)[1]


def trace_is_complete(path) -> bool:
    return trace_completeness(path) is None


def read_complete_trace(path) -> Trace:
    """The trace in the file at `path`, read once; TraceError when it is malformed or not whole (cut short:
    no end marker), so nothing is answered or graded from part of an episode."""
    trace, reason = _read(path)
    if trace is None:
        assert reason is not None  # _read gives a reason with every missing trace
        if reason.startswith("it is malformed: "):
            raise TraceError(reason[len("it is malformed: "):])
        if reason == "no such file":
            raise TraceError(f"{path}: no such file")
        raise TraceError(f"{path}: incomplete trace: {reason}")
    return trace


__all__ = ["read_complete_trace", "trace_completeness", "trace_is_complete"]
