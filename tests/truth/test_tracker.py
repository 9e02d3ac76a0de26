"""The online tracker: after every append, every query equals the batch check of the prefix; bad events
leave it unchanged."""

from __future__ import annotations

import json
import random
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from belief import Tracker
from belief.errors import QueryError, TraceError
from belief.logic.formula import Var, normalize_chain
from belief.testing.traces import AGENTS, OBJECTS, build_trace, perceived_steps_st, steps_st
from belief.truth import index as index_module
from belief.truth.index import is_marker
from belief.truth.checker import check
from belief.truth.ground import GroundTruth
from belief.truth.trace import Enter, Move, Trace
from tests.truth.test_checker_properties import Reference  # the brute-force reference: every chain materialised


def chains(agents, depth):
    return sorted({normalize_chain(c) for k in range(1, depth + 1) for c in product(agents, repeat=k)})


def fluents_of(truth):
    return [("in", o) for o in OBJECTS] + [("at", a) for a in AGENTS]


def same_answers(tracked, batch, agents, depth=3):
    for c in chains(agents, depth):
        for f in fluents_of(batch):
            assert tracked.value(c, f) == batch.value(c, f), (c, f)
            assert tracked.knows_chain(c, f) == batch.knows_chain(c, f), (c, f)
            p, q = tracked.lookup(c, f), batch.lookup(c, f)
            assert (p is None) == (q is None)
            if p is not None:
                assert (p.t, p.how, p.observers, p.event) == (q.t, q.how, q.observers, q.event)


@settings(max_examples=150, deadline=None)
@given(steps=steps_st, n_agents=st.integers(1, 4), policy=st.sampled_from(["strict-truthful", "hitom"]))
def test_every_query_after_every_append_equals_the_batch_check_of_the_prefix(steps, n_agents, policy):
    trace = build_trace(n_agents, 2, steps)
    agents = AGENTS[:n_agents]
    tracker = Tracker(policy=policy)
    views = []
    for k, ev in enumerate(trace):
        stored = tracker.append(ev.model_dump(exclude_none=True) if k % 2 else ev)
        assert stored == ev
        batch = check(Trace(trace.events[:k + 1]), policy)
        same_answers(tracker, batch, agents)
        truth = tracker.truth()
        assert isinstance(truth, GroundTruth) and truth.end == k
        assert sorted(truth.fluents()) == sorted(batch.fluents())
        assert truth.agents == batch.agents
        assert truth.vocabulary() == batch.vocabulary()
        for a in agents:
            q = f"? {a} BELIEVE apple IN ?c"
            try:
                expected = batch.answer(q)
            except QueryError as e:
                with pytest.raises(QueryError, match=str(e)[:30]):
                    tracker.answer(q)
                continue
            got = tracker.answer(q)
            assert (got.value, got.stance, got.known) == (expected.value, expected.stance, expected.known)
        views.append((k, truth))
    assert tracker.trace.events == trace.events
    for k, view in views:  # a truth taken earlier stays the truth of its prefix
        batch = check(Trace(trace.events[:k + 1]), policy)
        same_answers(view, batch, agents, depth=2)
        assert view.vocabulary() == batch.vocabulary()


def _asked_as(chain: tuple, form: int):
    """The same chain as a caller may give it: a tuple, a list (unhashable: never kept), or one name alone."""
    if form == 1:
        return list(chain)
    if form == 2 and len(chain) == 1:
        return chain[0]
    return chain


@settings(max_examples=120, deadline=None)
@given(steps=steps_st, n_agents=st.integers(1, 4), policy=st.sampled_from(["strict-truthful", "hitom"]),
       data=st.data())
def test_answers_with_caches_warm_equal_answers_with_caches_cleared(steps, n_agents, policy, data):
    """The answers a tracker keeps between appends never change an answer: one tracker asked a few questions
    again and again (in random order and forms, appends and refused events in between) answers each as a
    tracker whose caches and memos are cleared before every question, and at the end as the batch check."""
    trace = build_trace(n_agents, 2, steps)
    agents = AGENTS[:n_agents]
    pool = data.draw(st.lists(st.tuples(st.sampled_from(chains(agents, 3)), st.sampled_from(fluents_of(None))),
                              min_size=1, max_size=6, unique=True), label="questions")
    ask = st.tuples(st.sampled_from(pool), st.sampled_from(["value", "lookup", "knows_chain"]), st.integers(0, 2))
    warm, cold = Tracker(policy=policy), Tracker(policy=policy)
    for ev in trace:
        if data.draw(st.booleans(), label="refused event first"):
            for t in (warm, cold):
                with pytest.raises(TraceError):
                    t.append({"kind": "exit", "agents": ["Zed"]})  # in no room: refused, nothing changes
        warm.append(ev)
        cold.append(ev)
        for (c, f), how, form in data.draw(st.lists(ask, max_size=10), label="asked"):
            got = getattr(warm, how)(_asked_as(c, form), f)
            cold.clear_caches()
            expected = getattr(cold, how)(c, f)
            if how == "lookup":
                got = got and (got.t, got.value, got.how, got.observers, got.event)
                expected = expected and (expected.t, expected.value, expected.how, expected.observers, expected.event)
            assert got == expected, (len(warm), c, f, how)
    if len(trace):
        batch = check(trace, policy)
        for c, f in pool:
            assert warm.value(c, f) == batch.value(c, f) and warm.knows_chain(c, f) == batch.knows_chain(c, f)


