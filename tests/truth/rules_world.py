"""A small world with declared rules, for property tests of knowledge by elimination (issue 28).

Two objects in two places (or gone), each place holding at most one (``inverse``), a state per object linked to
its place (``implies``: gone iff done), at most one object done (``count``), and yes/no hints of one place
(``indicator``). Random traces are interpreted from integer tuples (as :mod:`belief.testing.traces` does), so
hypothesis shrinks failures to short stories; every event kind that carries perception fields may get them
(secret observers, inattentive observers, ``perceived_as``, hidden listeners of messages, opaque actions, quiet
entries). Every real change is declared first as a ``possible`` change seen by every agent (the changes an
agent cannot rule out, as the bomb world states them), with its outcome; messages are truthful when formed
(``as_of``: the sender states what it saw then).
"""

from __future__ import annotations

from itertools import product

from hypothesis import strategies as st

from belief.logic.formula import normalize_chain
from belief.testing.traces import _perceived
from belief.truth.trace import (Action, Announce, Condition, Content, Effect, Enter, Noise, Noop, Observe, Possible,
                                Tell, Trace)

AGENTS = ["A", "B", "C"]
OBJECTS = ["o1", "o2"]
PLACES = ["p1", "p2"]
GONE = "gone"
STATES = ["new", "used", "done"]
RULES = [
    {"kind": "domain", "predicate": "in", "values": PLACES + [GONE], "initial": PLACES},
    {"kind": "domain", "predicate": "contents", "values": OBJECTS + ["none"]},
    {"kind": "inverse", "forward": "in", "backward": "contents", "empty": "none", "outside": [GONE]},
    {"kind": "domain", "predicate": "state", "values": STATES, "initial": ["new"]},
    {"kind": "implies", "if": {"predicate": "in", "values": [GONE]}, "then": {"predicate": "state", "values": ["done"]},
     "iff": True},
    {"kind": "count", "fluents": [["state", o] for o in OBJECTS], "value": "done", "at_most": 1},
    {"kind": "indicator", "fluent": "in", "indicator": "is"},
]
FLUENTS = ([("in", o) for o in OBJECTS] + [("contents", p) for p in PLACES] + [("state", o) for o in OBJECTS]
           + [("is", o, v) for o in OBJECTS for v in PLACES + [GONE]])
N_OPS = 9

#: the raw material of a trace: (operation, x, y, z, perception) integer tuples
steps_st = st.lists(st.tuples(st.integers(0, N_OPS - 1), st.integers(0, 7), st.integers(0, 7), st.integers(0, 255),
                              st.integers(0, 255)), min_size=1, max_size=18)


def chains(agents, depth: int) -> list:
    out = set()
    for k in range(1, depth + 1):
        for c in product(agents, repeat=k):
            out.add(normalize_chain(c))
    return sorted(out)


def _eff(f, v):
    return Effect(predicate=f[0], subject=f[1:], value=v)


