"""Property tests of the checker against a brute-force reference that materialises every chain.

Small worlds (3-4 agents, 2-3 rooms, 2 objects), random consistent traces of enters, exits, moves,
statements, private observations, private and public messages; every chain up to depth 3-4 and every
fluent is compared at every time step, under both built-in trust policies.
"""

from __future__ import annotations

from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from belief.checker import GroundTruth, check
from belief.formula import normalize_chain
from belief.testing.traces import AGENTS, BOXES, OBJECTS, ROOMS, build_trace, steps_st  # noqa: F401
from belief.trace import Announce, Content, Enter, Exit, Move, Noise, Noop, Observe, Statement, Tell, Trace  # noqa: F401

# --------------------------------------------------------------------------------------------
# brute-force reference: every chain materialised
# --------------------------------------------------------------------------------------------

def all_chains(agents, depth):
    out = set()
    for k in range(1, depth + 1):
        for c in product(agents, repeat=k):
            out.add(normalize_chain(c))
    return sorted(out)


class Reference:
    """Strict observation + policies, written the naive way: a dict over every (chain, fluent)."""

    def __init__(self, agents, depth, policy):
        self.agents = list(agents)
        self.chains = all_chains(agents, depth)
        self.policy = policy
        self.beliefs: dict = {}
        self.real: dict = {}
        self.loc = {a: None for a in agents}
        self.fluent_room: dict = {}
        self.box_room: dict = {}
        self.rooms: set = set()
        self.chapters: dict = {}
        self.last_chapter = None
        self.snapshots: list = []

    def observe(self, group, f, v, except_solo=None):
        for c in self.chains:
            if set(c) <= group and not (except_solo is not None and c == (except_solo,)):
                self.beliefs[(c, f)] = v

    def occupants(self, room):
        return {a for a in self.agents if self.loc[a] == room}

    def set_real(self, f, v, room):
        self.real[f] = v
        self.fluent_room[f] = room

    def leave(self, a):
        r = self.loc[a]
        if r is None:
            return
        group = self.occupants(r)
        self.set_real(("at", a), None, None)
        self.observe(group, ("at", a), None)
        self.loc[a] = None

    def step(self, ev):
        k = ev.kind
        if ev.chapter is not None:
            self.last_chapter = ev.chapter
        if k == "enter":
            self.rooms.add(ev.room)
            for a in ev.agents:
                if self.loc[a] not in (None, ev.room):
                    self.leave(a)
            for a in ev.agents:
                self.loc[a] = ev.room
            group = self.occupants(ev.room)
            for a in ev.agents:
                self.set_real(("at", a), ev.room, ev.room)
                self.observe(group, ("at", a), ev.room)
            for f, r in list(self.fluent_room.items()):
                if r == ev.room and not (f[0] == "at" and f[1] in ev.agents):
                    self.observe(group, f, self.real[f])
            if ev.chapter is not None:
                self.chapters.setdefault(ev.chapter, [set(), {}])[0].update(ev.agents)
        elif k == "exit":
            for a in ev.agents:
                if ev.chapter is not None:
                    ranks = self.chapters.setdefault(ev.chapter, [set(), {}])[1]
                    ranks.setdefault(a, len(ranks))
            for a in ev.agents:
                self.leave(a)
        elif k == "move":
            room = self.loc[ev.agent]
            dest = self.box_room.setdefault(ev.to, room)
            self.set_real(("in", ev.object), ev.to, dest)
            self.observe(self.occupants(room), ("in", ev.object), ev.to)
        elif k == "statement":
            self.rooms.add(ev.room)
            self.box_room[ev.value] = ev.room
            f = ("in", *ev.subject)
            self.set_real(f, ev.value, ev.room)
            self.observe(self.occupants(ev.room), f, ev.value)
        elif k == "observe":
            for f in ev.fluents:
                self.observe(set(ev.agents), tuple(f), self.real[tuple(f)])
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
            for c in ev.content:
                f, v = c.fluent, c.value
                if self.policy == "strict-truthful":
                    self.observe({s, *listeners}, f, v, except_solo=s)
                else:
                    ch = ev.chapter if ev.chapter is not None else self.last_chapter
                    parts, ranks = self.chapters.get(ch, [set(), {}])
                    inf = float("inf")
                    for d in listeners:
                        trusts = d not in parts or (s in parts and ranks.get(d, inf) < ranks.get(s, inf))
                        if trusts:
                            self.beliefs[((d,), f)] = v
                            self.beliefs[(normalize_chain((d, s)), f)] = v
                        self.beliefs[(normalize_chain((s, d)), f)] = v
        self.snapshots.append(dict(self.beliefs))


def compare(trace, n_agents, depth, policy, rounds=None):
    agents = AGENTS[:n_agents]
    truth = check(trace, policy)
    if rounds is not None:
        truth._GALLOP_ROUNDS = rounds
    ref = Reference(agents, depth, policy)
    fluents = [("in", o) for o in OBJECTS] + [("at", a) for a in agents]
    for t, ev in enumerate(trace):
        ref.step(ev)
        snap = ref.snapshots[-1]
        for c in ref.chains:
            for f in fluents:
                want = snap.get((c, f), "<unknown>")
                p = truth.lookup(c, f, at=t)
                got = "<unknown>" if p is None else p.value
                assert got == want, (f"t={t} chain={c} fluent={f}: checker {got!r}, reference {want!r}\n"
                                     + "\n".join(f"{e.t}: {e.describe()}" for e in trace))
    return truth


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
                if p is not None:
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
    from belief.app.bench_checker import make_trace

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