def _shown(v):
    """A value as the brute-force reference writes it (markers as ``<name>``)."""
    return f"<{v}>" if is_marker(v) else v


@settings(max_examples=150, deadline=None)
@given(steps=perceived_steps_st, n_agents=st.integers(2, 4), policy=st.sampled_from(["strict-truthful", "hitom"]),
       work=st.sampled_from([index_module.JOINT_WORK, 0]), data=st.data())
def test_fresh_answers_online_equal_the_reference_and_the_answers_with_caches_cleared(steps, n_agents, policy, work,
                                                                                        data):
    """A fresh question at the last event takes the tracker's short path (its chain's ids kept, the latest
    joint update of the chain's agents kept current by every append once asked). After every append of random
    traces with messages under both policies, secret and inattentive observers, hidden listeners,
    ``perceived_as``, opaque moves, quiet entries, conditional and witnessed looks and possible changes, the
    questions asked (a random few, so that sets are registered at random times; ``work=0``: the kept joint
    updates are dropped by every update with two observers or more and registered again) equal the brute-force
    reference and a tracker whose caches and memos are cleared before each question."""
    trace = build_trace(n_agents, 2 if policy == "strict-truthful" else 3, steps)
    agents = AGENTS[:n_agents]
    ref = Reference(agents, 3, policy)
    fluents = [("in", o) for o in OBJECTS] + [("at", a) for a in agents]
    warm, cold = Tracker(policy=policy), Tracker(policy=policy)
    saved = index_module.JOINT_WORK
    index_module.JOINT_WORK = work
    try:
        for t, ev in enumerate(trace):
            ref.step(ev)
            warm.append(ev)
            cold.append(ev)
            asked = data.draw(st.lists(st.tuples(st.sampled_from(ref.chains), st.sampled_from(fluents)), max_size=12),
                              label="asked")
            for c, f in asked:
                got = warm.value(c, f)
                cold.clear_caches()
                assert got == cold.value(c, f), (t, c, f)
                want = ref.value(c, f, t)  # "<unknown>": never observed, which value() answers as None
                assert _shown(got) == (None if want == "<unknown>" else want), (t, c, f, got, want)
    finally:
        index_module.JOINT_WORK = saved


@pytest.mark.parametrize("work", [index_module.JOINT_WORK, 2])
def test_kept_joint_updates_follow_every_update_and_refused_events(work, monkeypatch):
    """The latest update all of a set of agents observed, kept current by the replay (:func:`fold_joint`),
    equals a scan of the update masks after every append, whichever way it is kept (the registered sets or the
    subsets of the update's observers, whichever are fewer; ``work=2``: dropped by most updates), also after
    messages refused midway (a policy that writes one update, then fails: the update is cut)."""
    from belief.app.bench.checker import make_trace
    from tests.truth.test_red_team import HalfWay

    monkeypatch.setattr(index_module, "JOINT_WORK", work)
    trace = make_trace(agents=6, rooms=2, events=400, objects=2, seed=4)
    tracker = Tracker(HalfWay())
    rng = random.Random(9)
    names = [f"agent{i}" for i in range(6)]
    refused = 0
    for k, ev in enumerate(trace):
        try:
            tracker.append(ev, renumber=True)
        except TraceError:
            refused += 1
        if k % 3 == 0:  # register a few sets now and then
            tracker.value(tuple(rng.sample(names, rng.randint(2, 4))), ("in", f"obj{rng.randrange(2)}"))
        for f, idx in tracker.replay.index.items():
            for smask, pos in idx.joint.items():
                scan = max((j for j, m in enumerate(idx.masks) if m & smask == smask), default=-1)
                assert pos == scan, (k, f, smask)
    assert refused > 10 and sum(len(idx.joint) for idx in tracker.replay.index.values()) > (20 if work > 2 else 0)


