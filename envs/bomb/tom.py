"""ToM questions of the bomb game: sampling and wording only; every answer comes from :mod:`belief.truth.checker`.

After every action the acting agent ("you") is asked the study's three levels about a seeded teammate X:
introspection "Do you know F?", first order "Does X know F?", second order "Is X aware that you know F?".
Three labelled sets:

* ``study``: as in the study, about the action just taken and its consequence: a move (or a move that
  failed) asks about the contents of the destination room; an inspection, or a tool that did not match,
  about the bomb's sequence; a defused phase about the bomb's change (the second-order question asks
  whether X is aware that *you* changed it); any other failed action about the current room.
* ``probe``: a seeded random template and subject (contents of any room; sequence, change or latest
  defusal of a bomb whose room the asked agent has learned), for coverage;
* ``selected``: the questions where ToM is needed (:mod:`belief.grading.selector`): after every turn, cells
  "Does X know F?" and "Is X aware that Y knows [that ...] F?" (chains of 1 to 4 agents, not the asked agent
  alone) on the contents of every room and the sequence and place of every bomb, kept where their gold
  differs from a shortcut of the panel (:mod:`belief.grading.shortcuts`) or shows a named phenomenon, balanced
  per template (:func:`selected_template`: ``knows/contents``, ``knows/bomb``, ``aware``) once the episode is
  over.

Each question is one question of the general model (:meth:`Question.general`: chain, fluent, values), worded
by the one renderer with this world's names (:data:`PHRASING`); its gold is
:func:`belief.grading.questions.gold_answer` on the global trace, and the agents answer the same question
from their own record (:func:`belief.grading.questions.private_answer`). The study's three templates are
stated once, here:

Templates and the checker queries behind them (fluents of :mod:`belief.envs.bomb.events`; ``K(c, f)`` is
``GroundTruth.knows_chain(c, f)``: the chain's agents know, and know that the others know, f's current
value):

==============  ==========================  ====================================================
template        fact F                      introspection / first order / second order
==============  ==========================  ====================================================
contents        contents of Room r          K(you) / K(X) / K(X, you) on ``contents(room_r)``
sequence        sequence of Bomb b          the same on ``seq(bomb_b)``
changed         Bomb b has changed          F and the same on ``changed(bomb_b)``; in the study set
                                            the second order asks "aware that you changed it":
                                            you defused its latest phase and K(X) on
                                            ``last_defuser(bomb_b)``
just_defused    a phase of Bomb b was just  F (latest defusal within the last round) and the same
                defused                     on ``last_defusal(bomb_b)``
==============  ==========================  ====================================================
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field, replace
from typing import Optional, Union

from belief.truth.checker import check
from belief.truth.tracker import Tracker
from belief.envs.bomb.events import (f_changed, f_contents, f_in, f_last_defusal, f_last_defuser, f_seq,
                                     turn_value)
from belief.envs.bomb.world import AGENTS, bomb_name, room_name
from belief.envs.base.labels import LabelledQuestion
from belief.errors import TraceError
from belief.grading import questions as model
from belief.grading.levels import LEVELS, level_chain
from belief.grading.render import Phrasing, render
from belief.grading.selector import Cell, Limits, Selector, chains
from belief.grading.shortcuts import Panel

TEMPLATES = ("contents", "changed", "just_defused", "sequence")
SETS = ("study", "probe", "selected")
ACTION_NAMES = ("move", "inspect", "apply", "unrecognised")
_TURN = re.compile(r"\bturn (\d+)\b")
#: the study's second-order wording (Li et al.)
STUDY_AWARE = "Based on the observation and previous history, is {x} aware of the fact that {rest}?"
#: the deepest chain of the selected questions
DEPTH = 4
#: the selected set's balance: two questions per template and turn, from 32 cells examined
LIMITS = Limits(per_time=2, examined=32)


def _number(subject: str) -> int:
    return int(subject.rsplit("_", 1)[-1])


def _fact(fluent: tuple, values: Optional[tuple]) -> str:
    """What is known, in the study's words (:class:`belief.grading.render.Phrasing`)."""
    pred, n = fluent[0], _number(fluent[1])
    bomb = bomb_name(n)
    if pred == "contents":
        return f"the contents of {room_name(n)}"
    if pred == "seq":
        return f"the sequence of {bomb}"
    if pred == "in":
        return f"where {bomb} is"
    if pred == "changed":
        if values == ("yes",):
            return f"that the state and remaining sequence of {bomb} has been changed"
        return f"whether the state and remaining sequence of {bomb} has been changed"
    if pred == "last_defusal":
        return f"that a phase of {bomb} has just been defused" if values else f"when a phase of {bomb} was defused"
    if pred == "last_defuser":
        who = f"{values[0].capitalize()} defused" if values else "who defused"
        return f"that {who} the latest phase of {bomb}" if values else f"{who} the latest phase of {bomb}"
    return " ".join(fluent)


