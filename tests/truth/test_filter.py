"""The filter: private traces are consistent traces the checker accepts, and say what the agent saw."""
import pytest

from belief.truth.checker import check
from belief.truth.filter import PrivateTrace, private_trace
from belief.truth.index import is_marker
from belief.truth.trace import Trace


def _trace():
    return Trace([
        {"kind": "enter", "agents": ["Alice"], "room": "hall"},
        {"kind": "enter", "agents": ["Bob"], "room": "kitchen"},      # Alice is elsewhere: unseen
        {"kind": "move", "agent": "Bob", "object": "apple", "to": "box"},
        {"kind": "enter", "agents": ["Alice"], "room": "kitchen"},    # Alice arrives and sees Bob there
        {"kind": "exit", "agents": ["Bob"]},                         # seen by Alice
        {"kind": "move", "agent": "Alice", "object": "apple", "to": "basket"},
    ])


def test_arrival_sees_who_is_already_in_the_room():
    mine = private_trace(_trace(), "Alice")
    kinds = [(e.kind, tuple(getattr(e, "agents", ()))) for e in mine]
    # Bob's unseen entry is not in Alice's trace, but her arrival shows him in the kitchen,
    # so his exit (which she saw) is consistent and the checker accepts her private trace.
    assert ("enter", ("Bob",)) in kinds and kinds.index(("enter", ("Bob",))) > kinds.index(("enter", ("Alice",)), 1)
    truth = check(mine)
    assert truth.value(("Alice",), ("in", "apple")) == "basket"
    # Bob left before the move: in Alice's record he still believes the apple is where he put it
    assert truth.value(("Alice", "Bob"), ("in", "apple")) == "box"


def test_perceive_returns_every_event_the_private_trace_gained():
    p = PrivateTrace("Alice")
    gained = [p.perceive(ev) for ev in _trace()]
    assert [len(g) for g in gained] == [1, 0, 0, 3, 1, 1]
    arrival = gained[3]
    assert [e.kind for e in arrival] == ["enter", "enter", "statement"]
    assert arrival[2].room == "kitchen" and arrival[2].fluent == ("in", "apple") and arrival[2].value == "box"
    assert sum(gained, []) == list(p.trace)


def test_arrival_adds_nothing_the_private_trace_already_has():
    events = [
        {"kind": "enter", "agents": ["Alice", "Bob"], "room": "kitchen"},
        {"kind": "move", "agent": "Bob", "object": "apple", "to": "box"},
        {"kind": "exit", "agents": ["Alice"]},
        {"kind": "enter", "agents": ["Alice"], "room": "kitchen"},
    ]
    p = PrivateTrace("Alice")
    gained = [p.perceive(ev) for ev in Trace(events)]
    assert [len(g) for g in gained] == [1, 1, 1, 1]


def test_private_trace_agrees_with_the_global_check_for_what_the_agent_saw():
    trace = _trace()
    world, mine = check(trace), check(private_trace(trace, "Alice"))
    for chain in (("Alice",), ("Alice", "Bob")):
        assert mine.value(chain, ("in", "apple")) is not None
        assert world.value(chain, ("in", "apple")) == mine.value(chain, ("in", "apple"))


# --- property: an agent's private trace gives it the beliefs the global trace gives it ------------------
from hypothesis import assume, given, settings, strategies as st  # noqa: E402

from belief.testing.traces import traces  # noqa: E402


@settings(max_examples=600, deadline=None)
@given(trace=traces(n_agents=3, n_rooms=2, max_steps=24), data=st.data())
def test_private_trace_gives_the_agent_its_global_beliefs(trace, data):
    world, agent, mine = _global_and_private(trace, data)
    fluents = sorted({tuple(f) for f in world.fluents()})
    # Zero order only: deeper chains of the global check use who was really present and what a room really
    # held, which the agent may not know (its private record can differ there, by design).
    for f in fluents:
        for chain in [(agent,)]:
            assert mine.value(chain, f) == world.value(chain, f), (chain, f, "\n".join(
                f"{e.t}: {e.describe()}" for e in trace))