def test_a_repeated_question_is_kept_until_the_next_append():
    """The cache is used (the same answer object comes back) and emptied by an append, even one that changes
    nothing this question reads."""
    tracker = Tracker()
    tracker.append({"kind": "enter", "agents": ["Anne", "Carl"], "room": "kitchen"})
    tracker.append({"kind": "move", "agent": "Anne", "object": "apple", "to": "box"})
    first = tracker.lookup(("Carl", "Anne"), ("in", "apple"))
    assert first.value == "box" and tracker.lookup(("Carl", "Anne"), ("in", "apple")) is first
    tracker.append({"kind": "exit", "agents": ["Carl"]})
    again = tracker.lookup(("Carl", "Anne"), ("in", "apple"))
    assert again is not first and (again.t, again.value) == (first.t, first.value)
    tracker.append({"kind": "move", "agent": "Anne", "object": "apple", "to": "basket"})  # Carl is out: unseen
    assert tracker.value(("Carl", "Anne"), ("in", "apple")) == "box" and tracker.value("Anne", "apple") == "basket"
    assert tracker.value(["Anne"], ("in", "apple")) == "basket"  # a list: answered, not kept
    assert tracker.knows_chain(("Carl",), ("in", "apple")) is False and tracker.knows_chain("Anne", "apple") is True


