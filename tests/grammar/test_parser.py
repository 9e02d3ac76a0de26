"""Parsing both surfaces: fixtures, round trips, tags, entry points, and the fast path against lark."""

from pathlib import Path

import pytest

from belief import Atom, Believes, BeliefSyntaxError, Fact, Not, Unsure, Var
from belief.grammar import (
    Declaration, normalize_tag, parse_document, parse_fact, parse_formula, parse_query, parse_readable_document,
    parse_sexpr_document, to_pdkb, to_readable, to_sexpr,
)
from belief.grammar.parser import _readable_fast, readable_parser
from belief.logic.scenario import read_document

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "grammar"
DOCS = sorted(FIXTURES.glob("*.bel")) + sorted(FIXTURES.glob("*.sexpr"))


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_fixture_round_trips_in_every_form(path):
    facts = parse_document(path.read_text())
    assert facts and all(isinstance(f, Fact) for f in facts)
    readable = "\n".join(map(to_readable, facts))
    sexpr = "\n".join(map(to_sexpr, facts))
    assert parse_readable_document(readable) == facts
    assert parse_sexpr_document(sexpr) == facts


def test_readable_structure():
    f = parse_fact("Carol BELIEVE Bob BELIEVE Alice BELIEVE apple IN kitchen @ 0.7")
    assert f == Fact(Believes("Carol", Believes("Bob", Believes("Alice", Atom("in", ("apple", "kitchen"))))), 0.7)
    assert f.chain == ("Carol", "Bob", "Alice")
    assert parse_formula("Alice BELIEVE NOT apple IN box") == Believes("Alice", Not(Atom("in", ("apple", "box"))))
    assert parse_formula("Alice UNSURE NOT apple IN box") == Unsure("Alice", Atom("in", ("apple", "box")))
    assert parse_formula("near(a, b, c)") == Atom("near", ("a", "b", "c"))
    assert parse_formula("alice HOLD apple") == Atom("hold", ("alice", "apple"))
    assert parse_formula("kitchen EXPLORED part") == Atom("explored", ("kitchen", "part"))
    assert parse_formula("box CONTAIN apple") == Atom("contain", ("box", "apple"))
    assert parse_formula("Alice BELIEVES apple IN box") == parse_formula("Alice BELIEVE apple IN box")


def test_introspection_normalises_while_parsing():
    assert parse_formula("X BELIEVE X BELIEVE p IN q") == parse_formula("X BELIEVE p IN q")
    assert parse_formula("X BELIEVE X UNSURE p IN q") == parse_formula("X UNSURE p IN q")
    assert parse_formula("(believes x (believes x (in p q)))") == parse_formula("x BELIEVE p IN q")
    # a non-adjacent repeat is a different chain and is kept
    assert parse_formula("X BELIEVE Y BELIEVE X BELIEVE p IN q").chain == ("X", "Y", "X")


@pytest.mark.parametrize("tag,name", [("<apple> (12)", "apple_12"), ("<apple>(12)", "apple_12"),
                                      ("<wine glass> (3)", "wine_glass_3"), ("<Livingroom> ( 4000 )", "Livingroom_4000"),
                                      ("<apple>", "apple")])
def test_entity_tags_normalise_to_one_canonical_name(tag, name):
    assert normalize_tag(tag) == name
    assert parse_formula(f"Alice BELIEVE {tag} IN box").atom.args[0] == name


def test_queries_and_variables():
    q = parse_query("? Anne BELIEVE Sally BELIEVE marble IN ?c")
    assert q == parse_query("Anne BELIEVE Sally BELIEVE marble IN ?c")
    assert q.atom.args[1] == Var("c")
    assert q.variables() == {Var("c")}
    assert parse_query("? ?a BELIEVE apple IN ?room").chain == (Var("a"),)
    assert parse_query("(believes ?a (in apple ?r))").variables() == {Var("a"), Var("r")}


def test_pdkb_writer():
    assert to_pdkb(parse_fact("alice BELIEVE bob BELIEVE apple IN kitchen")) == "[alice][bob](in apple kitchen)"
    assert to_pdkb(parse_fact("alice BELIEVE NOT apple IN box")) == "[alice]!(in apple box)"
    assert to_pdkb(parse_fact("apple IN box")) == "(in apple box)"


DECLARATIONS = """
    (define (domain d) (:types room box - place item) (:predicates (in ?i - item ?p - place)) (:functional in)
      (:rules "?a BELIEVE ?i IN ?p" (believes ?a (believes ?b (in ?i ?p)))))
    (define (problem p) (:domain d) (:agents ann bob) (:objects r - room apple - item)
      (:init (in apple r) "ann BELIEVE apple IN r") (:query "? bob BELIEVE apple IN ?x"))
    (in apple r)"""


def test_sexpr_documents_with_declarations():
    """The grammar returns declarations as parsed; belief.logic.scenario.read_document builds the typed values."""
    dom, prob, fact = parse_sexpr_document(DECLARATIONS)
    assert isinstance(dom, Declaration) and (dom.kind, dom.name) == ("domain", "d")
    assert (prob.kind, prob.name) == ("problem", "p") and fact == parse_fact("(in apple r)")
    dom, prob, fact = read_document(DECLARATIONS)
    assert dom.name == "d" and dom.predicates["in"].functional and len(dom.rules) == 2
    assert dom.is_subtype("room", "place") and dom.is_subtype("item", "entity")
    assert prob.agents == ("ann", "bob") and prob.objects == {"r": "room", "apple": "item"}
    assert prob.init[1] == parse_fact("ann BELIEVE apple IN r")
    assert fact == parse_fact("(in apple r)")


def test_a_quoted_fact_error_points_into_the_file():
    with pytest.raises(BeliefSyntaxError) as e:
        parse_sexpr_document('(define (problem p)\n  (:init "ann BELIEVE apple"))')
    assert e.value.line == 2 and "missing relation after 'apple'" in e.value.message


def test_one_fact_means_one_line():
    with pytest.raises(BeliefSyntaxError) as e:
        parse_fact("a IN b\nc IN d")
    assert e.value.line == 2


@pytest.mark.parametrize("text", [
    "Alice BELIEVE Bob BELIEVE apple IN kitchen", "a IN b @ 0.5", "a IN b @ 1", "a IN b @ 1e-3", "a IN b@.5",
    "<apple> (3) IN box", "x BELIEVE y UNSURE NOT f(a, ?b)", "f()", "INSIDE IN NOTE", "1 IN 2 @ 0",
    "a IN b\n\n  # c\nd IN e\n", "\n\na IN b", "a IN b  # trailing comment",
])
def test_fast_path_agrees_with_lark(text):
    fast = _readable_fast().parse(text, "document")
    assert fast is not None
    assert fast == readable_parser().parse(text, start="document")
