"""BeliefStore: chains in a graph, functional conflicts, queries, diff, JSON, transactional batches."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from belief import BatchError, BeliefConflictError, BeliefError, BeliefTypeError, Stance
from belief import examples
from belief.grammar import parse_fact
from belief.logic.store import BeliefStore
from belief.testing import strategies as bst

AGENTS, OBJECTS, PLACES = ["ann", "bob", "cy"], ["apple", "pear"], ["box", "bag", "room"]


def tomi_store():
    ents = {"Anne": "agent", "Sally": "agent", "marble": "item", "basket": "container", "box": "container",
            "room": "room"}
    return BeliefStore(examples.domain("tomi"), ents)


def test_chains_form_a_graph_of_models():
    s = BeliefStore()
    s.add("ann BELIEVE bob BELIEVE cy BELIEVE apple IN box")
    assert s.chains() == [(), ("ann",), ("ann", "bob"), ("ann", "bob", "cy")]
    assert s.graph.edges[("ann",), ("ann", "bob")]["agent"] == "bob"
    assert len(s) == 1


def test_value_query_reads_functional_fluents():
    s = tomi_store()
    s.add_all(["Sally BELIEVE marble IN basket", "Anne BELIEVE Sally BELIEVE marble IN box", "Anne AT room",
               "Anne BELIEVE NOT marble IN basket"])
    assert s.value(("Sally",), "in", "marble") == "basket"
    assert s.value(("Anne", "Sally"), "in", "marble") == "box"
    assert s.value(("Anne",), "in", "marble") is None  # only a NOT: no believed value
    assert s.value((), "at", "Anne") == "room" and s.value(("Bob",), "at", "Anne") is None
    assert s.values(("Anne", "Sally")) == {("in", "marble"): "box"} and s.values(("Nobody",)) == {}
    s.replace("Sally BELIEVE marble IN box")
    assert s.value(("Sally",), "in", "marble") == "box"


def test_functional_second_value_is_a_conflict_and_replace_revises():
    s = tomi_store()
    s.add("Sally BELIEVE marble IN basket")
    with pytest.raises(BeliefConflictError, match="functional"):
        s.add("Sally BELIEVE marble IN box")
    assert s.ask("Sally BELIEVE marble IN ?c").bindings == {"c": "basket"}
    s.replace("Sally BELIEVE marble IN box")
    assert [str(f) for f in s.facts(("Sally",))] == ["Sally BELIEVE marble IN box"]
    assert s.ask("Sally BELIEVE marble IN basket").stance is Stance.BELIEVES_NOT  # derived from functionality


def test_contradicting_stances_conflict():
    s = BeliefStore()
    s.add("ann BELIEVE apple IN box")
    with pytest.raises(BeliefConflictError, match="contradicts"):
        s.add("ann BELIEVE NOT apple IN box")
    s.replace("ann UNSURE apple IN box")
    assert s.ask("ann BELIEVE apple IN box").stance is Stance.UNSURE


def test_queries_answer_three_stances_with_bindings():
    s = tomi_store()
    s.add_all(["marble IN box", "Sally BELIEVE marble IN basket", "Anne BELIEVE Sally BELIEVE marble IN basket",
               "Anne BELIEVE NOT marble IN basket", "Anne UNSURE marble IN room"])
    assert s.ask("? Anne BELIEVE Sally BELIEVE marble IN ?c").bindings == {"c": "basket"}
    assert s.ask("? Anne BELIEVE marble IN basket").stance is Stance.BELIEVES_NOT
    assert s.ask("? Anne BELIEVE NOT marble IN basket").holds
    assert s.ask("? Anne BELIEVE marble IN room").stance is Stance.UNSURE
    unknown = s.ask("? Sally BELIEVE Anne BELIEVE marble IN ?c")
    assert unknown.stance is Stance.UNSURE and not unknown.known
    answers = {a.bindings["a"]: a.stance for a in s.query("? ?a BELIEVE marble IN basket")}
    assert answers == {"Sally": Stance.BELIEVES, "Anne": Stance.BELIEVES_NOT}


def test_diff_is_what_one_chain_holds_and_the_other_lacks():
    s = BeliefStore()
    s.add_all(["ann BELIEVE apple IN box", "ann BELIEVE pear IN bag", "ann BELIEVE bob BELIEVE apple IN box",
               "ann BELIEVE bob BELIEVE NOT pear IN bag"])
    assert s.diff(("ann",), ("ann", "bob")) == [parse_fact("pear IN bag")]
    assert s.diff(("ann", "bob"), ("ann",)) == [parse_fact("NOT pear IN bag")]


def test_batch_with_any_invalid_fact_changes_nothing_and_reports_every_error():
    s = tomi_store()
    s.add("Sally BELIEVE marble IN basket")
    before = s.to_json()
    with pytest.raises(BatchError) as e:
        s.add_all(["Anne BELIEVE marble IN box", "Sally BELIEVE marble IN box", "Anne BELIEVE marble IN Sally",
                   "Anne BELIEVE marbel IN box"])
    assert len(e.value.errors) == 3
    assert isinstance(e.value.errors[0], BeliefConflictError) and isinstance(e.value.errors[1], BeliefTypeError)
    assert s.to_json() == before


def test_a_batch_is_checked_in_order_against_itself():
    s = tomi_store()
    with pytest.raises(BeliefConflictError):
        s.add_all(["Anne BELIEVE marble IN box", "Anne BELIEVE marble IN basket"])
    assert len(s) == 0
    s.add_all(["Anne BELIEVE marble IN box", "Anne BELIEVE marble IN basket"], mode="replace")
    assert [str(f) for f in s.facts()] == ["Anne BELIEVE marble IN basket"]


def test_json_round_trip_with_domain():
    s = examples.scenario("sally-anne").store()
    again = BeliefStore.loads(s.dumps())
    assert again == s and again.domain == s.domain
    with pytest.raises(BeliefError, match="belief store: invalid JSON"):
        BeliefStore.loads("{")
    with pytest.raises(BeliefError, match="schema"):
        BeliefStore.from_json({"facts": []})


def test_retract():
    s = BeliefStore()
    s.add("ann BELIEVE apple IN box")
    assert s.retract("ann BELIEVE NOT apple IN box")  # forgets the atom whatever the stance
    assert not s.retract("ann BELIEVE apple IN box")
    assert len(s) == 0


def test_variables_cannot_be_stored():
    with pytest.raises(BeliefError, match="ground"):
        BeliefStore().add("ann BELIEVE ?x IN box")


# --- properties --------------------------------------------------------------------------------------

WORLD = st.lists(bst.located_facts(AGENTS, OBJECTS, PLACES), max_size=25)


def typed_store():
    from belief.logic.domain import Domain

    dom = Domain.parse("(define (domain w) (:types place) (:predicates (in ?o - entity ?p - place)) (:functional in))")
    ents = {**{a: "agent" for a in AGENTS}, **{o: "entity" for o in OBJECTS}, **{p: "place" for p in PLACES}}
    return BeliefStore(dom, ents)


@given(WORLD, st.sampled_from(["add", "replace"]))
def test_functional_uniqueness_and_rollback(facts, mode):
    s = typed_store()
    before = s.to_json()
    try:
        s.add_all(facts, mode=mode)
    except BeliefError:
        assert s.to_json() == before  # transactional: all or nothing
        assert mode == "add"  # replace never conflicts
        return
    for chain in s.chains():
        believed = [f.atom for f in s.facts(chain) if f.stance is Stance.BELIEVES]
        objects = [a.args[0] for a in believed]
        assert len(objects) == len(set(objects)), f"two places believed for one object in {chain}"
        doubted = {f.atom.args[0] for f in s.facts(chain) if f.stance is Stance.UNSURE}
        assert not doubted & set(objects), f"a believed place and a doubt about the same object in {chain}"
    if mode == "replace":  # the last believed value of each (chain, object) wins
        last = {}
        for f in facts:
            if f.stance is Stance.BELIEVES:
                last[(f.chain, f.atom.args[0])] = f
            elif f.stance is Stance.UNSURE:
                last.pop((f.chain, f.atom.args[0]), None)  # unsure of any value: no value is believed
            elif last.get((f.chain, f.atom.args[0])) is not None and last[(f.chain, f.atom.args[0])].atom == f.atom:
                del last[(f.chain, f.atom.args[0])]  # revised to NOT that very value
        for f in last.values():
            assert f in s


@given(WORLD)
def test_json_round_trip_property(facts):
    s = typed_store()
    s.add_all(facts, mode="replace")
    assert BeliefStore.loads(json.dumps(s.to_json())) == s


@given(bst.located_facts(AGENTS, OBJECTS, PLACES))
def test_stored_fact_is_found_in_normal_form(fact):
    s = BeliefStore()
    s.add(fact)
    assert fact in s
    chain = fact.chain
    assert fact.formula == parse_fact(str(fact)).formula
    assert s.ask(fact.formula).stance is fact.stance
    assert all(a != b for a, b in zip(chain, chain[1:]))  # normal form: no X BELIEVE X


@pytest.mark.parametrize("doc", [{"facts": "a IN b"}, {"facts": 5}, {"entities": [1], "facts": []},
                                 {"domain": 5, "facts": []}])
def test_loads_rejects_ill_typed_documents_with_belief_error(doc):
    """Regression: a string 'facts' was split into characters (six odd errors); an int 'facts', a list
    'entities' or a non-text 'domain' raised TypeError/AttributeError instead of a BeliefError."""
    with pytest.raises(BeliefError, match="belief store document: '(facts|entities|domain)' must"):
        BeliefStore.loads(json.dumps({"schema": "belief.logic.store/1", **doc}))


def test_unsure_of_another_value_contradicts_a_functional_belief():
    s = tomi_store()
    s.add("Sally BELIEVE marble IN basket")
    with pytest.raises(BeliefConflictError, match="implies NOT"):
        s.add("Sally UNSURE marble IN box")
    s.replace("Sally UNSURE marble IN box")  # revising: she no longer knows where it is
    assert s.ask("? Sally BELIEVE marble IN basket").stance is Stance.UNSURE
    assert s.ask("? Sally BELIEVE marble IN box").stance is Stance.UNSURE
    with pytest.raises(BeliefConflictError, match="would settle"):
        s.add("Sally BELIEVE marble IN basket")
    s.replace("Sally BELIEVE marble IN basket")  # settles the doubt
    assert [str(f) for f in s.facts(("Sally",))] == ["Sally BELIEVE marble IN basket"]


def test_a_fact_deeper_than_the_limit_never_reaches_the_store_and_hostile_json_is_an_error():
    from belief.logic.formula import MAX_DEPTH

    store = BeliefStore()
    deep = " BELIEVE ".join(f"a{i % 2}" for i in range(20_000)) + " BELIEVE x IN y"
    with pytest.raises(BeliefError, match=f"deeper than {MAX_DEPTH}"):
        store.add(deep)
    assert len(store) == 0
    store.add(" BELIEVE ".join(f"a{i % 2}" for i in range(MAX_DEPTH)) + " BELIEVE x IN y")
    assert len(store.chains()) == MAX_DEPTH + 1  # one node per prefix of the chain
    with pytest.raises(BeliefError, match="nested too deeply"):
        BeliefStore.loads("[" * 50_000 + "]" * 50_000)
