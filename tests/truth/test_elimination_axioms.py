"""The axioms of knowledge by elimination (docs/logic.md, "Axioms"), as properties on random traces of a small
world with declared rules (:mod:`rules_world`: domain, inverse, implies, count and indicator rules; every
perception field; possible changes with outcomes and conditions; messages formed earlier, ``as_of``), for every
chain of orders 1-4, every constrained fluent, at every time:

1. knowledge implies belief of the true value: ``K_c f`` implies that ``c`` holds the true value, or holds no
   definite value and its possible set is exactly the true value (known by elimination); at order 2 and more
   that includes awareness: ``K_X K_A f`` implies that X does not believe A believes a false value (unless X
   has since seen or witnessed A perceive the fluent, with the chain's other agents: X's record of A's belief
   is then older than what X knows A saw);
   and the possible set of a chain that knows holds the true value;
2. elimination never widens a possible set without a perceived change: a value becomes possible for a chain
   only at an event that brings its first agent a change it perceives or knows of, or a perception outside
   what the chain had left possible (which reveals a change it missed);
3. a no-change event (a noop, a look by agents outside the chain, witnessed or not, a possible change nobody
   can draw) changes no possible set;
4. adding an event perceived by nobody in the chain (seen, witnessed or heard) changes none of its answers.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from belief.truth.checker import check
from belief.truth.index import UNSURE, is_marker
from belief.truth.trace import Announce, Condition, Content, Noise, Noop, Observe, Possible, Tell


def _sibling(name: str):
    """A module beside this one (the suite imports in importlib mode: no sibling imports by name)."""
    import importlib.util
    from pathlib import Path

    spec = importlib.util.spec_from_file_location(f"_truth_{name}", Path(__file__).with_name(f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_world = _sibling("rules_world")
AGENTS, FLUENTS, build, chains, steps_st, with_inserted = (
    _world.AGENTS, _world.FLUENTS, _world.build, _world.chains, _world.steps_st, _world.with_inserted)

CONSTRAINED = [f for f in FLUENTS]


def _chains(n_agents: int) -> list:
    """Orders 1-4 with two agents, 1-3 with three (the cost of every chain at every time stays small)."""
    return chains(AGENTS[:n_agents], 4 if n_agents == 2 else 3)


def _definite(v) -> bool:
    return v is not None and not is_marker(v)


@settings(max_examples=30)
@given(steps=steps_st, n_agents=st.integers(2, 3))
def test_knowledge_implies_belief_of_the_true_value_at_every_order(steps, n_agents):
    trace = build(n_agents, steps)
    truth = check(trace)
    for t in range(len(trace)):
        for c in _chains(n_agents):
            for f in CONSTRAINED:
                if not truth.knows_chain(c, f, at=t):
                    continue
                real = truth.reality(f, t)
                held = truth.lookup(c, f, t)
                held = held.value if held is not None else None
                if held is not None and held is not UNSURE and not is_marker(held):
                    assert held == real or _looked_since(truth, c, f, truth.lookup(c, f, t).t, t), (
                        t, c, f, held, real)
                elif len(c) == 1:
                    assert truth.possible(c, f, t) == {real}, (t, c, f, truth.possible(c, f, t), real)
                poss = truth.possible(c, f, t)
                assert poss is None or real in poss, (t, c, f, poss, real)
                if len(c) > 1:
                    assert truth.knows_chain(c[1:], f, at=t)  # awareness is factive


def _looked_since(truth, c, f, since: int, t: int) -> bool:
    """Did ``c``'s last agent perceive ``f`` (not by a message) after ``since``, in a look every other agent of ``c``
    saw or witnessed (witnessing is joint)? Then ``c``'s record of what it believes is older than what it knows
    was seen (docs/logic.md, "Awareness")."""
    for u in truth.updates_of(f, since, t):
        knew = set(u.observers) | set(getattr(u.event, "witnesses", None) or ())
        if u.how != "told" and u.value is not UNSURE and set(c[:-1]) <= knew and c[-1] in u.observers:
            return True
    return False


def _perceived_change(truth, c, group: set, t: int, before: dict) -> bool:
    """Does event ``t`` bring ``c``'s first agent a change it perceives or knows of in the group, or a value
    outside what ``c`` had left possible?"""
    a1 = truth._aid.get(c[0])
    ids = truth._ids(c)
    for g in group:
        idx = truth._index.get(g)
        if idx is None:
            continue
        for j, tj in enumerate(idx.times):
            if tj != t:
                continue
            if idx.changes[j] and (idx.wmasks[j] >> a1) & 1:
                return True
            if ids is not None and all((idx.masks[j] >> i) & 1 for i in ids):
                v = idx.values[j]
                if _definite(v) and before.get(g) is not None and v not in before[g]:
                    return True
        for key, ov in idx.overrides.items():
            if list(key) == ids and t in ov[0]:
                return True
    return False


@settings(max_examples=30)
@given(steps=steps_st, n_agents=st.integers(2, 3))
def test_elimination_never_widens_a_possible_set_without_a_perceived_change(steps, n_agents):
    trace = build(n_agents, steps)
    truth = check(trace)
    for c in chains(AGENTS[:n_agents], 3):
        for f in CONSTRAINED:
            group = set(truth._elim.group(f))
            prev = truth.possible(c, f, 0)
            for t in range(1, len(trace)):
                now = truth.possible(c, f, t)
                if prev is not None and (now is None or not now <= prev):
                    before = {g: truth.possible(c, g, t - 1) for g in group}
                    assert _perceived_change(truth, c, group, t, before), (
                        t, c, f, prev, now, trace[t].describe())
                prev = now


def _answers(truth, c, t) -> list:
    out = []
    for f in CONSTRAINED:
        p = truth.lookup(c, f, t)
        out.append((f, p.value if p is not None else None, truth.possible(c, f, t), truth.knows_chain(c, f, at=t)))
    return out


def _no_change_event(n_agents: int, kind: int, z: int) -> tuple:
    """(event, agents it involves): an event that changes nothing in the world."""
    agents = AGENTS[:n_agents]
    a = agents[z % n_agents]
    f = CONSTRAINED[(z >> 2) % len(CONSTRAINED)]
    if kind == 0:
        return Noop(agent=a), set()
    if kind == 1:
        return Noise(text="nothing"), set()
    if kind == 2:  # a look, witnessed by everyone (locations are public): only the looker learns
        return Observe(agents=(a,), fluents=(f,), witnesses=tuple(agents)), {a}
    return Possible(agent=a, observers=tuple(agents), fluents=(f,), values=("p1",),
                    given=(Condition(fluent=("state", "o1"), values=("nowhere",)),)), set()


@settings(max_examples=30)
@given(steps=steps_st, n_agents=st.integers(2, 3), k=st.integers(0, 40), kind=st.sampled_from([2, 3, 0, 1]),
       z=st.integers(0, 255))
def test_a_no_change_event_changes_no_possible_set(steps, n_agents, k, kind, z):
    trace = build(n_agents, steps)
    k = 2 + k % max(1, len(trace) - 1)
    k = min(k, len(trace))
    ev, involved = _no_change_event(n_agents, kind, z)
    base, more = check(trace), check(with_inserted(trace, k, ev))
    for c in _chains(n_agents):
        if set(c) & involved:
            continue
        for t in range(k, len(trace)):
            for f in CONSTRAINED:
                assert base.possible(c, f, t) == more.possible(c, f, t + 1), (k, ev.describe(), t, c, f)


def _unperceived_events(outsiders: tuple, insiders: tuple, z: int) -> list:
    """Events that change nothing real and that only ``outsiders`` perceive, see, witness or hear."""
    a = outsiders[z % len(outsiders)]
    f = CONSTRAINED[z % len(CONSTRAINED)]
    out = [Observe(agents=(a,), fluents=(f,), witnesses=outsiders),
           Possible(agent=a, observers=outsiders, fluents=(f,), values=("yes",))]
    others = [b for b in outsiders if b != a]
    content = (Content(predicate=f[0], subject=f[1:], value="p1" if f[0] == "in" else "none"),)
    if others:
        out += [Tell(sender=a, recipients=tuple(others), content=content),
                Announce(sender=a, audience=tuple(others), content=content, as_of=1)]
    return out


@settings(max_examples=30)
@given(steps=steps_st, k=st.integers(0, 40), z=st.integers(0, 255))
def test_an_event_perceived_by_nobody_in_the_chain_changes_none_of_its_answers(steps, k, z):
    trace = build(3, steps)
    k = min(2 + k % max(1, len(trace) - 1), len(trace))
    outsiders = ("C",) if z % 2 else ("B", "C")
    insiders = tuple(a for a in AGENTS if a not in outsiders)
    events = _unperceived_events(outsiders, insiders, z >> 1)
    ev = events[(z >> 3) % len(events)]
    base, more = check(trace), check(with_inserted(trace, k, ev))
    for c in chains(insiders, 4):
        for t in range(k, len(trace)):
            assert _answers(base, c, t) == _answers(more, c, t + 1), (k, ev.describe(), t, c)