def _global_and_private(trace, data) -> tuple:
    """The global truth of ``trace``, an agent drawn from it and the truth of that agent's private trace.

    Out of scope (``assume``): traces that observe a value not yet known (an online filter names what an
    observer saw from the world so far; a value revealed only later cannot be named then), and messages (a
    private trace's "reality" is the world as the agent last saw it, so a later arrival re-shows that view over
    a newer belief it was told: a known limit, see docs/logic.md), an arrival after a possible change (the same
    limit: the arrival re-shows the last view over the belief the possible change made unsure; see
    :func:`test_an_arrival_after_a_possible_change_does_not_reshow_the_last_view`), and traces that name no
    agent."""
    assume(not _observes_an_unknown_value(trace))
    assume(not any(ev.kind in ("tell", "announce") for ev in trace))
    assume(not _enters_after_a_possible_change(trace))
    agents = sorted(trace.agents())
    assume(agents)
    agent = data.draw(st.sampled_from(agents))
    return check(trace), agent, check(private_trace(trace, agent))


def _enters_after_a_possible_change(trace) -> bool:
    kinds = [ev.kind for ev in trace]
    return "possible" in kinds and "enter" in kinds[kinds.index("possible"):]


@pytest.mark.xfail(strict=True, reason="known limit (docs/logic.md, Private traces): a private trace's world is "
                                       "the world as its owner last saw it")
def test_an_arrival_after_a_possible_change_does_not_reshow_the_last_view():
    """B saw the pear put in r0_box0; it was really moved to r1 unseen, then A may have changed it (B is unsure);
    A walks in again: the global check shows B nothing of the pear (it is not in r0), B's private trace re-shows
    its last view, r0_box0."""
    trace = Trace([
        {"kind": "enter", "agents": ["A", "B"], "room": "r0"},
        {"kind": "move", "agent": "A", "object": "pear", "to": "r0_box0"},
        {"kind": "statement", "predicate": "in", "subject": ["pear"], "value": "r1_box0", "room": "r1"},
        {"kind": "possible", "agent": "A", "observers": ["A", "B"], "fluents": [["in", "pear"]]},
        {"kind": "enter", "agents": ["A"], "room": "r0"},
    ])
    world, mine = check(trace), check(private_trace(trace, "B"))
    assert is_marker(world.value(("B",), ("in", "pear")))
    assert mine.value(("B",), ("in", "pear")) == world.value(("B",), ("in", "pear"))


def _observes_an_unknown_value(trace) -> bool:
    known = set()
    for ev in trace:
        if ev.kind == "observe":
            if ev.values is None and any(tuple(f) not in known for f in ev.fluents):
                return True
            known.update(tuple(f) for f, v in zip(ev.fluents, ev.values or ()) if v is not None)
        elif ev.kind in ("move", "set", "statement"):
            known.add(ev.fluent)
        elif ev.kind == "enter":
            known.update(("at", a) for a in ev.agents)
        elif ev.kind == "action":
            known.update(tuple(e.fluent) for e in ev.effects)
    return False


@settings(max_examples=400, deadline=None)
@given(trace=traces(n_agents=3, n_rooms=2, max_steps=24, perception=True), data=st.data())
def test_private_trace_with_perception_gives_the_agent_its_global_beliefs(trace, data):
    """Secret observers, inattentive observers, perceived_as, opaque changes, quiet entries: an agent's private
    trace is accepted by the checker and gives it the beliefs the global trace gives it."""
    world, agent, mine = _global_and_private(trace, data)
    for f in sorted({tuple(f) for f in world.fluents()}):
        assert mine.value((agent,), f) == world.value((agent,), f), (agent, f, "\n".join(
            f"{e.t}: {e.describe()} {e.model_dump(exclude_none=True, include={'secret_observers', 'inattentive', 'perceived_as', 'opaque', 'quiet'})}"
            for e in trace))


