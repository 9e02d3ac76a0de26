"""``belief grade --executor ...``: one trace's questions graded in shards, each against the same ground truth.

The checker runs once, in the calling process; its ground truth travels to the shards with the answers, and
the graded rows come back in question order, so the report equals :func:`belief.grading.report.grade_questions`'s.
"""

from __future__ import annotations

import functools
import os
from typing import Callable, Optional

from belief.app.runs.executor import run_sharded
from belief.grading.questions import GradingError
from belief.grading.report import GradeReport, answers_by_id, grade_questions

#: questions per shard: grading one is cheap, so smaller shards would not pay for starting workers
MIN_SHARD = 20_000


def grade_rows(truth, texts: dict, episode: Optional[str], questions: list) -> list[dict]:
    """The graded rows of a slice of the questions."""
    return grade_questions(truth, questions, texts, episode).rows


def grade_sharded(truth, questions: list, answers, episode: Optional[str] = None, *, executor: str = "local",
                  workers: Optional[int] = None, address: Optional[str] = None,
                  progress: Optional[Callable[[int, list], None]] = None) -> GradeReport:
    """:func:`belief.grading.report.grade_questions` over shards of `questions` on `executor` (the same report)."""
    texts = answers_by_id(answers)
    seen: set = set()
    for q in questions:
        if q.id in seen:
            raise GradingError(f"question id {q.id!r} occurs twice")
        seen.add(q.id)
    count = min(max(1, len(questions) // MIN_SHARD), 4 * (workers or os.cpu_count() or 1))
    rows = run_sharded(functools.partial(grade_rows, truth, texts, episode), questions, executor, workers, address,
                       progress=progress, count=count)
    return GradeReport(rows, sorted(set(texts) - seen), episode)


__all__ = ["MIN_SHARD", "grade_rows", "grade_sharded"]
