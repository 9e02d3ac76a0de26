"""Files of grading: questions and answers in (JSONL, checked against the trace's episode), graded rows out
(JSONL or CSV, written atomically, never over an existing file without ``force`` nor over an input)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

from belief.grading.questions import GradingError, Question, question_from_dict
from belief.grading.report import ROW_COLUMNS, GradeReport, read_jsonl
from belief.files.outputs import refuse_existing, same_file, write_csv, write_jsonl
from belief.truth.completeness import read_complete_trace  # noqa: F401  (re-exported: grade reads traces with it)

OUTPUT_FORMATS = (".jsonl", ".csv")


def _check_episode(named, expected: str, where: str) -> None:
    if named is None:
        raise GradingError(f"{where}: no \"episode\"; each record must name its episode (this trace is "
                           f"{expected!r})")
    if named != expected:
        raise GradingError(f"{where}: episode {named!r}, but the trace is episode {expected!r}: these answers "
                           f"belong to another episode")


def load_answers(path, episode: str, digest: Optional[str] = None) -> list[dict]:
    """The answer records of a JSONL file (``{"id", "answer", "episode"}``, optionally ``"trace"``), each
    naming ``episode``; an ``answer`` must be a string (or null: unanswered).

    A record that carries ``"trace"`` (the :func:`~belief.grading.report.trace_digest` of the trace it was made
    for, as runs write it) must carry `digest`, this trace's own: answers of another episode relabelled with
    this episode's name are refused, not graded.
    """
    records = read_jsonl(path)
    for n, rec in enumerate(records, 1):
        where = f"{path}: answer {n}"
        if not isinstance(rec, dict):
            raise GradingError(f"{where}: an answer must be a JSON object {{\"id\", \"answer\", \"episode\"}}")
        _check_episode(rec.get("episode"), episode, where)
        made_for = rec.get("trace")
        if made_for is not None and digest is not None and made_for != digest:
            shown = repr(made_for) if len(repr(made_for)) <= 20 else repr(made_for)[:17] + "..."
            raise GradingError(f"{where}: made for the trace {shown}, not this one ({digest[:12]}...): these "
                               f"answers belong to another episode, whatever their \"episode\" says")
        text = rec.get("answer")
        if text is not None and not isinstance(text, str):
            raise GradingError(f"{where}: \"answer\" must be a string (the free-text answer), got "
                               f"{type(text).__name__} {json.dumps(text)[:40]}")
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
