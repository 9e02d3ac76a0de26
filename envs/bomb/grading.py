"""The bomb game's ToM questions graded on the same path as any other trace: the checker gives every gold.

:mod:`belief.envs.bomb.tom` samples the questions and states what each means, once, as a question of the
general model (:mod:`belief.grading.questions`); here they are graded.
"""

from __future__ import annotations

from dataclasses import replace

from belief.envs.bomb.world import AGENTS
from belief.envs.bomb.tom import Question as BombQuestion, questions
from belief.grading.questions import Question
from belief.grading.report import GradeReport, Report, grade_trace, read_jsonl
from belief.truth.trace import Trace



def general_question(q, n_agents: int = len(AGENTS)) -> Question:
    """A question of :mod:`belief.envs.bomb.tom` as a general :class:`~belief.grading.questions.Question` (its
    own :meth:`~belief.envs.bomb.tom.Question.general`; ``n_agents`` is the number of players)."""
    if isinstance(q, BombQuestion) and q.n_agents != n_agents:
        q = replace(q, n_agents=n_agents)
    return q.general()


def bomb_questions(trace) -> list[Question]:
    """Every ToM question of a bomb_v0 trace, in the general model (gold answers come from the checker)."""
    return [q.general() for q in questions(trace)]


def grade_bomb(trace, answers) -> GradeReport:
    """Grade answers (``[{"id", "answer"}]`` or ``{id: text}``) to the questions of a bomb_v0 trace."""
    return grade_trace(trace, bomb_questions(trace), answers)


def grade_files(trace_path, answers_path) -> Report:
    """The three-level table (Table 2) of an answers file (JSONL) against a bomb_v0 trace."""
    rep = grade_bomb(Trace.read(trace_path), read_jsonl(answers_path))
    return Report.from_rows(rep.rows, rep.unknown_ids)


__all__ = ["general_question", "bomb_questions", "grade_bomb", "grade_files"]
