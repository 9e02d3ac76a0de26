"""The replay writes the updates of a policy whose claims are group claims directly (``IndexBuilder._message``,
``TrustPolicy.group_claims``: strict-truthful's); a policy that says otherwise goes through ``effects`` and its
context objects. Both must leave the same index, update for update,
on random traces with messages, hidden listeners, inattentive and secret observers, and chapters."""

from __future__ import annotations

from hypothesis import given, settings

from belief.logic.policies import StrictTruthful
from belief.testing.traces import traces
from belief.truth.index import IndexBuilder
from belief.truth.trace import Announce, Content, Enter, Tell, Trace

_COLUMNS = ("times", "masks", "wmasks", "values", "events", "hows", "seqs", "changes", "excl", "conds", "outcomes",
            "by_agent", "wit_by_agent", "real_t", "real_v", "real_e", "change_t", "overrides")


class _ThroughEffects(StrictTruthful):
    """The same effects, but not declared group claims: the replay asks its ``effects``."""

    group_claims = False


def _state(builder: IndexBuilder) -> tuple:
    index = {f: tuple(_plain(getattr(idx, c)) for c in _COLUMNS) + (_percs(idx),) for f, idx in builder.index.items()}
    return builder.agents, builder.seq, builder.observations, index


def _plain(column):
    if isinstance(column, dict):
        return {k: _plain(v) for k, v in column.items()}
    if isinstance(column, list) and column and isinstance(column[0], list):
        return [list(x) for x in column]
    return list(column) if not isinstance(column, (int, str, type(None))) else column


def _percs(idx) -> dict:
    return {p: (v.perceivers, v.default, dict(v.views), v.reach, v.witnesses) for p, v in idx.percs.items()}


def _replay(trace: Trace, policy) -> tuple:
    return _state(IndexBuilder(trace, policy).run())


@settings(max_examples=300, deadline=None)
@given(trace=traces(n_agents=4, n_rooms=2, max_steps=28, perception=True))
def test_the_direct_path_writes_what_the_policy_effects_write(trace):
    assert _replay(trace, StrictTruthful()) == _replay(trace, _ThroughEffects())


def test_a_message_by_hand_writes_one_group_update_per_claim_with_the_sender_excluded():
    trace = Trace([Enter(agents=("a", "b"), room="hall"),
                   Tell(sender="a", recipients=("b", "c"), content=(Content(subject=("x",), value="box"),
                                                                     Content(subject=("y",), value="bag"))),
                   Announce(sender="b", content=(Content(subject=("x",), value="bin"),))])
    built = IndexBuilder(trace, StrictTruthful()).run()
    a, b, c = (1 << built.aid[n] for n in "abc")
    told_x, told_y = built.index[("in", "x")], built.index[("in", "y")]
    assert list(told_x.values) == ["box", "bin"] and list(told_y.values) == ["bag"]
    assert told_x.masks[0] == a | b | c and told_y.masks[0] == a | b | c  # the sender and its two recipients
    assert told_x.masks[1] == a | b  # an announcement reaches the sender's room: a and b
    assert told_x.excl == {0: a, 1: b} and told_y.excl == {0: a}  # the sender's own solo chain is not told
    assert _state(built) == _replay(trace, _ThroughEffects())


def test_a_policy_that_overrides_effects_is_asked_its_effects_unless_it_says_its_claims_are_group_claims():
    class Quieter(StrictTruthful):
        def effects(self, event, ctx):
            return iter(())

    class Declared(StrictTruthful):
        group_claims = True

        def effects(self, event, ctx):
            return StrictTruthful.effects(self, event, ctx)

    assert StrictTruthful.group_claims and not _ThroughEffects.group_claims
    assert not Quieter.group_claims and Declared.group_claims
    trace = Trace([Enter(agents=("a", "b"), room="hall"),
                   Tell(sender="a", recipients=("b",), content=(Content(subject=("x",), value="box"),))])
    assert ("in", "x") not in IndexBuilder(trace, Quieter()).run().index  # its own effects: nothing told
    assert _replay(trace, Declared()) == _replay(trace, StrictTruthful())
