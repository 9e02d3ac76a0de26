"""Scripted bomb-game cases: the definition of knowledge in docs/logic.md and the checker agree.

Each case plays a small scripted world through the text interface; every answer comes from
``belief.truth.checker`` on the env's global trace (there is no other ToM calculus to compare with).
"""

from belief.truth.checker import check
from belief.truth.index import is_marker
from belief.envs.bomb import environment as bomb_v0
from belief.envs.bomb.events import f_changed, f_contents, f_in, f_last_defuser, f_seq
from belief.envs.bomb.world import DEFAULT_MAP, Bomb, World
from belief.envs.bomb.text import TextInterface
from belief.envs.bomb.tom import questions, truth
from belief.truth.filter import private_trace


def world(bombs, start=0):
    """A scripted world on the default map; ``bombs`` = {id: (room, sequence)}."""
    return World(DEFAULT_MAP, {b: Bomb(b, room, tuple(seq)) for b, (room, seq) in bombs.items()},
                 {a: start for a in ("alpha", "bravo", "charlie")})


def play(w, turns):
    """``turns``: free-text actions (optionally 'action\\nMessage: ...') in turn order alpha, bravo, charlie."""
    e = bomb_v0.raw_env(seed=0)
    e.reset(options={"world": w})
    ti = TextInterface(e)
    for text in turns:
        ti.step(text)
    return e


# five bombs, one per room; bombs 1 (Room 5) and 2 (Room 3) are the ones played with
BOMBS = {1: (5, ("red", "green")), 2: (3, ("blue",)), 3: (0, ("green", "green", "blue")), 4: (6, ("red",)),
         5: (8, ("blue", "red"))}
WAIT = "Inspect Bomb"  # in Room 0 (bomb 3): changes nothing; bravo and charlie cannot cut green... see cases


def test_a_bomb_gone_from_a_room_an_agent_sees_is_known_defused():
    """Alpha saw bomb 2 in Room 3, left; charlie defused it (alone). Alpha, back in Room 3, sees it gone:
    alpha knows bomb 2 is defused (its sequence: none). Bravo, who never saw bomb 2, does not."""
    e = play(world(BOMBS), [
        "Move to Room 3", "Inspect Bomb", "Inspect Bomb",        # alpha sees bomb 2 in Room 3
        "Move to Room 0", "Inspect Bomb", "Move to Room 3",      # alpha leaves, charlie arrives
        "Inspect Bomb", "Inspect Bomb", "Apply Blue Tool",       # charlie defuses bomb 2 (1 phase): it vanishes
    ])
    t = check(e.trace)
    assert t.reality(f_seq(2)) == "none"
    # the public score jump with charlie's public location: alpha, who knew bomb 2 was there, knows at once
    assert t.knows("alpha", f_seq(2)) and t.knows("alpha", f_in(2)) and t.knows("alpha", f_changed(2))
    # bravo never learned where bomb 2 was: it knows Room 3 is empty, not which bomb is gone
    assert t.knows("bravo", f_contents(3)) and not t.knows("bravo", f_seq(2))
    # charlie knows it did it; but charlie only witnessed alpha look at Room 3 (without sharing that view), so
    # it holds no belief about what alpha saw there and is not credited with awareness (see docs/logic.md)
    assert t.knows("charlie", f_in(2)) and not t.aware_that_knows("charlie", "alpha", f_in(2))


def test_seeing_the_empty_room_itself_tells_whoever_expected_the_bomb():
    e = play(world(BOMBS), [
        "Move to Room 3", "Inspect Bomb", "Move to Room 3",      # alpha and charlie see bomb 2
        "Move to Room 0", "Inspect Bomb", "Apply Blue Tool",     # alpha leaves; charlie defuses bomb 2
    ])
    t = check(e.trace)
    assert t.knows("alpha", f_seq(2))           # the score jump already told alpha
    e2 = play(world(BOMBS), [
        "Move to Room 3", "Move to Room 3", "Inspect Bomb",
        "Move to Room 0", "Apply Blue Tool", "Inspect Bomb",     # bravo defuses bomb 2 while alpha is away
        "Move to Room 3",                                        # alpha comes back and sees the room empty
    ])
    t2 = check(e2.trace)
    assert t2.knows("alpha", f_contents(3)) and t2.knows("alpha", f_seq(2))
    assert not t2.knows("charlie", f_seq(2))    # charlie never saw bomb 2


