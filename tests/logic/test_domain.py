"""Typed domains: subtyping, validation with reasons, canonical names, belief rules, round trip."""

import pytest

from belief import BeliefTypeError, Fact
from belief import examples
from belief.logic.domain import Domain
from belief.logic.scenario import load_scenario
from belief.grammar import parse_fact, parse_formula

KITCHEN = """
(define (domain kitchen)
  (:types place - entity room container furniture - place food - entity)
  (:constants office bedroom - room bed - furniture)
  (:predicates (in ?f - entity ?p - place) (at ?a - agent ?r - room))
  (:functional in at))
"""


@pytest.fixture
def dom():
    return Domain.parse(KITCHEN)


ENTS = {"alice": "agent", "bob": "agent", "bread": "food", "orange": "food", "fridge": "container"}


def test_subtyping(dom):
    assert dom.is_subtype("room", "place") and dom.is_subtype("room", "entity")
    assert not dom.is_subtype("food", "place")
    assert set(dom.subtypes("place")) == {"place", "room", "container", "furniture"}


def test_valid_fact_is_returned_canonicalised(dom):
    f = dom.validate(parse_fact("Alice BELIEVE BREAD IN Fridge @ 0.5"), ENTS)
    assert f == parse_fact("alice BELIEVE bread IN fridge @ 0.5")


@pytest.mark.parametrize("text,reason", [
    ("alice BELIEVE bread IN orange", "argument 2 of in must be a place, but 'orange' is a food"),
    ("bread BELIEVE alice AT office", "'bread' cannot believe anything: it is a food"),
    ("alice BELIEVE toast IN fridge", "unknown entity 'toast'"),
    ("alice BELIEVE bred IN fridge", "did you mean 'bread'"),
    ("alice BELIEVE near(bread, fridge)", "unknown predicate 'near'"),
    ("alice BELIEVE inn(bread, fridge)", "did you mean 'in'"),
    ("alice BELIEVE in(bread, fridge, office)", "in takes 2 argument(s)"),
    ("alice AT fridge", "argument 2 of at must be a room"),
])
def test_hallucinations_are_rejected_with_a_reason(dom, text, reason):
    with pytest.raises(BeliefTypeError) as e:
        dom.validate(parse_fact(text), ENTS)
    assert reason in str(e.value)


def test_all_problems_are_listed(dom):
    with pytest.raises(BeliefTypeError) as e:
        dom.validate(parse_fact("toast BELIEVE bred IN orange"), ENTS)
    assert "toast" in str(e.value) and "bred" in str(e.value)


def test_without_entities_only_predicates_are_checked(dom):
    assert dom.validate(parse_formula("x BELIEVE y IN z")) == parse_formula("x BELIEVE y IN z")
    with pytest.raises(BeliefTypeError, match="unknown predicate 'near'"):
        dom.validate(parse_formula("x BELIEVE near(y, z)"))


def test_belief_rules_restrict_forms():
    transport = examples.domain("transport")
    ents = {"alice": "agent", "bob": "agent", "apple": "food", "kitchen": "room", "box": "container"}
    transport.validate(parse_fact("alice BELIEVE bob BELIEVE apple IN kitchen"), ents)
    transport.validate(parse_fact("alice BELIEVE NOT apple IN kitchen"), ents)  # stance is free
    transport.validate(parse_fact("alice BELIEVE kitchen EXPLORED part"), ents)  # constant of the domain
    with pytest.raises(BeliefTypeError, match="no belief rule"):
        transport.validate(parse_fact("alice BELIEVE bob BELIEVE alice BELIEVE apple IN kitchen"), ents)
    with pytest.raises(BeliefTypeError, match="no belief rule"):
        transport.validate(parse_fact("alice BELIEVE bob BELIEVE bob AT kitchen"), ents)  # ?agentA repeats


def test_domain_prints_and_parses_back(dom):
    assert Domain.parse(str(dom)) == dom
    t = examples.domain("transport")
    assert Domain.parse(str(t)) == t


@pytest.mark.parametrize("text,msg", [
    ("(define (domain d) (:functional in))", "unknown predicate 'in'"),
    ("(define (domain d) (:predicates (p ?x - thing)))", "undeclared type 'thing'"),
    ("(define (domain d) (:types a - b b - a))", "type cycle"),
    ("(define (domain d) (:predicates (p ?x) (p ?y)))", "declared twice"),
    ("(define (domain d) (:predicates (p ?x)) (:rules \"?a BELIEVE q(?x)\"))", "unknown predicate 'q'"),
])
def test_bad_declarations(text, msg):
    with pytest.raises(BeliefTypeError, match=msg):
        Domain.parse(text)


def test_scenario_loading_checks_every_fact():
    bad = examples.text("sally_anne.pddl").replace('"Sally BELIEVE marble IN basket"', '"Sally BELIEVE marble IN Anne"')
    with pytest.raises(BeliefTypeError, match="must be a place"):
        load_scenario(bad).store()
    sc = examples.scenario("sally-anne")
    assert sc.domain.name == "tomi" and sc.entities["marble"] == "item"
    assert Fact(parse_formula("marble IN box")) in sc.init
