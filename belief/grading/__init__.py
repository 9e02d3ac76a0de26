"""Grading: questions in the general model (:mod:`~belief.grading.questions`) and their wording
(:mod:`~belief.grading.render`), the selection of questions where ToM is needed
(:mod:`~belief.grading.selector`), the panel of shortcuts (:mod:`~belief.grading.shortcuts`) and the ToM
tables beside them (:mod:`~belief.grading.trivial`), reading free-text answers
(:mod:`~belief.grading.answers`), graded rows and reports (:mod:`~belief.grading.report`), their files
(:mod:`~belief.grading.files`) and confidence intervals (:mod:`~belief.grading.stats`).

``from belief.grading import grade, GradeReport, ...`` keeps working as when this was one module.
"""

from belief.grading.report import (  # noqa: F401
    episode_id,
    read_answer,
    graded_row,
    GradeReport,
    answers_by_id,
    level_question,
    grade_questions,
    grade_trace,
    grade,
    Report,
    GradingError,
    LEVELS,
    LEVEL_TITLES,
    ROW_COLUMNS,
    BREAKDOWNS,
    UNREADABLE,
    MISSING,
    read_jsonl,
)

__all__ = ['episode_id', 'read_answer', 'graded_row', 'GradeReport', 'answers_by_id', 'level_question', 'grade_questions', 'grade_trace', 'grade', 'Report', 'GradingError', 'LEVELS', 'LEVEL_TITLES', 'ROW_COLUMNS', 'BREAKDOWNS', 'UNREADABLE', 'MISSING', 'read_jsonl']