def test_a_one_phase_bomb_changes_only_by_vanishing():
    """Bomb 2 has one phase; bravo (blue cutter) stays with it and does not defuse it: alpha, who read its
    sequence, still knows it (a change would have shown in the public score)."""
    e = play(world(BOMBS), [
        "Move to Room 3", "Move to Room 3", "Inspect Bomb",
        "Inspect Bomb", "Inspect Bomb", "Inspect Bomb",          # alpha reads bomb 2; bravo only inspects
    ])
    t = check(e.trace)
    assert t.knows("alpha", f_seq(2))
    # possible changes come from what teammates see (bravo stayed), one per bomb, never from the hidden world:
    # each is conditional on the bomb being there with a sequence bravo can cut, which alpha rules out
    possible = [ev for ev in e.trace if ev.kind == "possible"]
    assert possible and all(ev.given and len(ev.given) == 2 for ev in possible)
    assert len({ev.fluents[0] for ev in possible}) == len(BOMBS)


def test_a_teammate_without_the_cutter_cannot_have_changed_the_bomb():
    """Bomb 1 (red, green) in Room 5; bravo (green, blue) stays there: it cannot cut red, so alpha still knows
    bomb 1's sequence. Charlie (blue, red) stays there: alpha no longer knows it (a possible change)."""
    e = play(world(BOMBS), [
        "Move to Room 5", "Move to Room 5", "Inspect Bomb",
        "Inspect Bomb", "Inspect Bomb", "Inspect Bomb",          # alpha reads; bravo stays without red
    ])
    t = check(e.trace)
    assert t.knows("alpha", f_seq(1))
    e2 = play(world(BOMBS), [
        "Move to Room 5", "Inspect Bomb", "Move to Room 5",
        "Inspect Bomb", "Inspect Bomb", "Inspect Bomb",          # charlie, who holds red, stays with bomb 1
    ])
    t2 = check(e2.trace)
    assert not t2.knows("alpha", f_seq(1)) and t2.knows("charlie", f_seq(1))
    assert not t2.aware_that_knows("alpha", "charlie", f_seq(1))  # alpha cannot tell what charlie did


def test_an_agents_own_two_inspections_show_a_change():
    """Alpha reads bomb 1 (red, green), charlie cuts red unseen, alpha reads (green): alpha knows it changed."""
    e = play(world(BOMBS), [
        "Move to Room 5", "Inspect Bomb", "Move to Room 5",
        "Inspect Bomb", "Inspect Bomb", "Apply Red Tool",        # charlie defuses the red phase
        "Inspect Bomb",                                          # alpha reads the shorter sequence
    ])
    t = check(e.trace)
    assert t.reality(f_changed(1)) == "yes"
    assert t.knows("alpha", f_changed(1)) and t.knows("alpha", f_seq(1))
    assert not t.knows("bravo", f_changed(1))


def test_a_false_defused_message_is_believed_not_known():
    """Bravo falsely says bomb 2 is defused: alpha believes it but does not know Room 3's contents or
    bomb 2's sequence; 'knowledge' from a false message is never credited."""
    e = play(world(BOMBS), [
        "Inspect Bomb", "Inspect Bomb\nMessage: Bomb 2 is defused. Room 3 is empty.", "Inspect Bomb",
        "Inspect Bomb",                                           # round 2: the message has been delivered
    ])
    t = check(e.trace)
    assert t.value(("alpha",), f_seq(2)) == "none" and t.reality(f_seq(2)) == "blue"
    assert not t.knows("alpha", f_seq(2)) and not t.knows("alpha", f_contents(3))
    assert not t.aware_that_knows("charlie", "alpha", f_contents(3))


