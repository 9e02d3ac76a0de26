"""COBLOCK knowledge answered by the general checker, against hand-derived answers."""

from collections import Counter

from belief.truth.checker import check
from belief.envs.blocks import environment as blocks_v0
from belief.envs.blocks.events import f_inventory, f_owner, f_target
from belief.envs.blocks.text import MESSAGE, WAIT, place_action
from belief.envs.blocks.tom import answer, fact_owner, questions, said_to, trivial_answers
from belief.envs.blocks.world import Task
from belief.truth.filter import private_trace
from belief.truth.index import is_marker

A0, A1, B0 = (0, 0, 0), (0, 1, 0), (3, 0, 0)
TASK = Task("skill", 0, {"alice": {A0: "red", A1: "blue"}, "bob": {B0: "green"}},
            {"alice": Counter(red=1, yellow=1), "bob": Counter(green=1, blue=1)}, (), "project")


def env():
    e = blocks_v0.raw_env(seed=0, slip=0.0)
    e.reset(options={"task": TASK})
    return e


def test_goals_are_private_but_known_to_be_known():
    truth = check(env().trace)
    assert truth.knows("alice", f_target(A0)) and not truth.knows("bob", f_target(A0))
    assert truth.knows_chain(("bob", "alice"), f_target(A0))      # bob knows alice knows her goal
    assert not truth.knows_chain(("alice", "bob"), f_target(A0))
    assert not truth.knows("bob", f_inventory("alice", "red"))


def test_a_message_makes_the_partner_know_and_the_sender_aware():
    e = env()
    e.say([(f_target(A1), "blue"), (f_owner(A1), "alice"), (f_inventory("alice", "blue"), 0)])
    e.step(MESSAGE)
    truth = check(e.trace)
    assert truth.knows("bob", f_target(A1)) and truth.knows("bob", f_inventory("alice", "blue"))
    assert truth.knows_chain(("alice", "bob"), f_target(A1))
    assert not truth.knows("bob", f_target(A0))                  # only what was said
    bob = check(private_trace(e.trace, "bob"))
    assert bob.knows("bob", f_target(A1)) and bob.value(("bob",), f_owner(A1)) == "alice"


def test_a_placement_updates_a_known_count_and_leaves_an_unknown_one_unknown():
    e = env()
    e.say([(f_inventory("alice", "red"), 1)])
    e.step(MESSAGE)
    e.step(WAIT)
    e.step(place_action(A0, "red"))
    truth = check(e.trace)
    assert e.world.inventories["alice"]["red"] == 0
    assert truth.knows("bob", f_inventory("alice", "red"))       # knew 1, saw one placed: 0
    assert truth.value(("bob",), f_inventory("alice", "red")) == "0"
    assert truth.knows_chain(("bob", "alice"), f_inventory("alice", "red"))
    # bob's own count of green changes when he places; alice never knew it, and still does not
    e.step(place_action(B0, "green"))
    truth = check(e.trace)
    assert not truth.knows("alice", f_inventory("bob", "green"))
    assert truth.knows_chain(("alice", "bob"), f_inventory("bob", "green"))


def test_questions_are_labelled_by_the_checker_and_private_answers_agree_here():
    e = env()
    e.step(MESSAGE)
    e.step(place_action(B0, "green"))
    e.step(place_action(A0, "red"))
    qs = questions(e.trace)
    assert len(qs) == 12 and [q.to_json() for q in qs] == [q.to_json() for q in questions(e.trace)]
    truth = check(e.trace)
    for q in qs:
        # the question's meaning stated by hand: the level's chain (second order: "X knows that you know F"
        # is (X, you), "you know that X knows F" is (you, X)) on the template's fluent
        chain = {"introspection": (q.asked,), "first_order": (q.target,)}.get(q.level) or (
            (q.asked, q.target) if q.form == "you_know_x_knows" else (q.target, q.asked))
        fluent = f_target(tuple(q.subject)) if q.template == "target" else f_inventory(*q.subject)
        assert q.answer == truth.knows_chain(chain, fluent, q.t)
        # every event that matters here is seen or told: the asked builder's own record gives the same answer
        # (a definite value in its record, no one lying here, or the knowledge the checker grants there)
        mine = check(private_trace(type(e.trace)(e.trace.events[:q.t + 1], meta=e.trace.meta), q.asked))
        v = mine.value(tuple(q.chain), fluent)
        assert ((v is not None and not is_marker(v)) or answer(mine, q.public())) == q.answer


