"""Formula values: immutability, hashing, normal form, decomposition, round trips (property-based)."""

import pickle

import pytest
from hypothesis import given

from belief import Atom, Believes, BeliefTypeError, Fact, Formula, Not, Stance, Unsure, Var
from belief.logic.formula import compose, decompose
from belief.grammar import parse_fact, parse_formula, to_readable, to_sexpr
from belief.testing import strategies as bst


def test_values_are_immutable_and_hashable():
    a = Atom("in", ("apple", "box"))
    with pytest.raises(AttributeError):
        a.pred = "at"
    f = Believes("alice", a)
    with pytest.raises(AttributeError):
        f.agent = "bob"
    assert {f, Believes("alice", Atom("in", ("apple", "box")))} == {f}
    assert pickle.loads(pickle.dumps(Fact(f, 0.5))) == Fact(f, 0.5)


def test_normal_form():
    p = Atom("in", ("apple", "box"))
    assert Believes("x", Believes("x", p)) == Believes("x", p)
    assert Believes("x", Unsure("x", p)) == Unsure("x", p)
    assert Unsure("x", Not(p)) == Unsure("x", p)
    assert Believes("x", Believes("y", Believes("y", p))).chain == ("x", "y")


def test_invalid_values_are_rejected():
    with pytest.raises(BeliefTypeError):
        Atom("believes", ("a",))
    with pytest.raises(BeliefTypeError):
        Atom("in", ("has space", "b"))
    with pytest.raises(BeliefTypeError):
        Not(Believes("a", Atom("p", ())))
    with pytest.raises(BeliefTypeError):
        Unsure("a", Believes("b", Atom("p", ())))
    with pytest.raises(BeliefTypeError):
        Fact(Atom("p", ()), 1.5)


def test_decompose_and_stance():
    f = parse_formula("a BELIEVE b UNSURE x IN y")
    assert decompose(f) == (("a", "b"), Stance.UNSURE, Atom("in", ("x", "y")))
    assert parse_formula("a BELIEVE NOT x IN y").stance is Stance.BELIEVES_NOT
    assert parse_formula("x IN y").depth == 0
    assert parse_formula("a BELIEVE ?x IN y").substitute({"x": "z"}) == parse_formula("a BELIEVE z IN y")
    assert Formula.parse("a BELIEVE x IN y") == Believes("a", Atom("in", ("x", "y")))
    assert Var("?v") == Var("v") and str(Var("v")) == "?v"


@given(bst.facts(allow_variables=True))
def test_readable_round_trip(fact):
    assert parse_fact(to_readable(fact)) == fact
    assert Fact.parse(str(fact)) == fact


@given(bst.facts(allow_variables=True))
def test_sexpr_round_trip(fact):
    assert parse_fact(to_sexpr(fact)) == fact


@given(bst.formulas())
def test_compose_inverts_decompose(f):
    assert compose(*decompose(f)) == f
    assert eval(repr(f), {"Formula": Formula, "Atom": Atom, "Believes": Believes, "Not": Not,
                          "Unsure": Unsure}) == f


def _alternating(n: int) -> tuple:
    return tuple(f"a{i % 2}" for i in range(n))


def test_depth_is_capped_when_built_so_equality_pickling_and_printing_never_recurse_deeply():
    from belief.logic.formula import MAX_DEPTH, FormulaDepthError

    atom = Atom("in", ("x", "y"))
    deepest = compose(_alternating(MAX_DEPTH), Stance.BELIEVES, atom)
    assert deepest.depth == MAX_DEPTH
    twin = compose(_alternating(MAX_DEPTH), Stance.BELIEVES, atom)
    assert deepest == twin and hash(deepest) == hash(twin)
    assert pickle.loads(pickle.dumps(deepest)) == deepest
    assert parse_formula(to_sexpr(deepest)) == deepest and parse_formula(str(deepest)) == deepest
    with pytest.raises(FormulaDepthError, match="deeper than 256"):
        Believes("b", compose(_alternating(MAX_DEPTH), Stance.UNSURE, atom))
    with pytest.raises(FormulaDepthError):  # the constructors check, whatever builds the formula
        compose(_alternating(20_000), Stance.BELIEVES, atom)
    assert compose(("a",) * 20_000, Stance.BELIEVES, atom).depth == 1  # repetitions normalise away


def test_trusted_constructors_make_true_immutable_instances():
    """The parsers' constructors fill a mutable twin and then assign its class: what they return is an ordinary
    instance of the class (immutable, equal, same hash, pickles) with the fields it was given."""
    from belief.logic.formula import MAX_DEPTH, FormulaDepthError

    atom = Atom._trusted("in", ("x", "y"))
    b = Believes._trusted("b", atom)
    fact = Fact._trusted(b, 0.25)
    chained = Fact._trusted_chain(("b", "a"), atom, None)
    assert (atom.pred, atom.args) == ("in", ("x", "y"))
    assert (b.agent, b.body, b.depth) == ("b", atom, 1)
    assert (fact.formula, fact.probability) == (b, 0.25)
    outer = chained.formula
    assert (outer.agent, outer.body.agent, outer.body.body, outer.depth, outer.body.depth) == ("a", "b", atom, 2, 1)
    assert chained.probability is None
    public = [Atom("in", ("x", "y")), Believes("b", Atom("in", ("x", "y"))), Fact(Believes("b", atom), 0.25),
              Fact(Believes("a", Believes("b", atom)))]
    for made, reference in zip([atom, b, fact, chained], public):
        assert type(made) is type(reference)
        assert made == reference and hash(made) == hash(reference) and str(made) == str(reference)
        assert pickle.loads(pickle.dumps(made)) == made
        for name in type(made).__slots__:
            with pytest.raises(AttributeError):
                setattr(made, name, None)
            with pytest.raises(AttributeError):
                delattr(made, name)
    # the chain normalises as Believes does, and refuses what is too deep
    assert Fact._trusted_chain(("x", "x"), atom, None).formula == Believes("x", atom)
    unsure = Unsure("x", atom)
    assert Fact._trusted_chain(("x",), unsure, None).formula is unsure
    assert Fact._trusted_chain(_alternating(MAX_DEPTH), atom, None).formula.depth == MAX_DEPTH
    with pytest.raises(FormulaDepthError):
        Fact._trusted_chain(_alternating(MAX_DEPTH + 1), atom, None)