def _special(q: model.Question) -> Optional[str]:
    """The study's "is X aware that you changed Bomb b" (a first-order question about who defused it)."""
    if (q.fluent is not None and q.fluent[0] == "last_defuser" and q.values == (q.agent,) and len(q.chain) == 1
            and q.chain[0] != q.agent):
        return STUDY_AWARE.format(x=q.chain[0].capitalize(),
                                  rest=f"you have changed the state and remaining sequence of "
                                       f"{bomb_name(_number(q.fluent[1]))}")
    return None


#: the bomb world's names and phrasing for the one renderer
PHRASING = Phrasing(agent=str.capitalize, fact=_fact, aware=STUDY_AWARE, special=_special)


def selected_template(cell: Cell) -> str:
    """The selected set's templates: "Does X know F?" on a room's contents (``knows/contents``) or on a bomb
    (its sequence or place: ``knows/bomb``), and every "Is X aware that Y knows [that ...] F?" (``aware``; its
    order, 2 to 4, is the question's ``order``)."""
    if len(cell.chain) > 1:
        return "aware"
    return "knows/contents" if cell.fluent[0] == "contents" else "knows/bomb"


def template_fluent(template: str, subject: int) -> tuple:
    return {"contents": f_contents, "sequence": f_seq, "changed": f_changed,
            "just_defused": f_last_defusal}[template](subject)


def study_question(qid: str, t: int, level: str, asked: str, target: str, template: str, subject: int, turn: int,
                   variant: str = "", n_agents: int = 3) -> model.Question:
    """The one meaning of a study question: ``knows`` / ``aware`` on the template's fluent, with ``values`` when
    the template states a fact ("Bomb 2 has changed": ``changed(bomb_2)`` is ``yes``; "a phase was just
    defused": ``last_defusal`` is one of the last round's turns; "aware that you changed it": ``last_defuser``
    is you and X knows it)."""
    chain = level_chain(level, asked, target)
    fluent, values = template_fluent(template, subject), None
    if variant == "you_changed":
        chain, fluent, values = (target,), f_last_defuser(subject), (asked,)
    elif template == "changed":
        values = ("yes",)
    elif template == "just_defused":
        values = tuple(turn_value(k) for k in range(turn - n_agents + 1, turn + 1))
    q = model.Question(id=qid, kind="aware" if len(chain) > 1 else "knows", chain=chain, fluent=fluent, time=t,
                       values=values, template=template, agent=asked, level=level)
    return replace(q, text=render(q, PHRASING))


@dataclass
class Question(LabelledQuestion):
    """A study or probe question: the study's labels and its general question (:meth:`general`)."""

    id: str
    t: int               # index of the trace event after which the question is asked
    turn: int
    round: int
    asked: str
    target: str
    level: str
    template: str
    subject: int
    text: str
    set: str = "study"
    variant: str = ""    # "you_changed" for the study's second-order change question
    answer: Optional[bool] = None
    n_agents: int = 3
    shortcuts: dict = field(default_factory=dict)  # the panel's answers (belief.grading.shortcuts), by name

    def general(self) -> model.Question:
        return study_question(self.id, self.t, self.level, self.asked, self.target, self.template, self.subject,
                              self.turn, self.variant, self.n_agents)

    def public(self) -> dict:
        """What the asked agent is shown: the labels and the general question (no answer, no shortcuts)."""
        d = super().public()
        d.pop("shortcuts", None)
        d["question"] = self.general().to_json()
        return d


@dataclass
class SelectedQuestion:
    """A question of the selected set: the general question, asked of ``asked`` after ``turn``."""

    id: str
    t: int
    turn: int
    round: int
    asked: str
    question: model.Question
    gold: str
    shortcuts: dict = field(default_factory=dict)
    set: str = "selected"

    @property
    def template(self) -> str:
        return str(self.question.template)

    @property
    def text(self) -> str:
        return str(self.question.text)

    @property
    def level(self) -> Optional[str]:
        return None

    def general(self) -> model.Question:
        return self.question

    def public(self) -> dict:
        return {"id": self.id, "t": self.t, "turn": self.turn, "asked": self.asked, "text": self.text,
                "set": self.set, "question": self.question.to_json()}

    def to_json(self) -> dict:
        return {**self.public(), "round": self.round, "gold": self.gold, "shortcuts": dict(self.shortcuts)}


