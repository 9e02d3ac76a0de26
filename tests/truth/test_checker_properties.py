"""Property tests of the checker against a brute-force reference that materialises every chain.

Small worlds (3-4 agents, 2-3 rooms, 2 objects), random consistent traces of enters, exits, moves,
statements, private observations (some witnessed: witnessing is joint, so a look by C that A, B and C witnessed
makes (A, B, C) aware), private and public messages, and (``perceived_steps_st``) events that say who perceived
them (secret observers, inattentive observers, hidden listeners, ``perceived_as``, opaque changes, quiet
entries); every chain up to depth 3-4 and every fluent is compared at every time step, under both built-in
trust policies.
"""

from __future__ import annotations

from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from belief.truth.checker import check
from belief.truth.index import is_marker
from belief.logic.formula import normalize_chain
from belief.testing.traces import (AGENTS, BOXES, N_OPS, OBJECTS, ROOMS, build_trace, perceived_steps_st,  # noqa: F401
                                   steps_st)
from belief.truth.trace import Announce, Content, Enter, Exit, Move, Noise, Noop, Observe, Statement, Tell, Trace  # noqa: F401

# --------------------------------------------------------------------------------------------
# brute-force reference: every chain materialised
# --------------------------------------------------------------------------------------------

def all_chains(agents, depth):
    out = set()
    for k in range(1, depth + 1):
        for c in product(agents, repeat=k):
            out.add(normalize_chain(c))
    return sorted(out)


UNSURE_ = "<unsure>"
OPAQUE_ = "<unseen>"


class EventModel:
    """One update's event model, naively: who perceived it, and whom each agent believes perceived it.

    Secret observers and hidden listeners perceive it and believe the observers and themselves did;
    inattentive observers do not perceive it; ``perceived_as`` says what its agents believe; everyone else
    believes exactly the observers did. A chain is reached iff its first agent perceived the update and each
    next agent is one the previous believes perceived it.
    """

    def __init__(self, ev, observers):
        self.observers = set(observers)
        hidden = set(ev.secret_observers or ()) | set(getattr(ev, "overheard_by", None) or ())
        self.perceived = (self.observers - set(ev.inattentive or ())) | hidden
        self.believed = {h: self.observers | {h} for h in hidden}
        for a, agents in (ev.perceived_as or {}).items():
            self.believed[a] = set(agents) | {a}

    def follows(self, c) -> bool:
        return all(c[i + 1] in self.believed.get(c[i], self.observers) for i in range(len(c) - 1))

    def reached(self, c) -> bool:
        return c[0] in self.perceived and self.follows(c)

    def aware(self, c, witnesses) -> bool:
        """Joint witnessing along the views: each next agent is one the previous believes perceived the look or
        a witness of it, and the last one is one the last but one believes perceived it (saw the value)."""
        for i in range(len(c) - 1):
            known = self.believed.get(c[i], self.observers)
            if c[i + 1] not in (known | set(witnesses) if i < len(c) - 2 else known):
                return False
        return True


