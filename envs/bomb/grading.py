"""The bomb game's ToM questions as instances of the general question model (:mod:`belief.grading.questions`),
so a bomb_v0 trace is graded on the same path as any other: the checker gives every gold answer.

:func:`belief.envs.bomb.tom.questions` samples and words the questions; here each becomes a ``knows`` /
``aware`` question on the template's fluent, with ``values`` when the template states a fact ("Bomb 2 has
changed": ``changed(bomb_2)`` is ``yes``; "a phase was just defused": ``last_defusal`` is one of the last
round's turns; "aware that you changed it": ``last_defuser`` is you).
"""

from __future__ import annotations

from belief.envs.bomb.events import f_last_defuser, turn_value
from belief.envs.bomb.world import AGENTS
from belief.envs.bomb.tom import questions, template_fluent
from belief.grading.levels import level_chain
from belief.grading.questions import Question
from belief.grading.report import GradeReport, Report, grade_trace, read_jsonl
from belief.truth.trace import Trace



def general_question(q, n_agents: int = len(AGENTS)) -> Question:
    """A :class:`belief.envs.bomb.tom.Question` as a general :class:`~belief.grading.questions.Question`."""
    chain = level_chain(q.level, q.asked, q.target)
    fluent, values = template_fluent(q.template, q.subject), None
    if q.variant == "you_changed":  # "is X aware that you changed Bomb b": you defused it last, and X knows who
        chain, fluent, values = (q.target,), f_last_defuser(q.subject), (q.asked,)
    elif q.template == "changed":
        values = ("yes",)
    elif q.template == "just_defused":  # the latest defusal happened within the last round
        values = tuple(turn_value(k) for k in range(q.turn - n_agents + 1, q.turn + 1))
    return Question(id=q.id, kind="aware" if len(chain) > 1 else "knows", chain=chain, fluent=fluent, time=q.t,
                    values=values, template=q.template, agent=q.asked, level=q.level, text=q.text)


def bomb_questions(trace) -> list[Question]:
    """Every ToM question of a bomb_v0 trace, in the general model (gold answers come from the checker)."""
    n = len(trace.meta.get("agents") or AGENTS)
    return [general_question(q, n) for q in questions(trace)]


def grade_bomb(trace, answers) -> GradeReport:
    """Grade answers (``[{"id", "answer"}]`` or ``{id: text}``) to the questions of a bomb_v0 trace."""
    return grade_trace(trace, bomb_questions(trace), answers)


def grade_files(trace_path, answers_path) -> Report:
    """The three-level table (Table 2) of an answers file (JSONL) against a bomb_v0 trace."""
    rep = grade_bomb(Trace.read(trace_path), read_jsonl(answers_path))
    return Report.from_rows(rep.rows, rep.unknown_ids)


__all__ = ["general_question", "bomb_questions", "grade_bomb", "grade_files"]
