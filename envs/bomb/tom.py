"""ToM questions of the bomb game: sampling and wording only; every answer comes from :mod:`belief.truth.checker`.

After every action the acting agent ("you") is asked the study's three levels about a seeded teammate X:
introspection "Do you know F?", first order "Does X know F?", second order "Is X aware that you know F?".
Two labelled sets:

* ``study``: as in the study, about the action just taken and its consequence: a move (or a move that
  failed) asks about the contents of the destination room; an inspection, or a tool that did not match,
  about the bomb's sequence; a defused phase about the bomb's change (the second-order question asks
  whether X is aware that *you* changed it); any other failed action about the current room.
* ``probe``: a seeded random template and subject (contents of any room; sequence, change or latest
  defusal of a bomb whose room the asked agent has learned), for coverage.

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
from dataclasses import dataclass
from typing import Optional

from belief.truth.checker import check
from belief.truth.tracker import Tracker
from belief.envs.bomb.events import f_changed, f_contents, f_in, f_last_defusal, f_last_defuser, f_seq
from belief.envs.bomb.world import AGENTS, bomb_name, room_name
from belief.envs.base.labels import LabelledQuestion, knowledge_question
from belief.errors import TraceError
from belief.grading.levels import LEVELS, level_chain

TEMPLATES = ("contents", "changed", "just_defused", "sequence")
SETS = ("study", "probe")
ACTION_NAMES = ("move", "inspect", "apply", "unrecognised")
_TURN = re.compile(r"\bturn (\d+)\b")


@dataclass
class Question(LabelledQuestion):
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


def _fact_text(template, subject) -> str:
    if template == "contents":
        return f"the contents of {room_name(subject)}"
    if template == "sequence":
        return f"the sequence of {bomb_name(subject)}"
    if template == "changed":
        return f"the state and remaining sequence of {bomb_name(subject)} has been changed"
    return f"a phase of {bomb_name(subject)} has just been defused"


def question_text(level, template, subject, target, variant: str = "") -> str:
    if variant == "you_changed":
        x = target.capitalize()
        return (f"Based on the observation and previous history, is {x} aware of the fact that you have changed "
                f"the state and remaining sequence of {bomb_name(subject)}?")
    that = "" if template in ("contents", "sequence") else "that "
    return knowledge_question(level, that + _fact_text(template, subject), target,
                              "Based on the observation and previous history, is {x} aware of the fact that you know "
                              "{fact}?")


def template_fluent(template: str, subject: int) -> tuple:
    return {"contents": f_contents, "sequence": f_seq, "changed": f_changed,
            "just_defused": f_last_defusal}[template](subject)


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
    """The exact answer of one question, from a :class:`~belief.truth.ground.GroundTruth` (global or private)."""
    if variant == "you_changed":
        return (truth.reality(f_last_defuser(subject), at) == asked
                and truth.knows_chain((target,), f_last_defuser(subject), at))
    if not fact_holds(truth, template, subject, turn, at, n_agents):
        return False
    return truth.knows_chain(level_chain(level, asked, target), template_fluent(template, subject), at)


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
    a later turn arrives); ``flush()`` returns the last turn's. Pure: the same trace gives the same
    questions.
    """

    def __init__(self, meta, seed=None, probes: bool = True):
        self.meta = meta
        self.seed = meta.get("seed") if seed is None else seed
        self.agents = tuple(meta.get("agents") or AGENTS)
        self.rooms = tuple(meta["map"]["rooms"])
        self.bombs = tuple(sorted(int(b) for b in meta["bombs"]))
        self.probes = probes
        self.tracker = Tracker(meta=meta)  # the global trace so far, checked as it comes (never re-checked)
        self._open: Optional[tuple] = None  # (turn, action event) awaiting completion

    @property
    def events(self):
        """The events fed so far."""
        return self.tracker.trace

    def feed(self, ev) -> list[Question]:
        out = []
        turn = _turn_of(ev)
        if self._open is not None and (turn is None or turn != self._open[0] or ev.source.endswith("start")):
            out = self._ask()
        ev = self.tracker.append(ev, renumber=True)
        if ev.kind == "action" and ev.name in ACTION_NAMES and turn is not None:
            self._open = (turn, ev, ev.t)
        elif self._open is not None:
            self._open = (*self._open[:2], ev.t)
        return out

    def flush(self) -> list[Question]:
        return self._ask() if self._open is not None else []

    def _ask(self) -> list[Question]:
        turn, act, last = self._open
        self._open = None
        truth = self.tracker.truth()  # the truth of the events up to ``last``: the turn's last one
        at = last
        p = act.params
        asked, rnd = act.agent, int(p.get("round", 0))
        rng = random.Random(f"bomb-tom:{self.seed}:{turn}")
        target = rng.choice([a for a in self.agents if a != asked])
        out = []
        template, subject, variant = _study_subject(p)
        out += self._three(truth, "study", turn, rnd, asked, target, template, subject, variant, at, act.t)
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
            out += self._three(truth, "probe", turn, rnd, asked, target, tpl, subj, "", at, act.t)
        return out

    def _three(self, truth, qset, turn, rnd, asked, target, template, subject, variant, at, t_act):
        out = []
        for level in LEVELS:
            v = variant if level == "second_order" else ""
            q = Question(id=f"q{turn}-{qset}-{level}", t=at, turn=turn, round=rnd, asked=asked, target=target,
                         level=level, template=template, subject=subject,
                         text=question_text(level, template, subject, target, v), set=qset, variant=v)
            q.answer = answer(truth, level, asked, target, template, subject, turn, at, v, len(self.agents))
            out.append(q)
        return out


def questions(trace, seed=None, probes: bool = True) -> list[Question]:
    """Every ToM question of a bomb_v0 trace with its exact answer (pure: same trace, same questions)."""
    meta = trace.meta
    if meta.get("env") != "bomb_v0":
        raise TraceError(f"not a bomb_v0 trace (meta env = {meta.get('env')!r})")
    try:
        stream = QuestionStream(meta, seed, probes)
        out = []
        for ev in trace:
            out.extend(stream.feed(ev))
        out.extend(stream.flush())
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
        raise TraceError(f"malformed bomb_v0 trace: {type(e).__name__}: {e}") from None
    return out


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


__all__ = ["Question", "QuestionStream", "questions", "question_text", "answer", "truth", "fact_holds",
           "template_fluent", "LEVELS", "TEMPLATES", "SETS"]
