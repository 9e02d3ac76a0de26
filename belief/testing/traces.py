"""Random *consistent* traces for property tests of checkers and trackers (yours or ours).

A trace is interpreted from a list of integer tuples, so hypothesis can shrink failures to short stories:
enters (alone or in pairs, sometimes opening a new chapter), exits, moves into a box of the actor's room,
statements, private observations (some witnessed by others, some only by those who believed a
condition, some naming the value seen), possible changes, private tells and public announcements
(truthful or not), noops and noise, over a small world of agents ``A..D``, rooms ``r0..r2`` with two boxes each, and two objects.
With ``perception=True`` events also say who perceived them beyond the default: secret observers (peeking,
also from other rooms), inattentive observers, hidden listeners of messages (``overheard_by``), the general
``perceived_as``, opaque changes inside containers and quiet entries (docs/logic.md).

    from belief.testing.strategies import traces

    @given(traces(n_agents=3, n_rooms=2))
    def test_my_tracker(trace): ...
"""

from __future__ import annotations

from hypothesis import note, strategies as st
from hypothesis.control import currently_in_test_context

from belief.truth.trace import (Announce, Condition, Content, Enter, Exit, Move, Noise, Noop, Observe, Possible, Statement,
                          Tell, Trace)

AGENTS = ["A", "B", "C", "D"]
ROOMS = ["r0", "r1", "r2"]
OBJECTS = ["apple", "pear"]
BOXES = {r: [f"{r}_box0", f"{r}_box1"] for r in ROOMS}


# --------------------------------------------------------------------------------------------
# random consistent traces
# --------------------------------------------------------------------------------------------

def _perceived(ev, w: int, observers: list, named: list):
    """``ev`` with perception fields chosen by the integer ``w`` (0..255), valid for ``observers``."""
    choice, bits = w % 8, w >> 3
    outsiders = [b for b in named if b not in observers]
    update: dict = {}
    if choice == 7 and ev.kind in ("move", "statement"):
        update["opaque"] = True
    elif choice == 7 and ev.kind == "enter":
        update["quiet"] = True
    elif choice == 7 and ev.kind in ("tell", "announce") and outsiders:
        update["overheard_by"] = tuple(b for i, b in enumerate(outsiders) if bits >> i & 1) or (outsiders[0],)
    elif choice in (3, 5, 7) and outsiders:
        update["secret_observers"] = tuple(b for i, b in enumerate(outsiders) if bits >> i & 1) or (outsiders[-1],)
    if choice in (4, 5):
        attentive = [b for b in observers if b not in ev.actors]
        if attentive:
            update["inattentive"] = tuple(b for i, b in enumerate(attentive) if bits >> (i + 1) & 1) or (attentive[0],)
    if choice == 6 and observers:
        r = bits
        believed = {}
        for b in observers:
            if r & 1:
                r = (r * 37 + 11) % 251
                believed[b] = tuple(c for i, c in enumerate(named) if r >> i & 1)
            r >>= 1
        if believed:
            update["perceived_as"] = believed
    return ev.model_copy(update=update) if update else ev


def build_trace(n_agents: int, n_rooms: int, steps: list, truthful: bool = False) -> Trace:
    """Interpret integer tuples as actions of a consistent story (so hypothesis can shrink them).

    A step is ``(op, x, y, z)``, or ``(op, x, y, z, w)`` where ``w`` chooses the event's perception fields.
    Called inside a hypothesis test, the trace is also noted (:func:`hypothesis.note`): a failing example's
    report then shows its events as JSON lines, not only the integers they were built from.
    """
    trace = _interpret(n_agents, n_rooms, steps, truthful)
    if currently_in_test_context():
        note(trace)  # turned into text (the repr: the events' JSON lines) only for the reported example
    return trace