AnyQuestion = Union[Question, SelectedQuestion]


def fact_holds(truth, template: str, subject: int, turn: int, at: int, n_agents: int = 3) -> bool:
    """Is the proposition of a yes/no template true (contents and sequence always have a value)?"""
    if template == "changed":
        return truth.reality(f_changed(subject), at) == "yes"
    if template == "just_defused":
        v = truth.reality(f_last_defusal(subject), at)
        return bool(v) and v.startswith("turn_") and int(v[5:]) > turn - n_agents
    return True


def answer(truth, level: str, asked: str, target: str, template: str, subject: int, turn: int, at: int,
           variant: str = "", n_agents: int = 3) -> bool:
    """The exact answer of one study question: :func:`~belief.grading.questions.gold_answer` of its general
    question on ``truth`` (a :class:`~belief.truth.ground.GroundTruth`)."""
    q = study_question("q", at, level, asked, target, template, subject, turn, variant, n_agents)
    return model.gold_answer(truth, q) == model.YES


def _turn_of(ev) -> Optional[int]:
    m = _TURN.search(ev.source or "")
    return int(m.group(1)) if m else None


def _study_subject(p: dict) -> tuple[str, int, str]:
    """(template, subject, variant) of the question about the action just taken."""
    kind, valid = p.get("kind"), p.get("valid")
    if kind == "move":
        return "contents", int(p["to"] if valid else (p.get("target") if p.get("target") is not None else p["to"])), ""
    if kind == "apply" and valid and p.get("defused_phase"):
        return "changed", int(p["bomb"]), "you_changed"
    if kind in ("inspect", "apply") and valid and p.get("bomb") is not None:
        return "sequence", int(p["bomb"]), ""
    return "contents", int(p["from"]), ""


class QuestionStream:
    """Questions of a bomb_v0 trace, turn by turn, with exact answers from the checker.

    ``feed(event)`` returns the questions of a turn once the turn's events are complete (when an event of
    a later turn arrives); ``flush()`` returns the last turn's. The selected set is chosen online (each
    question from the trace so far) and trimmed to balance once the trace is complete: :meth:`kept` gives
    the ids that stay (every study and probe question stays). Pure: the same trace gives the same questions.
    With ``selected=False`` only the study and probe sets are asked.
    """

    def __init__(self, meta, seed=None, probes: bool = True, selected: bool = True):
        self.meta = meta
        self.seed = meta.get("seed") if seed is None else seed
        self.agents = tuple(meta.get("agents") or AGENTS)
        self.rooms = tuple(meta["map"]["rooms"])
        self.bombs = tuple(sorted(int(b) for b in meta["bombs"]))
        self.probes = probes
        self.tracker = Tracker(meta=meta)  # the global trace so far, checked as it comes (never re-checked)
        self._open: Optional[tuple] = None  # (turn, action event) awaiting completion
        self.selector: Optional[Selector] = (Selector(limits=LIMITS, seed=f"bomb:{self.seed}", prefix="s",
                                                      template=selected_template) if selected else None)
        self.panel: Optional[Panel] = None
        self._kept: Optional[set] = None

    @property
    def events(self):
        """The events fed so far."""
        return self.tracker.trace

    def feed(self, ev) -> list[AnyQuestion]:
        out: list[AnyQuestion] = []
        turn = _turn_of(ev)
        if self._open is not None and (turn is None or turn != self._open[0] or ev.source.endswith("start")):
            out = self._ask()
        ev = self.tracker.append(ev, renumber=True)
        if ev.kind == "action" and ev.name in ACTION_NAMES and turn is not None:
            self._open = (turn, ev, ev.t)
        elif self._open is not None:
            self._open = (*self._open[:2], ev.t)
        return out

    def flush(self) -> list[AnyQuestion]:
        return self._ask() if self._open is not None else []

    def kept(self) -> Optional[set]:
        """The ids of the selected questions the balance keeps (None without a selected set); call once the
        trace is complete (after :meth:`flush`)."""
        if self.selector is None:
            return None
        if self._kept is None:
            self._kept = {c.question.id for c in self.selector.finish()}
        return self._kept

    def cells(self, at: int, asked: str) -> list[Cell]:
        """The selected set's cells after a turn of ``asked``: every chain of 1 to 4 agents but ``asked`` alone,
        on the contents of every room and the sequence and place of every bomb."""
        fluents = ([f_contents(r) for r in self.rooms] + [f_seq(b) for b in self.bombs]
                   + [f_in(b) for b in self.bombs])
        return [Cell(at, "knows" if len(c) == 1 else "aware", c, f, agent=asked)
                for c in chains(self.agents, DEPTH) if c != (asked,) for f in fluents]

    def _ask(self) -> list[AnyQuestion]:
        turn, act, last = self._open
        self._open = None
        truth = self.tracker.truth()  # the truth of the events up to ``last``: the turn's last one
        if self.panel is None:
            self.panel = Panel(truth)
        self.panel.advance(truth)
        at = last
        p = act.params
        asked, rnd = act.agent, int(p.get("round", 0))
        rng = random.Random(f"bomb-tom:{self.seed}:{turn}")
        target = rng.choice([a for a in self.agents if a != asked])
        out: list[AnyQuestion] = []
        template, subject, variant = _study_subject(p)
        out += self._three(truth, "study", turn, rnd, asked, target, template, subject, variant, at)
        if self.probes:
            known = [b for b in self.bombs if truth.known((asked,), f_in(b), at)]
            options = [("contents", r) for r in self.rooms]
            for b in known:
                options.append(("sequence", b))
                if truth.reality(f_changed(b), at) == "yes":
                    options.append(("changed", b))
                    if fact_holds(truth, "just_defused", b, turn, at, len(self.agents)):
                        options.append(("just_defused", b))
            present = sorted({tpl for tpl, _ in options}, key=TEMPLATES.index)
            tpl = rng.choice(present)
            subj = rng.choice([s for t, s in options if t == tpl])
            out += self._three(truth, "probe", turn, rnd, asked, target, tpl, subj, "", at)
        if self.selector is not None:
            for c in self.selector.offer(truth, self.cells(at, asked), self.panel):
                q = c.question = replace(c.question, id=f"q{turn}-{c.question.id}", text=render(c.question, PHRASING))
                out.append(SelectedQuestion(id=q.id, t=at, turn=turn, round=rnd, asked=asked, question=q,
                                            gold=c.gold, shortcuts=dict(c.shortcuts)))
        return out

    def _three(self, truth, qset, turn, rnd, asked, target, template, subject, variant, at):
        out = []
        for level in LEVELS:
            v = variant if level == "second_order" else ""
            q = Question(id=f"q{turn}-{qset}-{level}", t=at, turn=turn, round=rnd, asked=asked, target=target,
                         level=level, template=template, subject=subject, text="", set=qset, variant=v,
                         n_agents=len(self.agents))
            general = q.general()
            q.text = str(general.text)
            q.answer = model.gold_answer(truth, general) == model.YES
            assert self.panel is not None
            q.shortcuts = self.panel.answers(general)
            out.append(q)
        return out