class Reference:
    """Strict observation + policies + knowledge, written the naive way: a dict over every (chain, fluent).

    Every update is also kept as a record (observers, witnesses, value, change?, condition, excluded
    actor) so that knowledge is decided by scanning the whole history, chain by chain.
    """

    def __init__(self, agents, depth, policy):
        self.agents = list(agents)
        self.chains = all_chains(agents, depth)
        self.policy = policy
        self.beliefs: dict = {}          # (chain, fluent) -> (value, t of the update)
        self.real: dict = {}
        self.real_hist: dict = {}        # fluent -> [(t, value)]
        self.change_t: dict = {}         # fluent -> [t]
        self.records: dict = {}          # fluent -> [(t, seen, W, value, change, cond, excl, told)]
        self.loc = {a: None for a in agents}
        self.fluent_room: dict = {}
        self.box_room: dict = {}
        self.rooms: set = set()
        self.chapters: dict = {}
        self.last_chapter = None
        self.snapshots: list = []
        self.t = -1

    def update(self, group, f, v, except_solo=None, witnesses=(), change=False, cond=None, ev=None, message=None,
               told=False):
        """``group``: the update's observers (or, for a message, the agents its policy chose); ``ev``: the event,
        when it says who perceived it; ``message``: a message's event model (its observers are fixed)."""
        group = set(group)
        model = message if message is not None else (
            EventModel(ev, group) if ev is not None and ev.has_perception else None)
        knew = set(group) | set(witnesses)  # without an event model: who knows of the update

        if model is None:
            def reached(c):
                return set(c) <= group

            def seen(x, rest):  # joint witnessing: every agent knew of the look, the last one saw the value
                return set(rest[:-1]) <= knew and rest[-1] in group
            perceivers = group
        elif message is not None:
            def reached(c):
                return set(c) <= group and model.reached(c)

            def seen(x, rest):
                return set(rest) <= group and model.follows((x, *rest))
            perceivers = model.perceived & group
        else:
            reached = model.reached

            def seen(x, rest):
                return model.aware((x, *rest), witnesses)
            perceivers = model.perceived
        prev = self.snapshots[-1] if self.snapshots else {}
        for c in self.chains:
            if not reached(c) or (except_solo is not None and c == (except_solo,)):
                continue
            if cond is not None:
                g, values = cond
                if self.last_held(c, g, self.t - 1, prev) not in values:
                    continue
            self.beliefs[(c, f)] = (v, self.t)
        if perceivers | set(witnesses):
            self.records.setdefault(f, []).append(
                (self.t, seen, frozenset(perceivers | set(witnesses)), v, change, cond, except_solo, told))

    def last_held(self, c, g, t, snap=None):
        """The chain's last value of g at t that is not 'unsure' (what it last saw)."""
        while t >= 0:
            held = (snap if snap is not None else self.snapshots[t]).get((c, g))
            snap = None
            if held is None:
                return "<unknown>"
            if held[0] != UNSURE_:
                return self.resolve(g, held, t)
            t = held[1] - 1
        return "<unknown>"

    def occupants(self, room):
        return {a for a in self.agents if self.loc[a] == room}

    def set_real(self, f, v, room, reveal=False, keep_room=False):
        known = f in self.real
        change = (v != self.real[f]) if known else not reveal
        self.real[f] = v
        self.real_hist.setdefault(f, []).append((self.t, v))
        if change:
            self.change_t.setdefault(f, []).append(self.t)
        if not keep_room:
            self.fluent_room[f] = room
        return change

    def reality_at(self, f, t):
        out = None
        for tt, v in self.real_hist.get(f, ()):
            if tt <= t:
                out = (v,)
        return out

    def changed(self, f, start, end):
        return any(start < tt <= end for tt in self.change_t.get(f, ()))

    def resolve(self, f, held, t):
        """(value, t_u) -> the value now; OPAQUE names the real value when the trace knows it."""
        if held is None:
            return "<unknown>"
        v, tu = held
        if v == OPAQUE_:
            r = self.reality_at(f, t) if not self.changed(f, tu, t) else self.reality_at(f, tu)
            return r[0] if r is not None else OPAQUE_
        return v

    def leave(self, a, ev):
        r = self.loc[a]
        if r is None:
            return
        group = self.occupants(r)
        ch = self.set_real(("at", a), None, None)
        self.update(group, ("at", a), None, change=ch, ev=ev)
        self.loc[a] = None

    def step(self, ev):
        self.t += 1
        k = ev.kind
        if ev.chapter is not None:
            self.last_chapter = ev.chapter
        if k == "enter":
            self.rooms.add(ev.room)
            for a in ev.agents:
                if self.loc[a] not in (None, ev.room):
                    self.leave(a, ev)
            for a in ev.agents:
                self.loc[a] = ev.room
            group = self.occupants(ev.room)
            for a in ev.agents:
                ch = self.set_real(("at", a), ev.room, ev.room)
                self.update(group, ("at", a), ev.room, change=ch, ev=ev)
            looking = set(ev.agents) if ev.quiet else group
            for f, r in list(self.fluent_room.items()):
                if r == ev.room and not (f[0] == "at" and f[1] in ev.agents):
                    self.update(looking, f, self.real[f], ev=ev)
            if ev.chapter is not None:
                self.chapters.setdefault(ev.chapter, [set(), {}])[0].update(ev.agents)
        elif k == "exit":
            for a in ev.agents:
                if ev.chapter is not None:
                    ranks = self.chapters.setdefault(ev.chapter, [set(), {}])[1]
                    ranks.setdefault(a, len(ranks))
            for a in ev.agents:
                self.leave(a, ev)
        elif k == "move":
            room = self.loc[ev.agent]
            dest = self.box_room.setdefault(ev.to, room)
            ch = self.set_real(("in", ev.object), ev.to, None if ev.opaque else dest)
            self.update(self.occupants(room), ("in", ev.object), ev.to, change=ch, ev=ev)
        elif k == "statement":
            self.rooms.add(ev.room)
            self.box_room[ev.value] = ev.room
            f = ("in", *ev.subject)
            ch = self.set_real(f, ev.value, None if ev.opaque else ev.room)
            self.update(self.occupants(ev.room), f, ev.value, change=ch, ev=ev)
        elif k == "observe":
            cond = (tuple(ev.given.fluent), set(ev.given.values)) if ev.given else None
            for i, f in enumerate(ev.fluents):
                f = tuple(f)
                change = False
                if ev.values is not None and ev.values[i] is not None:
                    v = ev.values[i]
                    change = self.set_real(f, v, None, reveal=True, keep_room=True)
                elif f in self.real:
                    v = self.real[f]
                else:
                    v = OPAQUE_
                self.update(set(ev.agents), f, v, witnesses=ev.witnesses or (), change=change, cond=cond, ev=ev)
        elif k == "possible":
            for f in ev.fluents:
                self.update(set(ev.observers), tuple(f), UNSURE_, except_solo=ev.agent, change=True, ev=ev)
        elif k in ("tell", "announce"):
            s = ev.sender
            if k == "tell":
                listeners = [r for r in ev.recipients if r != s]
            elif ev.audience is not None:
                listeners = [r for r in ev.audience if r != s]
            else:
                room = self.loc[s]
                listeners = [a for a in self.agents if room is not None and self.loc[a] == room and a != s] \
                    if room is not None else [a for a in self.agents if a != s]
            model = EventModel(ev, {s, *listeners}) if ev.has_perception else None
            hidden = [h for h in (ev.secret_observers or ()) + (ev.overheard_by or ()) if h != s and h not in listeners]
            listeners = listeners + list(dict.fromkeys(hidden))

            def write(chain, f, v):
                chain = normalize_chain(chain)
                if model is None or model.reached(chain):
                    self.beliefs[(chain, f)] = (v, self.t)
            for c in ev.content:
                f, v = c.fluent, c.value
                if self.policy == "strict-truthful":
                    self.update({s, *listeners}, f, v, except_solo=s, message=model, told=True)
                else:
                    ch = ev.chapter if ev.chapter is not None else self.last_chapter
                    parts, ranks = self.chapters.get(ch, [set(), {}])
                    inf = float("inf")
                    for d in listeners:
                        trusts = d not in parts or (s in parts and ranks.get(d, inf) < ranks.get(s, inf))
                        if trusts:
                            write((d,), f, v)
                            write((d, s), f, v)
                        write((s, d), f, v)
        self.snapshots.append(dict(self.beliefs))

    # --- queries, naively ---------------------------------------------------------------------
    def value(self, c, f, t):
        return self.resolve(f, self.snapshots[t].get((c, f)), t) if t >= 0 else "<unknown>"

    def looked_since(self, c, f, since, t):
        """Did a look at ``f`` (not a message) with a definite value after ``since`` make ``c`` aware that its last
        agent saw it (``c[0]`` knew of it, and, jointly, the others; the last saw it)?"""
        rest = set(c[1:])
        for (tr, seen_by, w, v, change, cond, excl, told) in self.records.get(f, []):
            if not since < tr <= t or c[0] not in w or v == UNSURE_ or told or (excl is not None and rest == {excl}):
                continue
            if seen_by(c[0], c[1:]) and (cond is None or self.last_held(c, cond[0], tr - 1) in cond[1]):
                return True
        return False

    def knows(self, c, f, t):
        """Knowledge as the README defines it, decided by scanning every record of the fluent."""
        if len(c) == 1:
            held = self.snapshots[t].get((c, f))
            if held is None or held[0] == UNSURE_:
                return False
            if held[0] == OPAQUE_:
                return not self.changed(f, held[1], t)
            r = self.reality_at(f, t)
            return r is not None and r[0] == held[0]
        if not self.knows(normalize_chain(c[1:]), f, t):
            return False
        held = self.value(c, f, t)
        if held not in ("<unknown>", UNSURE_, OPAQUE_) and held != (self.reality_at(f, t) or ("<none>",))[0] \
                and not self.looked_since(c, f, self.snapshots[t][(c, f)][1], t):
            return False  # awareness implies believing that the others believe the true value
        rest = set(c[1:])
        for (tr, seen_by, w, v, change, cond, excl, _told) in reversed(self.records.get(f, [])):
            if tr > t or c[0] not in w:
                continue
            if excl is not None and rest == {excl} and v == UNSURE_:
                continue  # the others' own possible change: they know what they did (only a change missed counts)
            spoke_truly = (v != UNSURE_ and self.policy == "strict-truthful"  # a truthful sender knew what it said
                           and (self.reality_at(f, tr) or (None,))[0] == v)
            seen = seen_by(c[0], c[1:]) and not (excl is not None and rest == {excl} and not spoke_truly)
            if seen and cond is not None:
                g, values = cond
                seen = self.last_held(c, g, tr - 1) in values
            if seen:
                return v != UNSURE_
            if change:
                return False
        return False