def _interpret(n_agents: int, n_rooms: int, steps: list, truthful: bool) -> Trace:
    agents = AGENTS[:n_agents]
    rooms = ROOMS[:n_rooms]
    loc = {a: None for a in agents}
    obj_loc: dict = {}
    chapter = 1
    named: dict = {}  # agents the trace has named so far (perception fields may name only those)
    w = 0
    observers: list = []

    class _Story(Trace):
        def append(self, ev):  # noqa: D401 - decorate each event with perception fields chosen by w
            for b in ev.actors + tuple(getattr(ev, "recipients", None) or ()) + tuple(getattr(ev, "audience", None) or ()) \
                    + tuple(getattr(ev, "observers", None) or ()) + tuple(getattr(ev, "witnesses", None) or ()):
                named.setdefault(b, None)
            if w and ev.kind not in ("noop", "noise"):
                ev = _perceived(ev, w, observers, list(named))
            return super().append(ev)

    tr = _Story()
    for step in steps:
        op, x, y, z = step[:4]
        w = step[4] if len(step) > 4 else 0
        a = agents[x % n_agents]
        here = loc[a]
        observers = [b for b in agents if here is not None and loc[b] == here]
        inside = [b for b in agents if loc[b] is not None]
        op %= N_OPS
        if op == 0 or (op in (1, 2, 5, 6, 7) and loc[a] is None):
            r = rooms[y % n_rooms]
            if z % 3 == 0:
                chapter += 1
            others = [b for b in agents if b != a and loc[b] is None and (z >> 2) % 2]
            group = (a, *others[:1])
            left = loc[a] if loc[a] != r else None  # those in the room it leaves see it go
            for b in group:
                loc[b] = r
            observers = [b for b in agents if loc[b] is not None and loc[b] in (r, left)]
            tr.append(Enter(agents=group, room=r, chapter=chapter))
        elif op == 1:
            tr.append(Exit(agents=(a,), room=loc[a], chapter=chapter))
            loc[a] = None
        elif op == 2:
            o = OBJECTS[y % len(OBJECTS)]
            assert here is not None  # the first branch took every step of an agent in no room
            box = BOXES[here][z % 2]
            obj_loc[o] = box
            tr.append(Move(agent=a, object=o, to=box, chapter=chapter))
        elif op == 3:
            r = rooms[y % n_rooms]
            o = OBJECTS[z % len(OBJECTS)]
            box = BOXES[r][(z >> 1) % 2]
            obj_loc[o] = box
            observers = [b for b in agents if loc[b] == r]
            tr.append(Statement(subject=(o,), value=box, room=r, chapter=chapter))
        elif op == 4:
            o = OBJECTS[y % len(OBJECTS)]
            if o in obj_loc:
                observers = [a]
                tr.append(Observe(agents=(a,), fluents=(("in", o),)))
            else:
                tr.append(Noise(text="nothing"))
        elif op in (5, 6):
            o = OBJECTS[y % len(OBJECTS)]
            if truthful:
                if o not in obj_loc:
                    tr.append(Noop(agent=a))
                    continue
                box = obj_loc[o]
            else:
                box = BOXES[rooms[z % n_rooms]][(z >> 2) % 2]
            content = (Content(subject=(o,), value=box),)
            if op == 5 and n_agents == 1:  # nobody to tell privately
                tr.append(Noop(agent=a, room=loc[a]))
            elif op == 5:
                rec = agents[(x + 1 + z % (n_agents - 1)) % n_agents]
                if rec == a:
                    rec = agents[(x + 1) % n_agents]
                observers = [a, rec]
                tr.append(Tell(sender=a, recipients=(rec,), content=content, chapter=chapter))
            elif (z >> 3) % 2 and n_agents > 1:  # an audience other than the sender
                aud = tuple(b for b in agents if b != a and (z >> (4 + agents.index(b))) % 2)
                observers = [a, *(aud or (agents[(x + 1) % n_agents],))]
                tr.append(Announce(sender=a, audience=aud or (agents[(x + 1) % n_agents],), content=content,
                                   chapter=chapter))
            else:
                tr.append(Announce(sender=a, content=content, chapter=chapter))
        elif op == 7:
            tr.append(Noop(agent=a, room=loc[a]))
        elif op == 8 and inside:
            b = inside[y % len(inside)]
            observers = [c for c in agents if loc[c] == loc[b]]
            tr.append(Exit(agents=(b,), chapter=chapter))
            loc[b] = None
        elif op == 10:
            o = OBJECTS[y % len(OBJECTS)]
            seen_by = tuple(b for b in agents if b == a or (z >> agents.index(b)) % 2)
            observers = list(seen_by)
            tr.append(Possible(agent=a if z % 3 else None, observers=seen_by, fluents=(("in", o),)))
        elif op == 11:
            o = OBJECTS[y % len(OBJECTS)]
            witnesses = tuple(b for b in agents if b == a or (z >> agents.index(b)) % 2)
            kind = (z >> 5) % 4
            observers = list(witnesses) if kind == 1 else [a]
            if kind == 0:    # witnessed by others who do not see the value
                tr.append(Observe(agents=(a,), fluents=(("in", o),), witnesses=witnesses))
            elif kind == 1:  # only those who thought the object was in a given box see where it is
                box = BOXES[rooms[y % n_rooms]][(z >> 7) % 2]
                tr.append(Observe(agents=witnesses, fluents=(("in", o),),
                                  given=Condition(fluent=("in", o), values=(box,))))
            elif o not in obj_loc:  # the first sight of the object names where it is (a reveal)
                box = BOXES[rooms[z % n_rooms]][(z >> 7) % 2]
                obj_loc[o] = box
                tr.append(Observe(agents=(a,), fluents=(("in", o),), values=(box,)))
            elif kind == 2:  # the value seen is named (as in a private trace): where the object really is
                tr.append(Observe(agents=(a,), fluents=(("in", o),), values=(obj_loc[o],)))
            else:
                tr.append(Observe(agents=(a,), fluents=(("in", o),), values=(obj_loc[o],), witnesses=witnesses))
        else:
            tr.append(Noise(text="noise"))
    return Trace(tr)


