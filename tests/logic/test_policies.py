"""Trust policies are one registry: the checker and receive_message resolve the same names."""

from belief.truth.checker import check
from belief.logic.policies import Skeptical, get_policy, policy_names
from belief.truth.trace import Enter, Tell, Trace

APPLE = ("in", "apple")


def test_builtin_policies_are_registered():
    assert {"strict-truthful", "hitom", "skeptical"} <= set(policy_names())
    assert isinstance(get_policy("skeptical"), Skeptical)


def test_skeptical_in_the_checker_listeners_learn_only_what_the_sender_holds():
    tr = Trace([Enter(agents=("A", "B"), room="r"), Tell(sender="A", recipient="B", content="apple IN box")])
    for policy in ("skeptical", Skeptical()):
        truth = check(tr, policy)
        assert truth.value(("B", "A"), APPLE) == "box"
        assert truth.value(("B",), APPLE) is None
        assert truth.value(("A", "B"), APPLE) is None