def test_private_traces_of_a_peek_and_a_distraction():
    trace = Trace([
        {"kind": "enter", "agents": ["Anne", "Bob", "Dana"], "room": "kitchen"},
        {"kind": "enter", "agents": ["Carl"], "room": "garden"},
        {"kind": "move", "agent": "Anne", "object": "ball", "to": "basket"},
        {"kind": "move", "agent": "Anne", "object": "ball", "to": "box", "secret_observers": ["Carl"],
         "inattentive": ["Dana"]},
    ])
    carl, anne, dana = (private_trace(trace, a) for a in ("Carl", "Anne", "Dana"))
    # Carl peeked: his record places those in the kitchen there (unnoticed: the checker gives a peek only the
    # event), and his copy says he alone saw it, secretly
    assert [e.kind for e in carl][-1] == "move" and {e.kind for e in carl} == {"enter", "move"}
    assert carl[-1].secret_observers == ("Carl",) and carl[-1].inattentive is None
    assert check(carl).value(("Carl",), ("at", "Anne")) is None
    assert check(carl).value(("Carl", "Anne"), ("in", "ball")) == "box"
    assert check(carl).value(("Carl", "Anne", "Carl"), ("in", "ball")) is None
    # Anne does not know of Carl, and believes Dana saw it
    assert anne[-1].secret_observers is None and anne[-1].inattentive is None
    assert check(anne).value(("Anne", "Dana"), ("in", "ball")) == "box"
    # Dana missed it
    assert [e.kind for e in dana] == ["enter", "move"] and check(dana).value(("Dana",), ("in", "ball")) == "basket"


def test_a_conditional_observation_after_a_possible_change_reaches_the_private_trace():
    """The filter asks the checker's own rule whether the agent draws a conditional observation: what it last
    saw counts after a possible change it saw (the filter used to read the now-unsure value and drop it)."""
    from belief.truth.trace import Action, Condition, Effect, Observe, Possible

    seq, changed = ("seq", "bomb_3"), ("changed", "bomb_3")
    trace = Trace([
        Action(name="setup", effects=(Effect(predicate="seq", subject=("bomb_3",), value="green,blue"),
                                      Effect(predicate="changed", subject=("bomb_3",), value="no")), visible_to=()),
        Observe(agents=("alpha",), fluents=(seq,), values=("green,blue",)),
        Possible(agent="bravo", observers=("alpha", "bravo"), fluents=(seq, changed), values=(None, "yes")),
        Action(name="apply", agent="bravo", visible_to=("bravo",),
               effects=(Effect(predicate="seq", subject=("bomb_3",), value="blue"),
                        Effect(predicate="changed", subject=("bomb_3",), value="yes"))),
        Observe(agents=("alpha",), fluents=(changed,), given=Condition(fluent=seq, values=("green,blue",))),
        Observe(agents=("alpha",), fluents=(seq,)),
    ])
    world, mine = check(trace), check(private_trace(trace, "alpha"))
    assert world.value(("alpha",), changed) == "yes" and world.knows("alpha", changed)
    assert mine.value(("alpha",), changed) == "yes" and mine.knows("alpha", changed)


# --- with the world's rules: zero-order knowledge and possible values agree too (docs/logic.md) -----------------
from belief.testing.traces import BOXES, ROOMS  # noqa: E402

_RULES = [{"kind": "domain", "predicate": "in", "values": [b for r in ROOMS[:2] for b in BOXES[r]]},
          {"kind": "domain", "predicate": "at", "values": ROOMS[:2]}]


@settings(max_examples=300, deadline=None)
@given(trace=traces(n_agents=3, n_rooms=2, max_steps=24, perception=True), data=st.data())
def test_private_trace_with_rules_gives_the_agent_its_global_knowledge(trace, data):
    """Excluded by design: a fluent the agent believes falsely (it missed a change, or took "nowhere" for a place
    it saw someone leave): the private record measures knowledge against its owner's beliefs."""
    world, agent, mine = _global_and_private(Trace(list(trace), meta={"constraints": _RULES}), data)
    for f in world.fluents():
        held = world.lookup((agent,), f)
        if held is not None and not is_marker(held.value) and held.value != world.reality(f):
            continue
        assert (mine.knows_chain((agent,), f), mine.possible((agent,), f)) == \
            (world.knows_chain((agent,), f), world.possible((agent,), f)), (agent, f)