def questions(trace, seed=None, probes: bool = True, selected: Optional[bool] = None) -> list[AnyQuestion]:
    """Every ToM question of a bomb_v0 trace with its exact answer (pure: same trace, same questions): the study
    and probe sets, and the selected questions the balance keeps (``selected``: whether to ask them; default
    the trace meta's ``tom_selected``, else yes)."""
    meta = trace.meta
    if selected is None:
        selected = bool(meta.get("tom_selected", True))
    if meta.get("env") != "bomb_v0":
        raise TraceError(f"not a bomb_v0 trace (meta env = {meta.get('env')!r})")
    try:
        stream = QuestionStream(meta, seed, probes, selected)
        out = []
        for ev in trace:
            out.extend(stream.feed(ev))
        out.extend(stream.flush())
        kept = stream.kept()
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
        raise TraceError(f"malformed bomb_v0 trace: {type(e).__name__}: {e}") from None
    return [q for q in out if q.set != "selected" or (kept is not None and q.id in kept)]


def question_text(level, template, subject, target, variant: str = "") -> str:
    """A study question's words (asked of "you" about ``target``)."""
    return str(study_question("q", 0, level, "you", target, template, subject, 1, variant).text)


def truth(trace, level: str, asked: str, target: str, template: str, subject: int, turn: int,
          variant: str = "") -> bool:
    """The exact answer to any one question asked right after turn ``turn`` (from the general checker)."""
    last = None
    for i, ev in enumerate(trace):
        if _turn_of(ev) == turn and (ev.source or "").endswith("act"):
            last = i
    if last is None:
        raise TraceError(f"no turn {turn} in this trace")
    return answer(check(trace), level, asked, target, template, subject, turn, last, variant,
                  len(trace.meta.get("agents") or AGENTS))


__all__ = ["Question", "SelectedQuestion", "QuestionStream", "questions", "question_text", "study_question",
           "selected_template",
           "answer", "truth", "fact_holds", "template_fluent", "PHRASING", "LEVELS", "TEMPLATES", "SETS"]