def compare(trace, n_agents, depth, policy, rounds=None, cells=None):
    """Compare every chain's value (and knowledge) at every time with the reference; ``cells`` (a one-item
    list) counts the comparisons."""
    agents = AGENTS[:n_agents]
    truth = check(trace, policy)
    if rounds is not None:
        truth._GALLOP_ROUNDS = rounds
    ref = Reference(agents, depth, policy)
    fluents = [("in", o) for o in OBJECTS] + [("at", a) for a in agents]
    for t, ev in enumerate(trace):
        ref.step(ev)
        for c in ref.chains:
            for f in fluents:
                want = ref.value(c, f, t)
                p = truth.lookup(c, f, at=t)
                got = "<unknown>" if p is None else (f"<{p.value}>" if is_marker(p.value) else p.value)
                # value() takes its own path (no provenance built): the same value as lookup's
                assert truth.value(c, f, at=t) == (None if p is None else p.value), (t, c, f)
                assert got == want, (f"t={t} chain={c} fluent={f}: checker {got!r}, reference {want!r}\n"
                                     + "\n".join(f"{e.t}: {e.describe()} {_perception(e)}" for e in trace))
                if cells is not None:
                    cells[0] += 1
                if policy == "strict-truthful" or len(c) == 1:
                    k_want = ref.knows(c, f, t)
                    k_got = truth.knows_chain(c, f, at=t)
                    assert k_got == k_want, (f"t={t} chain={c} fluent={f}: knows {k_got}, reference {k_want}\n"
                                             + "\n".join(f"{e.t}: {e.describe()} {_perception(e)}" for e in trace))
                    if cells is not None:
                        cells[0] += 1
    return truth


