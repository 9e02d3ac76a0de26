"""ToM questions of the bomb game with exact yes/no answers, as a pure function of the env's global trace.

After every action the study's three levels of questions are asked to the agent that acted
("you"), about a seeded target teammate X and a seeded subject, with one of four templates:

=============  ===========================================================================
template       fact F
=============  ===========================================================================
contents       the contents of Room r (bombs not yet defused; agents are public)
changed        the state and remaining sequence of Bomb b has changed (>= 1 phase defused)
just_defused   a phase of Bomb b has just been defused (its latest defusal, within the last round)
sequence       the (remaining) sequence of Bomb b
=============  ===========================================================================

levels: introspection "Do you know F?", first_order "Does X know F?", second_order "Is X aware
that you know F?". Bomb subjects are bombs whose room the asked agent has learned.

Observation semantics (see :mod:`belief.envs.bomb_v0` for what each agent observes). Time is
counted in half-turns: turn ``k`` starts (observation) at ``2k`` and acts at ``2k+1``; questions
after turn ``k`` are evaluated at ``T = 2k+1``. A message posted at turn k has time 2k+1 and is
available to every teammate from the start of the next round; its facts are believed.

* A knows the contents of Room r iff A holds a correct record of them (from being in r at the start
  of one of its turns, from seeing a bomb vanish there, or from a message) taken no earlier than the
  contents' last change (a full defusal; these are public through the score).
* A knows the sequence of Bomb b iff A's latest record of it (its own inspection or tool result,
  seeing it vanish, a message) is correct and A's observations rule out a change since: b is
  defused, or no other agent spent a turn in b's room without leaving it (teammates' actions are
  not observed, so such a turn might have defused a phase).
* A knows that Bomb b's state changed (resp. that a phase was just defused) iff A has evidence of a
  defusal of b (resp. of its latest one): A applied the tool, saw b vanish, or was told after it.
* X is aware that A knows F iff A knows F and X's observations entail it: for contents, public
  locations show A in the room since the last change (or a message told everyone); for a
  sequence, a message (A's or a teammate's, heard by both) stated it and no agent other than A
  stayed in b's room since, or X saw b vanish with A present; for a change, a message stated the
  defusal or X saw b vanish with A present.

:class:`Epistemics` is the calculus; the checker fills it from the global trace (:func:`questions`),
and the belief agent fills its own copy from its own observations only.
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass

from belief.envs.bomb_map import AGENTS, bomb_name, room_name

LEVELS = ("introspection", "first_order", "second_order")
TEMPLATES = ("contents", "changed", "just_defused", "sequence")


@dataclass
class Rec:
    time: int        # when the recorded value held
    avail: int       # when the holder has it
    correct: bool = True
    value: tuple | None = None


@dataclass
class Msg:
    sender: str
    posted: int
    delivered: int
    facts: list


class Epistemics:
    """Records per agent and the rules that turn them into knowledge (K) and awareness (aware)."""

    def __init__(self, agents=AGENTS):
        self.agents = tuple(agents)
        self.turns: list[tuple[int, str, int, int]] = []            # (k, agent, from, to)
        self.bomb_room: dict[int, int] = {}
        self.defusals: dict[int, list[tuple[int, bool]]] = {}       # bomb -> [(time, final)]
        self.room_changes: dict[int, list[int]] = {}                # room -> times of full defusals
        self.contents: dict[str, dict[int, list[Rec]]] = {a: {} for a in self.agents}
        self.seq: dict[str, dict[int, list[Rec]]] = {a: {} for a in self.agents}
        self.change_ev: dict[str, dict[int, list[Rec]]] = {a: {} for a in self.agents}  # Rec.time = cover
        self.messages: list[Msg] = []
        self.vanish: list[tuple[int, int, int, tuple[str, ...]]] = []  # (bomb, room, time, present)

    # --- filling -------------------------------------------------------------------------------
    def add_turn(self, k, agent, frm, to):
        self.turns.append((k, agent, frm, to))

    def add_contents(self, agent, room, time, avail=None, correct=True, value=None):
        self.contents[agent].setdefault(room, []).append(Rec(time, time if avail is None else avail, correct, value))

    def add_seq(self, agent, bomb, time, avail=None, correct=True, value=None):
        self.seq[agent].setdefault(bomb, []).append(Rec(time, time if avail is None else avail, correct, value))

    def add_change_ev(self, agent, bomb, cover, avail=None):
        self.change_ev[agent].setdefault(bomb, []).append(Rec(cover, cover if avail is None else avail))

    def add_defusal(self, bomb, time, final):
        self.defusals.setdefault(bomb, []).append((time, final))

    def add_room_change(self, room, time):
        self.room_changes.setdefault(room, []).append(time)

    def add_vanish(self, bomb, room, time, present):
        """A full defusal of `bomb` in `room` seen by `present` (the actor's defusal is added separately)."""
        self.vanish.append((bomb, room, time, tuple(present)))
        for a in present:
            self.add_seq(a, bomb, time, value=())
            self.add_contents(a, room, time)
            self.add_change_ev(a, bomb, time)

    def add_message(self, sender, posted, delivered, facts, correct):
        """A broadcast message; `correct[i]` says whether facts[i] was true when posted."""
        self.messages.append(Msg(sender, posted, delivered, [dict(f, _correct=c) for f, c in zip(facts, correct)]))
        for a in self.agents:
            if a == sender:
                continue
            for f, ok in zip(facts, correct):
                if f["type"] == "contents":
                    self.add_contents(a, f["room"], posted, delivered, ok)
                elif f["type"] == "seq":
                    self.add_seq(a, f["bomb"], posted, delivered, ok, tuple(f["seq"]))
                    if not f["seq"]:
                        self.add_change_ev(a, f["bomb"], posted, delivered)
                elif f["type"] == "defused":
                    self.add_change_ev(a, f["bomb"], posted, delivered)

    # --- helpers -------------------------------------------------------------------------------
    @staticmethod
    def _latest(recs, T):
        best = None
        for r in recs or ():
            if r.avail <= T and (best is None or r.time >= best.time):
                best = r
        return best

    def _stationary_others(self, room, after, T, exclude):
        for k, a, frm, to in self.turns:
            if a != exclude and frm == to == room and after < 2 * k + 1 <= T:
                return True
        return False

    def _defusal_times(self, bomb, T):
        return sorted(t for t, _ in self.defusals.get(bomb, ()) if t <= T)

    def _defused_by(self, bomb, T):
        return any(final and t <= T for t, final in self.defusals.get(bomb, ()))

    def last_room_change(self, room, T):
        times = [t for t in self.room_changes.get(room, ()) if t <= T]
        return max(times) if times else -1

    # --- knowledge -------------------------------------------------------------------------------
    def knows(self, agent, template, subject, T) -> bool:
        if template == "contents":
            rec = self._latest(self.contents[agent].get(subject), T)
            return bool(rec and rec.correct and rec.time >= self.last_room_change(subject, T))
        if template == "sequence":
            rec = self._latest(self.seq[agent].get(subject), T)
            if not rec or not rec.correct:
                return False
            if any(rec.time < t <= T for t in self._defusal_times(subject, T)):
                return False
            if rec.value == () or self._defused_by(subject, rec.time):
                return True
            room = self.bomb_room.get(subject)
            return room is not None and not self._stationary_others(room, rec.time, T, agent)
        times = self._defusal_times(subject, T)
        if not times:
            return False
        need = times[0] if template == "changed" else times[-1]
        return any(r.avail <= T and r.time >= need for r in self.change_ev[agent].get(subject, ()))

    def aware(self, x, a, template, subject, T) -> bool:
        """Is X aware that A knows F (X's observations entail that A's entail F)?"""
        if not self.knows(a, template, subject, T):
            return False
        if template == "contents":
            last = self.last_room_change(subject, T)
            # every channel for contents is public: A's location at its turns, vanishings, broadcasts
            for k, who, frm, _to in self.turns:
                if who == a and frm == subject and 2 * k <= T and 2 * k >= last:
                    return True
            for _b, room, t, present in self.vanish:
                if room == subject and a in present and last <= t <= T:
                    return True
            for m in self.messages:
                if m.delivered <= T and m.posted >= last and any(
                        f["type"] == "contents" and f["room"] == subject and f["_correct"] for f in m.facts):
                    return True
            return False
        if template == "sequence":
            room = self.bomb_room.get(subject)
            for b, _room, t, present in self.vanish:
                if b == subject and a in present and x in present and t <= T:
                    return True
            for m in self.messages:
                if m.delivered > T:
                    continue
                for f in m.facts:
                    if f["type"] == "seq" and f["bomb"] == subject and f["_correct"]:
                        if not f["seq"]:
                            return True
                        if room is not None and not self._stationary_others(room, m.posted, T, a):
                            return True
            return False
        times = self._defusal_times(subject, T)
        need = times[0] if template == "changed" else times[-1]
        for b, _room, t, present in self.vanish:
            if b == subject and a in present and x in present and need <= t <= T:
                return True
        for m in self.messages:
            if m.delivered <= T and m.posted >= need and any(
                    f["type"] in ("defused",) and f["bomb"] == subject
                    or (f["type"] == "seq" and f["bomb"] == subject and not f["seq"] and f["_correct"])
                    for f in m.facts):
                return True
        return False


# --- questions ---------------------------------------------------------------------------------
@dataclass
class Question:
    id: str
    t: int               # index of the action event in the trace
    turn: int
    round: int
    asked: str
    target: str
    level: str
    template: str
    subject: int
    text: str
    answer: bool | None = None

    def public(self) -> dict:
        """What an agent is shown (no answer)."""
        d = asdict(self)
        d.pop("answer")
        return d

    def to_json(self) -> dict:
        return asdict(self)


def _fact_text(template, subject, you: bool) -> str:
    if template == "contents":
        return f"the contents of {room_name(subject)}"
    if template == "sequence":
        return f"the sequence of {bomb_name(subject)}"
    if template == "changed":
        return f"the state and remaining sequence of {bomb_name(subject)} has been changed"
    return f"a phase of {bomb_name(subject)} has just been defused"


def question_text(level, template, subject, target) -> str:
    fact = _fact_text(template, subject, True)
    that = "" if template in ("contents", "sequence") else "that "
    x = target.capitalize()
    if level == "introspection":
        return f"Do you know {that}{fact}?"
    if level == "first_order":
        return f"Does {x} know {that}{fact}?"
    return f"Based on the observation and previous history, is {x} aware of the fact that you know {that}{fact}?"


def answer(ep: Epistemics, level, asked, target, template, subject, T) -> bool:
    if level == "introspection":
        return ep.knows(asked, template, subject, T)
    if level == "first_order":
        return ep.knows(target, template, subject, T)
    return ep.aware(target, asked, template, subject, T)


class _Builder:
    """Replays a bomb_v0 trace into an Epistemics with the exact truth, and asks questions."""

    def __init__(self, meta, seed=None):
        self.meta = meta
        self.seed = meta.get("seed") if seed is None else seed
        self.agents = tuple(meta.get("agents") or AGENTS)
        self.rooms = tuple(meta["map"]["rooms"])
        self.ep = Epistemics(self.agents)
        self.seq0 = {int(b): tuple(v["sequence"]) for b, v in meta["bombs"].items()}
        for b, v in meta["bombs"].items():
            self.ep.bomb_room[int(b)] = v["room"]
        self.history: dict[int, list[tuple[int, tuple]]] = {b: [(-1, s)] for b, s in self.seq0.items()}
        self.known_bombs = {a: {} for a in self.agents}  # agent -> bomb -> avail
        self.pending: list[Msg] = []

    def truth_seq(self, b, t):
        val = self.seq0[b]
        for time, v in self.history[b]:
            if time <= t:
                val = v
        return val

    def truth_contents(self, r, t):
        return tuple(sorted(b for b, room in self.ep.bomb_room.items() if room == r and self.truth_seq(b, t)))

    def _learn(self, agent, bomb, avail):
        if bomb not in self.known_bombs[agent] or self.known_bombs[agent][bomb] > avail:
            self.known_bombs[agent][bomb] = avail

    def feed(self, ev) -> list[Question]:
        p = ev.params
        name = ev.name
        ep = self.ep
        if name == "observe":
            k = p["turn"]
            ep.add_contents(ev.agent, p["room"], 2 * k, value=tuple(p["contents"]))
            for b in p["contents"]:
                self._learn(ev.agent, b, 2 * k)
            return []
        if name == "deliver":
            t_del = 2 * p["turn"]
            for m in p["messages"]:
                posted = 2 * m["posted_turn"] + 1
                facts = m["facts"]
                correct = []
                for f in facts:
                    if f["type"] == "contents":
                        ok = tuple(sorted(f["bombs"])) == self.truth_contents(f["room"], posted)
                    elif f["type"] == "seq":
                        ok = tuple(f["seq"]) == self.truth_seq(f["bomb"], posted)
                    elif f["type"] == "defused":
                        ok = len(self.truth_seq(f["bomb"], posted)) < len(self.seq0.get(f["bomb"], ()))
                    else:
                        ok = self.ep.bomb_room.get(f["bomb"]) == f["room"]
                    correct.append(ok)
                    for a in self.agents:
                        if a == m["sender"]:
                            continue
                        if f["type"] == "contents" and ok:
                            for b in f["bombs"]:
                                self._learn(a, b, t_del)
                        if f["type"] in ("seq", "located") and ok and f.get("room") is not None:
                            self._learn(a, f["bomb"], t_del)
                ep.add_message(m["sender"], posted, t_del, facts, correct)
            return []
        if name in ("move", "inspect", "apply", "unrecognised"):
            k = p["turn"]
            T = 2 * k + 1
            agent = ev.agent
            ep.add_turn(k, agent, p["from"], p["to"])
            if p["valid"] and p["bomb"] is not None and name in ("inspect", "apply"):
                b = p["bomb"]
                ep.add_seq(agent, b, T, value=tuple(p["seq_after"]))
                self._learn(agent, b, T)
                if p["defused_phase"]:
                    self.history[b].append((T, tuple(p["seq_after"])))
                    ep.add_defusal(b, T, p["vanished"])
                    ep.add_change_ev(agent, b, T)
                    if p["vanished"]:
                        for a in p["present"]:
                            self._learn(a, b, T)
                        ep.add_room_change(p["from"], T)
                        ep.add_vanish(b, p["from"], T, p["present"])
            self._last_action = (ev.t, k, p["round"], agent, T)
            return []
        return []

    def ask(self) -> list[Question]:
        t_idx, k, rnd, agent, T = self._last_action
        rng = random.Random(f"bomb-tom:{self.seed}:{k}")
        target = rng.choice([a for a in self.agents if a != agent])
        known = sorted(b for b, av in self.known_bombs[agent].items() if av <= T)
        options = [("contents", r) for r in self.rooms]
        for b in known:
            times = [t for t, _ in self.ep.defusals.get(b, ()) if t <= T]
            options.append(("sequence", b))
            if times:
                options.append(("changed", b))
                if times[-1] >= T - 5:
                    options.append(("just_defused", b))
        present = sorted({tpl for tpl, _ in options}, key=TEMPLATES.index)
        template = rng.choice(present)
        subject = rng.choice([s for tpl, s in options if tpl == template])
        out = []
        for level in LEVELS:
            q = Question(id=f"q{k}-{level}", t=t_idx, turn=k, round=rnd, asked=agent, target=target, level=level,
                         template=template, subject=subject, text=question_text(level, template, subject, target))
            q.answer = answer(self.ep, level, agent, target, template, subject, T)
            out.append(q)
        return out


class QuestionStream:
    """Incremental form of :func:`questions` for runners: feed events as the env appends them."""

    def __init__(self, meta, seed=None):
        self._b = _Builder(meta, seed)
        self._pending_action = False

    def feed(self, ev) -> list[Question]:
        """Returns the questions of the previous action once its message (if any) has been posted."""
        out = []
        if self._pending_action and not (ev.name == "say"):
            out = self._b.ask()
            self._pending_action = False
        self._b.feed(ev)
        if ev.name in ("move", "inspect", "apply", "unrecognised"):
            self._pending_action = True
        return out

    def flush(self) -> list[Question]:
        if self._pending_action:
            self._pending_action = False
            return self._b.ask()
        return []


def questions(trace, seed=None) -> list[Question]:
    """Every ToM question of a bomb_v0 trace with its exact answer (pure: same trace, same questions)."""
    meta = trace.meta
    if meta.get("env") != "bomb_v0":
        from belief.errors import TraceError
        raise TraceError(f"not a bomb_v0 trace (meta env = {meta.get('env')!r})")
    try:
        stream = QuestionStream(meta, seed)
        out = []
        for ev in trace:
            if getattr(ev, "kind", None) != "action":
                continue
            out.extend(stream.feed(ev))
        out.extend(stream.flush())
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
        from belief.errors import TraceError
        where = f" at event t={ev.t}" if "ev" in locals() and getattr(ev, "t", None) is not None else " in its header"
        raise TraceError(f"malformed bomb_v0 trace{where}: {type(e).__name__}: {e}") from None
    return out


__all__ = ["Epistemics", "Question", "QuestionStream", "questions", "question_text", "answer", "LEVELS",
           "TEMPLATES"]


def truth(trace, level: str, asked: str, target: str, template: str, subject: int, turn: int) -> bool:
    """The exact answer to any one question asked right after turn `turn` (pure function of the trace)."""
    b = _Builder(trace.meta)
    for ev in trace:
        if getattr(ev, "kind", None) != "action":
            continue
        p = ev.params
        if ev.name in ("move", "inspect", "apply", "unrecognised") and p["turn"] > turn:
            break
        if ev.name in ("observe", "deliver") and p["turn"] > turn:
            break
        b.feed(ev)
    return answer(b.ep, level, asked, target, template, subject, 2 * turn + 1)


__all__ += ["truth"]
