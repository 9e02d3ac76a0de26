"""Grade an answers file against a bomb_v0 trace: the questions and their exact answers are regenerated
from the trace (:func:`belief.envs.bomb_tom.questions`), the free text is read by :mod:`belief.grading`."""

from __future__ import annotations

from belief.envs.bomb_tom import questions
from belief.grading import Report, grade, read_jsonl
from belief.trace import Trace


def grade_files(trace_path, answers_path) -> Report:
    """Regenerate the questions (exact answers) from a bomb_v0 trace and grade an answers file (JSONL)."""
    return grade(questions(Trace.read(trace_path)), read_jsonl(answers_path))


__all__ = ["grade_files"]
