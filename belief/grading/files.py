"""Files of grading: questions and answers in (JSONL, checked against the trace's episode), graded rows out
(JSONL or CSV, written atomically, never over an existing file without ``force`` nor over an input)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

from belief.errors import TraceError
from belief.grading.questions import GradingError, Question, question_from_dict
from belief.grading.report import ROW_COLUMNS, GradeReport, read_jsonl
from belief.files.outputs import refuse_existing, same_file, write_csv, write_jsonl
from belief.truth.completeness import trace_completeness
from belief.truth.trace import Trace

OUTPUT_FORMATS = (".jsonl", ".csv")


def read_complete_trace(path) -> Trace:
    """A trace file that is whole: one cut short (no end marker) is refused, not graded as complete."""
    reason = trace_completeness(path)
    if reason is not None:
        raise TraceError(f"{path}: incomplete trace: {reason}")
    return Trace.read(path)


def _check_episode(named, expected: str, where: str) -> None:
    if named is None:
        raise GradingError(f"{where}: no \"episode\"; each record must name its episode (this trace is "
                           f"{expected!r})")
    if named != expected:
        raise GradingError(f"{where}: episode {named!r}, but the trace is episode {expected!r}: these answers "
                           f"belong to another episode")


def load_answers(path, episode: str) -> list[dict]:
    """The answer records of a JSONL file (``{"id", "answer", "episode"}``), each naming ``episode``."""
    records = read_jsonl(path)
    for n, rec in enumerate(records, 1):
        where = f"{path}: answer {n}"
        if not isinstance(rec, dict):
            raise GradingError(f"{where}: an answer must be a JSON object {{\"id\", \"answer\", \"episode\"}}")
        _check_episode(rec.get("episode"), episode, where)
    return records


def load_questions(path, episode: Optional[str] = None) -> list[Question]:
    """The questions of a JSONL file (:mod:`belief.grading.questions`); an ``episode`` they name must match."""
    out = []
    for n, rec in enumerate(read_jsonl(path), 1):
        q, named = question_from_dict(rec, f"{path}: question {n}: ")
        if named is not None and episode is not None:
            _check_episode(named, episode, f"{path}: question {n}")
        out.append(q)
    if not out:
        raise GradingError(f"{path}: no questions")
    return out


def check_output(out, inputs, force: bool) -> None:
    """Refuse an output with an unknown format, one that would overwrite an input, or (without force) an
    existing file."""
    if out is None:
        return
    if Path(out).suffix.lower() not in OUTPUT_FORMATS:
        raise GradingError(f"{out}: the graded rows are written as .jsonl or .csv (by the file's extension)")
    for p in inputs:
        if same_file(out, p):
            raise GradingError(f"{out} is an input of this command; write the graded rows elsewhere")
    refuse_existing([out], force)


def write_rows(report: GradeReport, out) -> Path:
    """The graded rows as JSONL or CSV (columns :data:`belief.grading.report.ROW_COLUMNS`), atomically."""
    if Path(out).suffix.lower() == ".csv":
        return write_csv(out, report.rows, ROW_COLUMNS)
    return write_jsonl(out, report.rows)


__all__ = ["read_complete_trace", "load_answers", "load_questions", "check_output", "write_rows",
           "OUTPUT_FORMATS"]
