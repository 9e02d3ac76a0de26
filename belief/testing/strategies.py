"""Hypothesis strategies for belief formulas, facts, domains' worlds and stores.

Import them in your own tests::

    from hypothesis import given
    from belief.testing import strategies as bst

    @given(bst.facts())
    def test_my_tracker_round_trips(fact): ...

``traces()`` gives random consistent episode traces (enters, exits, moves, statements, observations,
private and public messages; with ``perception=True`` also secret observers, inattentive observers, hidden
listeners, ``perceived_as``, opaque changes and quiet entries) for checkers and trackers.  Everything generated is valid: names match the grammar, formulas are in normal form, and
``parse(print(f)) == f`` holds in both surfaces.
"""

from __future__ import annotations

from hypothesis import strategies as st

from belief.testing.traces import traces  # noqa: F401  (re-exported: random consistent traces)
from belief.logic.formula import INFIX_PREDICATES, RESERVED, Atom, Fact, Stance, Var, compose

_FIRST = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"
_REST = _FIRST + "-"


def names() -> st.SearchStrategy[str]:
    """Entity / agent / predicate names as the grammar accepts them (reserved words excluded)."""
    return st.builds(lambda a, b: a + b, st.sampled_from(_FIRST), st.text(_REST, max_size=8)).filter(
        lambda s: s not in RESERVED)


def variables() -> st.SearchStrategy[Var]:
    return names().map(Var)


def terms(allow_variables: bool = False, pool: list[str] | None = None):
    base = st.sampled_from(pool) if pool else names()
    return st.one_of(base, variables()) if allow_variables else base


def atoms(entities: list[str] | None = None, predicates: dict[str, int] | None = None,
          allow_variables: bool = False) -> st.SearchStrategy[Atom]:
    """Atoms over given entities and predicates ({name: arity}); infix relations are included by default."""
    term = terms(allow_variables, entities)
    if predicates:
        def atoms_of(kv: tuple[str, int]) -> st.SearchStrategy[Atom]:
            return st.tuples(*[term] * kv[1]).map(lambda args: Atom(kv[0], args))

        return st.sampled_from(sorted(predicates.items())).flatmap(atoms_of)
    infix = st.builds(lambda p, a, b: Atom(p, (a, b)), st.sampled_from(sorted(INFIX_PREDICATES)), term, term)
    call = st.builds(lambda p, args: Atom(p, tuple(args)), names(), st.lists(term, max_size=3))
    return st.one_of(infix, call)


def formulas(agents: list[str] | None = None, entities: list[str] | None = None, max_depth: int = 4,
             predicates: dict[str, int] | None = None, allow_variables: bool = False):
    """Normal-form formulas: a chain of 0..max_depth believers over a literal (atom, NOT atom, UNSURE)."""
    agent = terms(allow_variables, agents)
    atom = atoms(entities, predicates, allow_variables)

    return st.builds(_compose, st.lists(agent, max_size=max_depth), st.sampled_from(["atom", "not", "unsure"]), atom)


_STANCES = {"atom": Stance.BELIEVES, "not": Stance.BELIEVES_NOT, "unsure": Stance.UNSURE}


def _compose(chain, kind, atom):
    """A normal-form formula; UNSURE needs an agent, so with an empty chain it falls back to the atom."""
    stance = _STANCES[kind] if (kind != "unsure" or chain) else Stance.BELIEVES
    return compose(tuple(chain), stance, atom)


def probabilities():
    return st.one_of(st.none(), st.floats(0.0, 1.0, allow_nan=False))


def facts(**kwargs) -> st.SearchStrategy[Fact]:
    """Facts (formula + optional probability); keyword arguments go to :func:`formulas`."""
    return st.builds(Fact, formulas(**kwargs), probabilities())


def worlds(max_agents: int = 4, max_objects: int = 4, max_places: int = 4):
    """A small untyped world: (agents, objects, places) name lists, disjoint."""
    def build(n_a, n_o, n_p):
        return ([f"agent{i}" for i in range(n_a)], [f"obj{i}" for i in range(n_o)],
                [f"place{i}" for i in range(n_p)])

    return st.builds(build, st.integers(1, max_agents), st.integers(1, max_objects), st.integers(1, max_places))


def located_facts(agents: list[str], objects: list[str], places: list[str], max_depth: int = 3):
    """Facts ``a1 BELIEVE … obj IN place`` (possibly NOT / UNSURE) over a fixed world: for store tests."""
    atom = st.builds(lambda o, p: Atom("in", (o, p)), st.sampled_from(objects), st.sampled_from(places))

    return st.builds(lambda chain, kind, a, prob: Fact(_compose(chain, kind, a), prob), st.lists(st.sampled_from(agents), max_size=max_depth),
                     st.sampled_from(["atom", "atom", "not", "unsure"]), atom, probabilities())
