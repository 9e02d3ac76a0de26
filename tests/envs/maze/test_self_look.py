"""A maze player always knows where it is, and everyone knows that (the rules are public): under partial view
the environment writes, at the start and after each move of a player, its look at its own room witnessed by
every player (``self_look_event``). Golds here are worked by hand from the documented semantics of a witnessed
observation ([logic](docs/logic.md): witnesses know the observer looked, not what it saw)."""

from belief.envs.maze import capture
from belief.envs.maze.environment import PLAYERS
from belief.truth.checker import check
from belief.truth.filter import private_trace
from belief.truth.trace import Action, Effect, Observe, Trace

BOB_AT = ("at", "bob")


def _story(witnessed: bool) -> Trace:
    """Alice and Bob start in rooms nobody else sees; Bob walks from room_1 to room_2 out of Alice's sight."""
    events = [
        Action(name="setup", effects=(Effect(predicate="at", subject=("alice",), value="room_5"),
                                      Effect(predicate="at", subject=("bob",), value="room_1")), visible_to=()),
        Observe(agents=("alice",), fluents=(("at", "alice"),)),
        Observe(agents=("bob",), fluents=(BOB_AT,)),
        Action(name="move", agent="bob", effects=(Effect(predicate="at", subject=("bob",), value="room_2"),),
               visible_to=("bob",)),
    ]
    if witnessed:
        events.append(Observe(agents=("bob",), fluents=(BOB_AT,), witnesses=("alice", "bob")))
    return Trace(events)


def test_a_witnessed_look_at_ones_own_room_makes_the_partner_aware():
    # without the witnessed look Alice knows nothing of Bob's room, so she is not aware that he knows it
    plain = check(_story(False))
    assert plain.knows("bob", BOB_AT)
    assert not plain.knows_chain(("alice", "bob"), BOB_AT)
    # with it: Bob knows, Alice is aware that he knows (she witnessed the look), and still does not know where
    seen = check(_story(True))
    assert seen.knows("bob", BOB_AT)
    assert seen.knows_chain(("alice", "bob"), BOB_AT)
    assert seen.knows_chain(("bob", "alice", "bob"), BOB_AT)   # joint witnessing: Bob knows Alice is aware
    assert seen.value(("alice",), BOB_AT) is None and not seen.knows("alice", BOB_AT)
    # Alice's own record (what she perceived) says the same: "Does Bob know where Bob is?" yes
    mine = check(private_trace(_story(True), "alice"))
    assert mine.knows_chain(("bob",), BOB_AT)
    assert not check(private_trace(_story(False), "alice")).knows_chain(("bob",), BOB_AT)


def _self_looks(trace):
    return [ev for ev in trace if ev.kind == "observe" and ev.witnesses]


def test_the_environment_writes_each_players_witnessed_look_under_partial_view():
    e = capture.raw_env(seed=7001, rules="project")
    looks = _self_looks(e.trace)
    assert [ev.agents for ev in looks] == [("alice",), ("bob",)]       # one per player at the start
    for ev in looks:
        assert ev.fluents == (("at", ev.agents[0]),) and set(ev.witnesses) == set(PLAYERS)
    mover = e.agent_selection
    room = e.maze.pos[mover]
    move = next(a for a in range(1, 5) if e.legal(mover)[a])
    e.step(move)
    assert e.maze.pos[mover] != room
    after = _self_looks(e.trace)
    assert len(after) == 3 and after[-1].agents == (mover,)             # and one after its move
    partner = next(p for p in PLAYERS if p != mover)
    truth = check(e.trace)
    assert truth.knows_chain((partner, mover), ("at", mover))


def test_full_view_writes_no_witnessed_look():
    """Under the source's rules every move is seen by everyone: the witnessed look would add nothing."""
    e = capture.raw_env(seed=7001)
    e.step(0)
    assert _self_looks(e.trace) == []