def _perception(ev) -> str:
    fields = ("secret_observers", "inattentive", "overheard_by", "perceived_as", "opaque", "quiet")
    shown = {k: getattr(ev, k, None) for k in fields if getattr(ev, k, None)}
    return str(shown) if shown else ""


@settings(max_examples=1200)
@given(steps=steps_st, n_agents=st.integers(2, 4), rounds=st.sampled_from([None, 0, 1]))
def test_matches_reference_strict_truthful(steps, n_agents, rounds):
    trace = build_trace(n_agents, 2, steps)
    compare(trace, n_agents, 4 if n_agents <= 3 else 3, "strict-truthful", rounds)


@settings(max_examples=1200)
@given(steps=steps_st, n_agents=st.integers(2, 4), rounds=st.sampled_from([None, 0]))
def test_matches_reference_hitom(steps, n_agents, rounds):
    trace = build_trace(n_agents, 3, steps)
    compare(trace, n_agents, 4 if n_agents <= 3 else 3, "hitom", rounds)


@settings(max_examples=300, deadline=None)
@given(steps=perceived_steps_st, n_agents=st.integers(2, 4), policy=st.sampled_from(["strict-truthful", "hitom"]),
       rounds=st.sampled_from([None, 0]))
def test_matches_reference_with_perception(steps, n_agents, policy, rounds):
    """Secret observers, inattentive observers, hidden listeners, perceived_as, opaque changes, quiet entries."""
    trace = build_trace(n_agents, 2 if policy == "strict-truthful" else 3, steps)
    compare(trace, n_agents, 4 if n_agents <= 3 else 3, policy, rounds)