#: how many kinds of operation build_trace interprets
N_OPS = 12

#: the raw material of a trace: (operation, x, y, z) integer tuples
steps_st = st.lists(st.tuples(st.integers(0, N_OPS - 1), st.integers(0, 7), st.integers(0, 7), st.integers(0, 255)),
                    min_size=1, max_size=28)




#: steps whose events may also say who perceived them (a fifth integer: see :func:`_perceived`)
perceived_steps_st = st.lists(st.tuples(st.integers(0, N_OPS - 1), st.integers(0, 7), st.integers(0, 7),
                                        st.integers(0, 255), st.integers(0, 255)), min_size=1, max_size=28)


def traces(n_agents: int = 3, n_rooms: int = 2, max_steps: int = 28, truthful: bool = False,
           perception: bool = False):
    """Strategy of consistent random traces (see the module docstring)."""
    if not 1 <= n_agents <= len(AGENTS) or not 1 <= n_rooms <= len(ROOMS):
        raise ValueError(f"n_agents must be in 1..{len(AGENTS)} and n_rooms in 1..{len(ROOMS)}")
    extra = (st.integers(0, 255),) if perception else ()
    steps = st.lists(st.tuples(st.integers(0, N_OPS - 1), st.integers(0, 7), st.integers(0, 7), st.integers(0, 255),
                               *extra), min_size=1, max_size=max_steps)
    return _traces_from(steps, n_agents, n_rooms, truthful)


@st.composite
def _traces_from(draw, steps, n_agents: int, n_rooms: int, truthful: bool) -> Trace:
    # drawn (not mapped), so that a failing example prints the trace's repr (its events as JSON lines)
    # rather than the call that built it
    return _interpret(n_agents, n_rooms, draw(steps), truthful)
