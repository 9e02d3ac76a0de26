"""The panel of shortcuts: hand-worked answers on Sally-Anne, the public trace, a world's own shortcut."""

from __future__ import annotations

from belief.grading.questions import Question
from belief.grading.render import Phrasing, render, say
from belief.grading.report import read_answer
import pytest

from belief.grading.selector import Cell, Selector
from belief.grading.shortcuts import Panel, majority_answers, public_trace
from belief.truth.checker import check
from belief.truth.trace import Announce, Content, Enter, Exit, Move, Observe, Trace


def _sally_anne(extra=()) -> Trace:
    return Trace([Enter(agents=("Sally", "Anne"), room="room"), Move(agent="Sally", object="marble", to="basket"),
                  Exit(agents=("Sally",)), Move(agent="Anne", object="marble", to="box"), *extra])


def _q(kind, chain, agent=None, values=None, time=3) -> Question:
    return Question(id="q", kind=kind, chain=chain, fluent=("in", "marble"), time=time, agent=agent, values=values)


def test_panel_on_sally_anne_hand_worked():
    panel = Panel(check(_sally_anne()))
    # "Where does Sally think the marble is?" asked of Anne: basket. Reality, Anne's own, the last agent
    # (Sally: the chain itself, so reality) say box; the public record (everyone saw it go into the basket)
    # says basket.
    assert panel.answers(_q("value", ("Sally",), "Anne")) == {
        "reality": "box", "as_self": "box", "depth_collapse": "box", "public_record": "basket"}
    # "Where do you think Sally thinks it is?" to Anne: the last agent alone (Sally) says basket
    assert panel.answers(_q("value", ("Anne", "Sally"), "Anne"))["depth_collapse"] == "basket"
    # "Does Sally know where the marble is?": every shortcut says yes (the gold is no)
    assert set(panel.answers(_q("knows", ("Sally",), "Anne")).values()) == {"yes"}
    # a fact: "Does Sally know the marble is in the basket?" The fact is false, so reality says no
    assert panel.reality(_q("knows", ("Sally",), values=("basket",))) == "no"
    # as_self of a question asked only of oneself is reality (the chain itself would be the answer)
    assert panel.as_self(_q("value", ("Anne",), "Anne")) == "box"


def test_first_value_is_the_world_as_it_first_was():
    """Sally-Anne, by hand: the marble is first put in the basket (t=1), then moved to the box (t=3). Asked
    at the end, the first-value reader says basket (right for Sally's false belief, wrong for reality) and
    "Does Sally know where it is?" no (it moved); asked at t=2, before the move, yes."""
    panel = Panel(check(_sally_anne()))
    assert panel.first_value(_q("value", ("Sally",), "Anne")) == "basket"
    assert panel.first_value(_q("value", ("Anne", "Sally"), "Anne")) == "basket"
    assert panel.first_value(_q("knows", ("Sally",), "Anne")) == "no"
    assert panel.first_value(_q("knows", ("Sally",), "Anne", time=2)) == "yes"
    assert panel.first_value(_q("knows", ("Sally",), values=("box",))) == "no"
    assert panel.first_value(_q("knows", ("Sally",), values=("basket",))) == "yes"
    assert panel.first_value(_q("value", ("Sally",), "Anne", time=0)) == "unknown"  # not placed yet
    assert "first_value" not in panel.answers(_q("value", ("Sally",), "Anne"))  # not in the default panel


def test_public_trace_keeps_what_everyone_perceived():
    truth = check(_sally_anne([Announce(sender="Anne", audience=("Sally",),
                                        content=(Content(subject=("marble",), value="box"),)),
                               Observe(agents=("Anne",), fluents=(("in", "marble"),))]))
    trace, times = public_trace(truth)
    assert len(times) == len(trace) and times == sorted(times)
    written = [(x.fluent, x.value) for e in trace if e.kind == "action" for x in e.effects
               if x.fluent == ("in", "marble")]
    assert written == [(("in", "marble"), "basket"), (("in", "marble"), "box")]  # the move; then the announcement
    assert 3 not in times  # Anne's move, seen by Anne alone, is not public
    panel = Panel(truth)
    assert panel.public_record(_q("value", ("Sally",), time=3)) == "basket"
    assert panel.public_record(_q("value", ("Sally",), time="end")) == "box"
    assert panel.public_record(_q("knows", ("Sally",), time=0)) == "no"  # nothing public about it yet


def test_a_world_registers_its_own_shortcut_and_majority_is_per_template():
    panel = Panel(check(_sally_anne()), {"always_no": lambda q: "no"})
    assert panel.names[-1] == "always_no" and panel.answers(_q("knows", ("Sally",)))["always_no"] == "no"
    assert majority_answers([("a", "yes"), ("a", "No"), ("a", "no"), ("b", "box"), ("b", "bag")]) == {
        "a": "no", "b": "bag"}


def test_a_world_adds_an_optional_shortcut_by_name_and_the_selector_balances_it():
    panel = Panel(check(_sally_anne()), {"first_value": "first_value"})
    q = _q("value", ("Sally",), "Anne")
    assert panel.names[-1] == "first_value" and panel.answers(q)["first_value"] == "basket"  # by hand, above
    with pytest.raises(ValueError, match="'last_value' is not one of the panel's optional shortcuts"):
        Panel(check(_sally_anne()), {"x": "last_value"})
    # the selector keeps the name in every candidate's shortcuts (so its tables and balance count it)
    sel = Selector(extra={"first_value": "first_value"})
    cells = [Cell(kind="value", chain=("Sally",), fluent=("in", "marble"), time=3, agent="Anne")]
    picked = sel.offer(check(_sally_anne()), cells)
    assert sel.names[-1] == "first_value" and [c.shortcuts["first_value"] for c in picked] == ["basket"]


def test_render_and_say_round_trip_through_the_reader():
    q = _q("aware", ("Anne", "Sally"), "Sally")
    assert render(q) == "Is Anne aware that you know where the marble is?"
    assert render(_q("value", ("Anne", "Sally"), "Anne")) == "Where do you think Sally thinks the marble is?"
    assert render(_q("value", ())) == "Where is the marble?"
    assert render(_q("knows", ("Sally",), "Sally")) == "Do you know where the marble is?"
    bomb_like = Phrasing(agent=str.upper, aware="Based on what you saw, is {x} aware of the fact that {rest}?",
                         fact=lambda f, v: "the contents of the box")
    assert render(_q("aware", ("anne", "sally", "carl")), bomb_like) == (
        "Based on what you saw, is ANNE aware of the fact that SALLY knows that CARL knows the contents of the box?")
    for verdict in ("yes", "no"):
        assert read_answer(q, say(q, verdict)) == verdict
    v = _q("value", ("Sally",))
    assert read_answer(v, say(v, "basket"), ("basket", "box")) == "basket"