def test_perception_matches_reference_on_100k_cells():
    """Seeded random traces using every perception field, depth <= 4: at least 100,000 cells (a chain's value
    or knowledge of a fluent at a time), none different from the reference."""
    import random

    fields = {"secret_observers", "inattentive", "overheard_by", "perceived_as", "opaque", "quiet"}
    rng = random.Random(19)
    cells = [0]
    used: set = set()
    traces = 0
    while (cells[0] < 250_000 or used != fields) and traces < 1000:
        n_agents = rng.randint(2, 4)
        steps = [(rng.randrange(N_OPS), rng.randrange(8), rng.randrange(8), rng.randrange(256), rng.randrange(256))
                 for _ in range(rng.randint(8, 28))]
        policy = rng.choice(["strict-truthful", "hitom"])
        trace = build_trace(n_agents, 2, steps)
        for ev in trace:
            used.update(k for k in fields if getattr(ev, k, None))
        compare(trace, n_agents, 4 if n_agents <= 3 else 3, policy, cells=cells)
        traces += 1
    print(f"perception vs reference: {cells[0]} cells on {traces} traces, 0 mismatches")
    assert used == fields
    assert cells[0] >= 100_000


@settings(max_examples=500)
@given(steps=steps_st, n_agents=st.integers(2, 4))
def test_belief_is_a_value_the_fluent_really_had(steps, n_agents):
    """With truthful messages, every chain's value is a value its fluent really had, at or before then."""
    trace = build_trace(n_agents, 2, steps, truthful=True)
    truth = check(trace, "strict-truthful")
    agents = AGENTS[:n_agents]
    fluents = [("in", o) for o in OBJECTS] + [("at", a) for a in agents]
    for f in fluents:
        hist = truth.history(f)
        for t in range(len(trace)):
            had = {h.value for h in hist if h.t <= t}
            for c in all_chains(agents, 3):
                p = truth.lookup(c, f, at=t)
                if p is not None and not is_marker(p.value):
                    assert p.value in had, (c, f, t, p.value, had)


@settings(max_examples=500)
@given(steps=steps_st, n_agents=st.integers(2, 4))
def test_present_agents_believe_the_result(steps, n_agents):
    """Everyone present at a move or statement believes its result (and so does every chain over them)."""
    trace = build_trace(n_agents, 2, steps)
    truth = check(trace, "strict-truthful")
    for ev in trace:
        if ev.kind not in ("move", "statement"):
            continue
        room = ev.room if ev.kind == "statement" else truth.location(ev.agent, ev.t - 1)
        present = [a for a in AGENTS[:n_agents] if truth.location(a, ev.t) == room]
        f = ("in", ev.object) if ev.kind == "move" else ("in", *ev.subject)
        value = ev.to if ev.kind == "move" else ev.value
        for a in present:
            assert truth.value((a,), f, at=ev.t) == value
        for c in all_chains(present, 3):
            assert truth.value(c, f, at=ev.t) == value


def test_bitset_path_agrees_on_a_long_trace():
    """A longer trace where the galloping search gives up and the bitset intersection answers."""
    from belief.app.bench.checker import make_trace

    trace = make_trace(agents=5, rooms=3, events=1500, objects=3, seed=7)
    fast = check(trace)
    slow = check(trace)
    slow._GALLOP_ROUNDS = 0
    import random

    rng = random.Random(3)
    names = [f"agent{i}" for i in range(5)]
    for _ in range(3000):
        c = tuple(rng.choice(names) for _ in range(rng.randint(1, 4)))
        f = ("in", f"obj{rng.randrange(3)}")
        at = rng.randrange(len(trace))
        assert fast.value(c, f, at) == slow.value(c, f, at)