def test_study_hard_case_announced_move_that_failed():
    """Alpha (Room 5) announces a move to Room 8, which is not adjacent, and stays: bravo, who sees alpha's
    real location, is not aware that alpha knows Room 8's contents. When alpha really gets there, bravo is."""
    e = play(world(BOMBS, start=5), [
        "Move to Room 8\nMessage: I am moving to Room 8.", "Inspect Bomb", "Inspect Bomb",
        "Move to Room 6",
    ])
    assert e.world.locations["alpha"] == 5 or e.world.locations["alpha"] == 6
    k = 0
    assert truth(e.trace, "introspection", "alpha", "bravo", "contents", 8, k) is False
    assert truth(e.trace, "second_order", "alpha", "bravo", "contents", 8, k) is False
    e2 = play(world(BOMBS, start=6), ["Move to Room 8", "Inspect Bomb", "Inspect Bomb"])
    assert truth(e2.trace, "introspection", "alpha", "bravo", "contents", 8, 0) is True
    assert truth(e2.trace, "second_order", "alpha", "bravo", "contents", 8, 0) is True   # public location
    assert truth(e2.trace, "first_order", "alpha", "bravo", "contents", 8, 0) is False   # bravo never saw it


def test_you_changed_it_needs_evidence_for_the_teammate():
    """Charlie cuts a phase of bomb 1 with alpha present: alpha cannot see a partial defusal; the study's
    second-order question 'is alpha aware that you changed bomb 1?' is No; after charlie says so, Yes."""
    e = play(world(BOMBS), [
        "Move to Room 5", "Inspect Bomb", "Move to Room 5",
        "Inspect Bomb", "Inspect Bomb", "Apply Red Tool\nMessage: I defused a phase of Bomb 1.",
    ])
    qs = [q for q in questions(e.trace) if q.turn == 5 and q.set == "study"]
    assert {q.level: q.answer for q in qs} == {"introspection": True, "first_order": False, "second_order": False}
    e = play(world(BOMBS), [
        "Move to Room 5", "Inspect Bomb", "Move to Room 5",
        "Inspect Bomb", "Inspect Bomb", "Apply Red Tool\nMessage: I defused a phase of Bomb 1.",
        "Inspect Bomb",
    ])
    t = check(e.trace)
    # alpha read the bomb again: it changed, and only charlie (who holds red) stayed with it between alpha's two
    # readings (alpha's own stays do not count against it: it knows what it did), so alpha knows who cut it
    assert t.knows("alpha", f_changed(1)) and t.knows("alpha", f_last_defuser(1))
    assert t.possible("alpha", f_last_defuser(1)) == {"charlie"}


def test_private_trace_holds_only_what_the_agent_perceived():
    e = play(world(BOMBS), ["Move to Room 5", "Inspect Bomb", "Move to Room 3", "Inspect Bomb"])
    pt = private_trace(e.trace, "bravo")
    # bravo never sees bomb 1's sequence (alpha's inspection is private) nor the setup of the world
    shown = [ev for ev in pt if ev.kind == "observe" and ("seq", "bomb_1") in ev.fluents]
    assert shown == []
    assert all(not (ev.kind == "action" and ev.name == "setup") for ev in pt)
    # bravo witnessed alpha look at Room 5, without the value
    look = [ev for ev in pt if ev.kind == "observe" and ev.agents == ("alpha",) and ("contents", "room_5") in ev.fluents]
    assert look and all(ev.values is None for ev in look)
    # and its own checker knows that alpha knows Room 5's contents without knowing them itself
    mine = check(pt)
    assert mine.knows("alpha", f_contents(5)) and not mine.knows("bravo", f_contents(5))


def test_knowledge_axioms_on_every_question_of_random_episodes():
    """Factivity (K(a,f) => a's belief is the real value) and awareness implies knowledge, on real episodes."""
    import random

    for seed in range(3):
        e = bomb_v0.raw_env(seed=seed)
        rng = random.Random(seed)
        while e.agents:
            a = e.agent_selection
            if e.terminations[a] or e.truncations[a]:
                e.step(None)
                continue
            m = e.observe(a)["action_mask"]
            e.step(rng.choice([i for i, x in enumerate(m) if x]))
        t = check(e.trace)
        for f in t.fluents():
            for a in e.possible_agents:
                if t.knows(a, f):
                    # a belief it holds, or known by elimination: the one value the rules leave it
                    held = t.value((a,), f)
                    assert held == t.reality(f) or (
                        (held is None or is_marker(held)) and t.possible(a, f) == {t.reality(f)}), (a, f, held)
                for b in e.possible_agents:
                    if t.aware_that_knows(a, b, f):
                        assert t.knows(b, f)