def test_the_second_order_forms_and_the_trivial_answerers():
    e = env()
    e.step(WAIT)                                                 # alice waits: nothing told yet
    q = next(q for q in questions(e.trace) if q.form == "you_know_x_knows" and q.template == "target"
             and tuple(q.subject) in (A0, A1))
    assert q.chain == ["alice", "bob"] and "Do you know that Bob knows" in q.text
    assert q.answer is False                                     # alice knows her goal, not that bob does
    truth = check(e.trace)
    trivial = trivial_answers(e.trace, truth, q)
    assert trivial == {"as_self": True, "public_record": False}  # answering as herself is wrong here
    x = next(p for p in questions(e.trace) if p.form == "x_knows_you_know" and p.turn == q.turn)
    assert x.chain == ["bob", "alice"] and x.answer is True and x.type == "second_order/x_knows_you_know/target"


def test_told_facts_are_on_the_public_record():
    e = env()
    e.say([(f_target(A1), "blue"), (f_owner(A1), "alice")])
    e.step(MESSAGE)
    assert said_to(e.trace, "bob", f_target(A1), len(e.trace)) and not said_to(e.trace, "bob", f_target(A0), len(e.trace))
    assert fact_owner(e.trace.meta, "target", list(A1)) == "alice"
    assert fact_owner(e.trace.meta, "inventory", ["bob", "red"]) == "bob"


def test_selected_set_gold_is_the_checkers_and_balanced():
    """The selected set of a played episode: each gold asked of the checker directly (knows_chain on the
    question's chain and fluent at its time), every template within the selector's limits.

    Since witnessing is joint (docs/logic.md, "Awareness"), in this world (every move public, every private
    look witnessed) awareness at every order is the chain's last builder's own knowledge: ``own_or_told``
    answers every awareness question asked (seeds 0-5: 36 of 36), so the balance keeps none (it kept the
    questions the one-level rule answered "no" before). The gold of every question asked is checked instead."""
    from belief.app.runners.blocks import BlocksConfig, play_episode
    from belief.envs.blocks.tom import SelectedSet

    trace = play_episode(BlocksConfig("belief", tom_rows=True), 2, keep_trace=True)["_trace"]
    sampler = SelectedSet(trace.meta)
    asked = [q for ev in trace for q in sampler.feed(ev)]
    kept = [q for q in asked if q.id in sampler.kept()]
    assert asked and {q.template for q in asked} <= {"knows/target", "knows/inventory", "aware/target",
                                                     "aware/inventory"}
    aware = [q for q in asked if q.template.startswith("aware/")]
    assert aware and all(q.shortcuts["own_or_told"] == q.gold for q in aware)
    truth = check(trace)
    for q in asked:
        g = q.question
        assert q.gold == ("yes" if truth.knows_chain(g.chain, g.fluent, q.t) else "no")
        assert g.chain != (q.asked,) and q.text.endswith("?")
    for template in {q.template for q in kept}:
        mine = [q for q in kept if q.template == template]
        assert max(Counter(q.gold for q in mine).values()) <= 0.6 * len(mine)
        for s in ("reality", "as_self", "depth_collapse", "public_record", "own_or_told"):
            assert sum(q.shortcuts[s] == q.gold for q in mine) <= 0.6 * len(mine)


def test_own_or_told_hand_worked():
    """The world's own shortcut: a builder knows its own goal cells and what it was told, nothing else."""
    from belief.envs.blocks.tom import own_or_told_answer
    from belief.grading.questions import Question

    e = env()
    e.step(MESSAGE)
    answer = own_or_told_answer(e.trace)
    goals = e.trace.meta["task"]["goals"]
    mine = tuple(goals["alice"][0][:3])
    ask = lambda chain: Question(id="q", kind="knows", chain=chain, fluent=f_target(mine), time="end")  # noqa: E731
    assert answer(ask(("alice",))) == "yes"
    told = said_to(e.trace, "bob", f_target(mine), len(e.trace))
    assert answer(ask(("bob",))) == ("yes" if told else "no")
    assert answer(ask(("bob", "alice"))) == "yes"  # the chain's last builder owns it
