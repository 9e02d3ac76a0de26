"""The files of one episode beside each other, in the grading format, for any world's ``belief run WORLD --out``.

``<stem>.trace.jsonl`` (the global trace; its meta names the episode), ``<stem>.questions.jsonl`` (every question
in the grading format, :mod:`belief.grading.questions`, naming the episode) and ``<stem>.answers.jsonl`` (the
agents' free-text answers, naming the episode and the trace's digest), so that::

    belief grade <stem>.trace.jsonl <stem>.answers.jsonl --questions <stem>.questions.jsonl

regrades the episode, and a tool outside the project can audit every question from the files alone.
"""

from __future__ import annotations

from pathlib import Path

from belief.files.outputs import atomic_write_text, jsonl_text
from belief.grading.report import trace_digest

ROLES = ("trace", "questions", "answers")


def file_names(stem: str) -> dict[str, str]:
    """The file names of episode ``stem``, by role."""
    return {role: f"{stem}.{role}.jsonl" for role in ROLES}


def episode_texts(stem: str, trace, questions, answers: list[dict]) -> dict[str, str]:
    """``{file name: text}`` of one episode: ``questions`` are general questions
    (:class:`~belief.grading.questions.Question`), ``answers`` ``{"id", "answer", ...}`` records."""
    trace.meta["episode"] = stem
    digest = trace_digest(trace)
    names = file_names(stem)
    return {names["trace"]: trace.dumps(),
            names["questions"]: jsonl_text([{**q.to_json(), "episode": stem} for q in questions]),
            names["answers"]: jsonl_text([{**a, "episode": stem, "trace": digest} for a in answers])}


def write_episode_files(out_dir: Path, rows: list[dict]) -> int:
    """Write (atomically) the ``_files`` each row carries into ``out_dir`` and drop them from the rows; the
    number of files written."""
    n = 0
    for row in rows:
        for name, text in (row.pop("_files", None) or {}).items():
            Path(out_dir).mkdir(parents=True, exist_ok=True)
            atomic_write_text(Path(out_dir) / name, text)
            n += 1
    return n


__all__ = ["ROLES", "episode_texts", "file_names", "write_episode_files"]