def test_long_trace_with_the_bitset_path_matches_the_prefix_checks():
    """Incremental use of the replay: the bitset blocks grow with the index (a stale cache gave wrong answers)."""
    from belief.app.bench.checker import make_trace

    trace = make_trace(agents=5, rooms=2, events=1200, objects=3, seed=11)
    tracker = Tracker()
    rng = random.Random(5)
    names = [f"agent{i}" for i in range(5)]
    probes = [(tuple(rng.choice(names) for _ in range(rng.randint(2, 4))), ("in", f"obj{rng.randrange(3)}"))
              for _ in range(40)]
    for k, ev in enumerate(trace):
        tracker.append(ev)
        truth = tracker.truth()
        truth._GALLOP_ROUNDS = 0  # always the bitset path
        if k % 97 == 0 or k == len(trace) - 1:
            batch = check(Trace(trace.events[:k + 1]))
            for c, f in probes:
                assert truth.value(c, f) == batch.value(c, f), (k, c, f)
                assert truth.value(c, f, k // 2) == batch.value(c, f, k // 2), (k, c, f)
        else:
            for c, f in probes[:3]:  # grow the caches between the checks
                truth.value(c, f)


def state(tracker: Tracker):
    """Everything a rejected event could have touched."""
    b = tracker.replay
    return (len(tracker.trace), list(b.agents), dict(b.aid), dict(b.loc), dict(b.occ), dict(b.reality), b.seq,
            b.last_chapter, {k: (set(c.participants), dict(c.exit_rank)) for k, c in b.chapters.items()},
            set(b.rooms), {f: len(i.times) for f, i in b.index.items()}, len(tracker.replay.index))


BAD_EVENTS = [
    {"kind": "exit", "agents": ["Zed"]},                                   # exits but is in no room
    {"kind": "exit", "agents": ["Anne", "Bob"], "chapter": 2},             # Bob is in no room
    {"kind": "exit", "agents": ["Anne"], "room": "hall"},                  # Anne is in the kitchen
    {"kind": "move", "agent": "Bob", "object": "apple", "to": "box"},      # Bob is in no room
    {"kind": "statement", "subject": "apple", "value": "box"},             # a statement needs a room
    {"kind": "teleport", "agent": "Anne"},                                 # no such kind
    {"kind": "enter", "agents": [], "room": "kitchen"},                    # nobody
    '{"kind": "enter", "agents": ["Anne"], ',                              # malformed JSON
    '[1, 2]',                                                              # not an object
    {"kind": "noop", "agent": "Anne", "t": 7},                             # wrong index
    42,                                                                    # not an event at all
]


@pytest.mark.parametrize("bad", BAD_EVENTS, ids=range(len(BAD_EVENTS)))
def test_a_bad_event_raises_one_line_and_leaves_the_tracker_unchanged(bad):
    tracker = Tracker()
    tracker.append({"kind": "enter", "agents": ["Anne"], "room": "kitchen", "chapter": 1})
    tracker.append({"kind": "move", "agent": "Anne", "object": "apple", "to": "box"})
    before = state(tracker)
    answer = tracker.answer("? Anne BELIEVE apple IN ?c").value
    with pytest.raises(TraceError) as err:
        tracker.append(bad)
    assert "\n" not in str(err.value)
    assert state(tracker) == before
    assert tracker.answer("? Anne BELIEVE apple IN ?c").value == answer
    tracker.append({"kind": "exit", "agents": ["Anne"]})  # still usable
    assert tracker.truth().location("Anne") is None


def test_unknown_names_with_a_domain_are_refused():
    from belief.logic.example_domains import domain as get_domain

    dom = get_domain("tomi")
    tracker = Tracker(domain=dom, entities={"Anne": "agent", "kitchen": "room", "apple": "item",
                                            "box": "container"})
    tracker.append({"kind": "enter", "agents": ["Anne"], "room": "kitchen"})
    before = state(tracker)
    with pytest.raises(TraceError, match="Anna") as err:
        tracker.append({"kind": "enter", "agents": ["Anna"], "room": "kitchen"})
    assert "\n" not in str(err.value)
    with pytest.raises(TraceError, match="fits|fit domain"):
        tracker.append({"kind": "move", "agent": "Anne", "object": "apple", "to": "boxx"})
    assert state(tracker) == before
    tracker.append({"kind": "move", "agent": "Anne", "object": "apple", "to": "box"})
    assert tracker.value(("Anne",), ("in", "apple")) == "box"


def test_append_takes_objects_dicts_and_json_lines_and_renumbers_on_request():
    tracker = Tracker(meta={"private_to": "Anne"})
    a = tracker.append(Enter(agents=("Anne", "Carl"), room="kitchen"))
    b = tracker.append(json.dumps({"kind": "move", "agent": "Anne", "object": "apple", "to": "box"}))
    c = tracker.append(Move(t=40, agent="Carl", object="apple", to="bag"), renumber=True)
    assert (a.t, b.t, c.t) == (0, 1, 2)
    assert tracker.trace.meta == {"private_to": "Anne"}
    assert tracker.truth().owner == "Anne"
    assert tracker.value(("Anne", "Carl"), "apple") == "bag"
    assert tracker.knows("Carl", "apple", perspective=("Anne",))
    assert tracker.aware_that_knows("Anne", "Carl", "apple")
    assert tracker.knows_chain(("Carl",), "apple")
    assert tracker.truth() is tracker.truth()


def test_a_chain_naming_someone_not_met_yet_holds_nothing_until_they_are_met():
    """A fresh question whose chain names an agent the tracker has not met (or about a fluent nothing wrote)
    is answered None at once; the chain is looked at again once more agents are met (hand-worked answers)."""
    tracker = Tracker()
    tracker.append({"kind": "enter", "agents": ["Anne"], "room": "kitchen"})
    tracker.append({"kind": "move", "agent": "Anne", "object": "apple", "to": "box"})
    assert tracker.value(("Bob",), ("in", "apple")) is None
    assert tracker.value(("Anne", "Bob"), ("in", "apple")) is None
    assert tracker.value(("Anne",), ("in", "pear")) is None  # nothing wrote the pear
    assert tracker.value(("Anne",), "apple") == "box"  # a fluent as text: the general way
    assert tracker.value(("Bob",), "apple") is None
    tracker.append({"kind": "enter", "agents": ["Carl"], "room": "hall"})  # met: Carl, not Bob
    assert tracker.value(("Bob",), ("in", "apple")) is None
    tracker.append({"kind": "enter", "agents": ["Bob"], "room": "kitchen"})  # Bob sees the apple in the box
    assert tracker.value(("Bob",), ("in", "apple")) == "box"
    assert tracker.value(("Anne", "Bob"), ("in", "apple")) == "box"
    assert tracker.value(("Bob", "Bob"), ("in", "apple")) == "box"  # (the same chain as ("Bob",))
    assert tracker.value(("Carl",), ("in", "apple")) is None
    for _ in range(2):  # a chain that is no chain raises, asked again too (nothing kept for it)
        with pytest.raises(QueryError):
            tracker.value(("Anne", Var("x")), ("in", "apple"))


def test_fold_joint_reads_many_sets_when_the_updates_since_paid_for_it_else_forgets_them():
    """An update seen by many agents, with more sets registered than :data:`JOINT_WORK` look-ups: the sets are
    read (each inside the observers moved to the update) when the updates since the last such read are at least
    ``sets / JOINT_WORK``, and forgotten otherwise (registered again when asked); either way no kept position is
    wrong."""
    work = index_module.JOINT_WORK
    idx = index_module.FluentIndex()
    sets = [m for m in range(1, 1 << 10) if m.bit_count() >= 2][: 2 * work]  # 2*work sets of 2+ of 10 agents
    everyone = (1 << 10) - 1
    idx.joint = dict.fromkeys(sets, 0)
    index_module.fold_joint(idx, everyone, 1)  # one update since: 2*work look-ups not paid for
    assert idx.joint == {} and idx.joint_read == 1
    idx.joint = dict.fromkeys(sets, 0)
    mask = everyone & ~1  # agent 0 did not observe it
    index_module.fold_joint(idx, mask, 3)  # two updates since the last read: paid for
    assert idx.joint == {s: (3 if s & mask == s else 0) for s in sets} and idx.joint_read == 3
    assert any(v == 0 for v in idx.joint.values()) and any(v == 3 for v in idx.joint.values())
    index_module.fold_joint(idx, 0b11, 4)  # two observers: their one subset, whatever was registered
    assert idx.joint[0b11] == 4 and idx.joint_read == 3