def build(n_agents: int, steps: list, perception: bool = True) -> Trace:
    """Interpret integer tuples as a story consistent with :data:`RULES` (see the module docstring)."""
    agents = AGENTS[:n_agents]
    where = {"o1": "p1", "o2": "p2"} if steps and steps[0][3] % 2 else {"o1": "p2", "o2": "p1"}
    state = dict.fromkeys(OBJECTS, "new")
    real: dict = {}

    def refresh():
        real.clear()
        for o in OBJECTS:
            real[("in", o)] = where[o]
            real[("state", o)] = state[o]
            for v in PLACES + [GONE]:
                real[("is", o, v)] = "yes" if where[o] == v else "no"
        for p in PLACES:
            real[("contents", p)] = next((o for o in OBJECTS if where[o] == p), "none")

    refresh()
    events: list = [Action(name="setup", effects=tuple(_eff(f, v) for f, v in real.items()), visible_to=()),
                    Enter(agents=tuple(agents), room="hall")]
    seen: dict = {a: {} for a in agents}  # agent -> fluent -> (value, index of the event it saw it at)

    def add(ev, w=0, observers=()):
        if perception and w:
            ev = _perceived(ev, w, list(observers), list(agents))
        events.append(ev)
        return len(events) - 1

    def subset(bits: int, must=()) -> tuple:
        return tuple(a for i, a in enumerate(agents) if bits >> i & 1 or a in must)

    def change(actor, fluents, values, given, visible, w):
        """A real change: declared to everyone as a possible change (the actor excluded: it knows what it
        does), then seen by ``visible``."""
        add(Possible(agent=actor, observers=tuple(agents), fluents=tuple(fluents), values=tuple(values),
                     given=tuple(Condition(fluent=g, values=vs) for g, vs in given)), w >> 1, agents)
        t = add(Action(name="act", agent=actor, visible_to=visible, opaque=True,  # (not shown to later arrivals)
                       effects=tuple(_eff(f, v) for f, v in zip(fluents, values))), w, visible)
        refresh()
        ev = events[t]
        perceivers = (set(visible) - set(ev.inattentive or ())) | set(ev.secret_observers or ())
        for a in perceivers:
            for f, v in zip(fluents, values):
                seen[a][f] = (v, t)

    for op, x, y, z, w in steps:
        a = agents[x % n_agents]
        op %= N_OPS
        if op == 0:  # a looks at a place, others may witness it
            p = PLACES[y % 2]
            inside = real[("contents", p)]
            fluents = (("contents", p),) + ((("in", inside),) if inside != "none" else ())
            wit = subset(z, (a,))
            t = add(Observe(agents=(a,), fluents=fluents, witnesses=wit if z % 3 else None), w, (a,))
            ev = events[t]
            if a not in (ev.inattentive or ()):
                for f in fluents:
                    seen[a][f] = (real[f], t)
        elif op == 1:  # a moves an object to the other place, if it is free
            o = OBJECTS[y % 2]
            src = where[o]
            dst = PLACES[1 - PLACES.index(src)] if src in PLACES else None
            if dst is None or real[("contents", dst)] != "none":
                add(Noop(agent=a))
                continue
            where[o] = dst
            change(a, [("in", o), ("contents", src), ("contents", dst), ("is", o, src), ("is", o, dst)],
                   [dst, "none", o, "no", "yes"], [(("in", o), (src,))], subset(z, (a,)), w)
        elif op == 2:  # a uses an object: new -> used, used -> done (gone), at most one done
            o = OBJECTS[y % 2]
            if state[o] == "new":
                state[o] = "used"
                change(a, [("state", o)], ["used"], [(("state", o), ("new",))], subset(z, (a,)), w)
            elif state[o] == "used" and "done" not in state.values():
                src = where[o]
                state[o], where[o] = "done", GONE
                change(a, [("state", o), ("in", o), ("contents", src), ("is", o, src), ("is", o, GONE)],
                       ["done", GONE, "none", "no", "yes"], [(("state", o), ("used",)), (("in", o), (src,))],
                       subset(z, (a,)), w)
            else:
                add(Noise(text="nothing to use"))
        elif op == 3:  # a yes/no hint, seen by some
            o, v = OBJECTS[y % 2], (PLACES + [GONE])[z % 3]
            f = ("is", o, v)
            who = subset(z >> 2, (a,))
            t = add(Observe(agents=who, fluents=(f,), values=(real[f],) if z % 2 else None), w, who)
            ev = events[t]
            for b in (set(who) - set(ev.inattentive or ())) | set(ev.secret_observers or ()):
                seen[b][f] = (real[f], t)
        elif op in (4, 5) and seen[a]:  # a tells what it saw (true when it saw it), as of then
            f = sorted(seen[a])[y % len(seen[a])]
            v, t_seen = seen[a][f]
            others = [b for b in agents if b != a]
            if not others:
                add(Noop(agent=a))
                continue
            content = (Content(predicate=f[0], subject=f[1:], value=v),)
            as_of = t_seen if (z >> 1) % 2 or real.get(f) != v else None
            if op == 4:
                rec = tuple(b for i, b in enumerate(others) if z >> (2 + i) & 1) or (others[0],)
                add(Tell(sender=a, recipients=rec, content=content, as_of=as_of), w, (a, *rec))
            else:
                aud = tuple(b for i, b in enumerate(others) if z >> (2 + i) & 1) or tuple(others)
                add(Announce(sender=a, audience=aud, content=content, as_of=as_of), w, (a, *aud))
        elif op == 6:  # a stays: a possible change that does not happen (its condition may not even hold)
            o = OBJECTS[y % 2]
            who = subset(z, (a,))
            add(Possible(agent=a, observers=who, fluents=(("state", o),), values=(STATES[z % 3],),
                         given=(Condition(fluent=("state", o), values=(STATES[(z >> 2) % 3],)),)), w, who)
        elif op == 7:
            add(Enter(agents=(a,), room="hall", quiet=True if z % 2 else None))
        else:
            add(Noop(agent=a))
    return Trace(events, meta={"constraints": RULES})


def with_inserted(trace: Trace, k: int, ev) -> Trace:
    """``trace`` with ``ev`` inserted before its event ``k`` (later events' ``as_of`` shifted with them)."""
    out = []
    for e in trace[:k]:
        out.append(e.model_copy(update={"t": None}))
    out.append(ev)
    for e in trace[k:]:
        upd: dict = {"t": None}
        if getattr(e, "as_of", None) is not None and e.as_of >= k:
            upd["as_of"] = e.as_of + 1
        out.append(e.model_copy(update=upd))
    return Trace(out, meta=trace.meta)
