"""BeliefStore: facts per perspective chain in a networkx graph.

Nodes are perspective chains (tuples of agents; ``()`` is reality), edges ``(a1..ak) -> (a1..ak, b)``
mean "the holder of the first chain models agent b".  Each node holds, per atom, a stance (believes,
believes-not, unsure) and an optional probability; for functional predicates (an object is IN one place)
a second believed value is a conflict, not a silent duplicate.

Every mutation is transactional: :meth:`BeliefStore.apply` checks a whole batch against a scratch copy
of the chains it touches and either commits all of it or raises :class:`BatchError` listing every
problem, leaving the store unchanged.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Iterable, Iterator

import networkx as nx

from belief.logic.domain import Domain, FunctionalKey
from belief.errors import BatchError, BeliefConflictError, BeliefError, QueryError
from belief.logic.formula import Atom, Fact, Formula, Stance, Term, Var, compose, decompose, normalize_chain, unify
from belief.grammar import parse_fact, parse_query
from belief.files.json_input import load_json

SCHEMA = "belief.logic.store/1"


@dataclass
class ChainFacts:
    """What one perspective chain holds: atom -> (stance, probability), plus the functional index."""

    atoms: dict[Atom, tuple[Stance, float | None]] = field(default_factory=dict)  # atom -> (stance, probability)
    values: dict[FunctionalKey, Atom] = field(default_factory=dict)  # the atom believed
    unsure: dict[FunctionalKey, set[Atom]] = field(default_factory=dict)  # the atoms held UNSURE

    def copy(self) -> "ChainFacts":
        return ChainFacts(dict(self.atoms), dict(self.values), {k: set(v) for k, v in self.unsure.items()})


@dataclass(frozen=True)
class Answer:
    """One answer to a query: the chain's stance on the (bound) atom and the variable bindings."""

    stance: Stance
    bindings: dict[str, Term]  # variable name -> term
    formula: Formula  # the query with bindings applied
    known: bool = True  # False when the chain holds nothing about the atom (answered as unsure)
    probability: float | None = None
    holds: bool = False  # does the chain hold exactly what the query asks?

    def to_json(self) -> dict:
        return {"stance": self.stance.value, "bindings": {str(k): str(v) for k, v in self.bindings.items()},
                "fact": str(self.formula), "known": self.known, "probability": self.probability,
                "holds": self.holds}


class BeliefStore:
    """Facts per perspective chain; optional domain validation (types, arity, functional predicates)."""

    def __init__(self, domain: Domain | None = None, entities: dict[str, str] | None = None) -> None:
        self.domain = domain
        self.entities = dict(entities) if entities is not None else None
        self.graph = nx.DiGraph()
        self.graph.add_node((), facts=ChainFacts())

    # --- reading ---------------------------------------------------------------------------------
    def chains(self) -> list[tuple]:
        return sorted(self.graph.nodes, key=lambda c: (len(c), c))

    def _facts_of(self, chain: Iterable[Term]) -> ChainFacts | None:
        node = self.graph.nodes.get(tuple(chain))
        return node["facts"] if node is not None else None

    def facts(self, chain: Iterable[Term] | None = None) -> Iterator[Fact]:
        """All held facts (of one chain, or of every chain), in a stable order."""
        chains = [normalize_chain(chain)] if chain is not None else self.chains()
        for c in chains:
            cf = self._facts_of(c)
            if cf is None:
                continue
            for atom, (stance, prob) in sorted(cf.atoms.items(), key=lambda kv: str(kv[0])):
                yield Fact(compose(c, stance, atom), prob)

    def __len__(self) -> int:
        return sum(len(d["facts"].atoms) for _, d in self.graph.nodes(data=True))

    def __contains__(self, item: object) -> bool:
        fact = _as_fact(item)
        chain, stance, atom = decompose(fact.formula)
        cf = self._facts_of(chain)
        return cf is not None and cf.atoms.get(atom, (None,))[0] is stance

    def stance(self, chain: Iterable[Term], atom: Atom) -> tuple[Stance, bool, float | None]:
        """(stance, known, probability) of one chain about one ground atom (functional values derive NOT)."""
        cf = self._facts_of(normalize_chain(chain))
        if cf is None:
            return Stance.UNSURE, False, None
        held = cf.atoms.get(atom)
        if held is not None:
            return held[0], True, held[1]
        key = self._key(atom)
        if key is not None:
            other = cf.values.get(key)
            if other is not None and other != atom:
                return Stance.BELIEVES_NOT, True, cf.atoms[other][1]
        return Stance.UNSURE, False, None

    def value(self, chain: Iterable[Term], pred: str, *subject: str) -> str | None:
        """The value a chain believes a functional fluent has, or None (nothing believed, or the predicate
        is not functional): ``value(("Anne",), "in", "marble")`` is ``"basket"`` when Anne believes
        ``marble IN basket``."""
        cf = self._facts_of(normalize_chain(chain))
        held = cf.values.get((pred, tuple(subject))) if cf is not None else None
        return str(held.args[-1]) if held is not None else None  # ground: a name

    def values(self, chain: Iterable[Term]) -> dict[tuple, str]:
        """Every functional fluent the chain believes a value of: ``{(pred, *subject): value}``."""
        cf = self._facts_of(normalize_chain(chain))
        if cf is None:
            return {}
        return {(pred, *subject): str(atom.args[-1]) for (pred, subject), atom in cf.values.items()}  # ground

    # --- queries ---------------------------------------------------------------------------------
    def query(self, query: Formula | Fact | str) -> list[Answer]:
        """Answer a formula (or query text like ``? Anne BELIEVE Sally BELIEVE marble IN ?c``).

        Ground queries give one answer.  With variables, every binding the store supports is returned
        (believes / believes-not / unsure as held); when nothing matches, one ``unsure`` answer with
        ``known=False``.
        """
        if isinstance(query, str):
            query = parse_query(query)
        if isinstance(query, Fact):
            query = query.formula
        if not isinstance(query, Formula):
            raise QueryError(f"not a query: {query!r}")
        if self.domain is not None:
            query = self.domain.validate(query, self.entities)
        q_chain, q_stance, q_atom = decompose(query)
        if not query.variables():
            st, known, prob = self.stance(q_chain, q_atom)
            return [_answer(st, {}, query, known, prob, q_stance)]
        answers = []
        for chain in self.chains():
            if len(chain) != len(q_chain):
                continue
            b = unify(q_chain, chain)
            if b is None:
                continue
            cf = self._facts_of(chain)
            assert cf is not None  # every chain of chains() has its facts
            for atom, (st, prob) in cf.atoms.items():
                if atom.pred != q_atom.pred:
                    continue
                b2 = unify(q_atom.args, atom.args, dict(b))
                if b2 is None:
                    continue
                answers.append(_answer(st, b2, query.substitute(b2), True, prob, q_stance))
        if not answers:
            return [_answer(Stance.UNSURE, {}, query, False, None, q_stance)]
        answers.sort(key=lambda a: (a.stance != Stance.BELIEVES, str(a.formula)))
        return answers

    def ask(self, query: Formula | Fact | str) -> Answer:
        """The single best answer (believed bindings first)."""
        return self.query(query)[0]

    def diff(self, chain_a: Iterable[Term], chain_b: Iterable[Term]) -> list[Fact]:
        """Literals chain A holds that chain B does not hold with the same stance (B lacks or contradicts).

        ``diff(("alice",), ("alice", "bob"))``: what Alice believes that, as far as she knows, Bob lacks:
        the basis of miscoordination detection.
        """
        a = self._facts_of(normalize_chain(chain_a))
        if a is None:
            return []
        out = []
        for atom, (stance, prob) in sorted(a.atoms.items(), key=lambda kv: str(kv[0])):
            if stance is Stance.UNSURE:
                continue
            b_stance, _, _ = self.stance(chain_b, atom)
            if b_stance is not stance:
                out.append(Fact(compose((), stance, atom), prob))
        return out

    # --- writing ---------------------------------------------------------------------------------
    def add(self, fact: Fact | Formula | str) -> None:
        """Add one fact; a contradiction with what the chain holds raises BeliefConflictError."""
        self.apply([fact], mode="add")

    def replace(self, fact: Fact | Formula | str) -> None:
        """Add one fact, replacing the chain's previous value of a functional fluent (or the atom's stance)."""
        self.apply([fact], mode="replace")

    def retract(self, item: Fact | Formula | str) -> bool:
        """Forget what a chain holds about the fact's atom (whatever the stance). True if something went."""
        fact = self._checked(_as_fact(item))
        chain, _, atom = decompose(fact.formula)
        cf = self._facts_of(chain)
        if cf is None or atom not in cf.atoms:
            return False
        _remove(cf, atom, self._key(atom))
        return True

    def add_all(self, facts: Iterable, mode: str = "add") -> None:
        self.apply(facts, mode=mode)

    def apply(self, facts: Iterable, mode: str = "add") -> None:
        """Apply a batch all-or-nothing. ``mode``: 'add' (conflicts are errors) or 'replace'.

        Items may be Facts, Formulas or readable text.  On any error nothing changes and BatchError
        (or the single error, for a batch of one) lists every problem.
        """
        if mode not in ("add", "replace"):
            raise BeliefError(f"unknown mode {mode!r}: expected 'add' or 'replace'")
        scratch: dict[tuple, ChainFacts] = {}
        errors: list[BeliefError] = []
        for i, item in enumerate(facts):
            try:
                fact = self._checked(_as_fact(item))
                chain, stance, atom = decompose(fact.formula)
                if any(isinstance(a, Var) for a in (*chain, *atom.args)):
                    raise BeliefError(f"{fact}: facts must be ground (no variables)")
                cf = scratch.get(chain)
                if cf is None:
                    base = self._facts_of(chain)
                    cf = scratch[chain] = base.copy() if base is not None else ChainFacts()
                self._put(cf, stance, atom, fact, mode)
            except BeliefError as e:
                errors.append(e)
        if errors:
            if len(errors) == 1:
                raise errors[0]
            raise BatchError(errors)
        for chain, cf in scratch.items():
            self._ensure_chain(chain)
            self.graph.nodes[chain]["facts"] = cf

    def _put(self, cf: ChainFacts, stance: Stance, atom: Atom, fact: Fact, mode: str) -> None:
        key = self._key(atom)
        held = cf.atoms.get(atom)
        if held is not None and held[0] is not stance:
            if mode == "add":
                raise BeliefConflictError(
                    f"{fact}: contradicts {Fact(compose(fact.chain, held[0], atom))} already held "
                    f"(use replace to revise)")
            _remove(cf, atom, key)
        if key is not None and stance is Stance.BELIEVES:
            other = cf.values.get(key)
            if other is not None and other != atom:
                if mode == "add":
                    raise BeliefConflictError(
                        f"{fact}: {atom.pred} is functional and the chain already holds "
                        f"{Fact(compose(fact.chain, Stance.BELIEVES, other))} (use replace to revise)")
                _remove(cf, other, key)
            for doubt in sorted(cf.unsure.get(key, set()) - {atom}, key=str):  # believing atom settles them
                if mode == "add":
                    raise BeliefConflictError(
                        f"{fact}: {atom.pred} is functional and the chain is unsure of {doubt}, which this "
                        f"belief would settle (use replace to revise)")
                _remove(cf, doubt, key)
            cf.values[key] = atom
            # a newly believed value makes explicit NOTs of it meaningless; other NOTs stay consistent
        elif key is not None and stance is Stance.UNSURE:
            other = cf.values.get(key)
            if other is not None and other != atom:  # believing another value implies NOT atom
                if mode == "add":
                    raise BeliefConflictError(
                        f"{fact}: {atom.pred} is functional and the chain holds "
                        f"{Fact(compose(fact.chain, Stance.BELIEVES, other))}, which implies NOT {atom} "
                        f"(use replace to revise)")
                _remove(cf, other, key)
            cf.unsure.setdefault(key, set()).add(atom)
        cf.atoms[atom] = (stance, fact.probability)

    def _key(self, atom: Atom) -> FunctionalKey | None:
        return self.domain.functional_key(atom) if self.domain is not None else None

    def _checked(self, fact: Fact) -> Fact:
        if self.domain is not None:
            return self.domain.validate(fact, self.entities)
        return fact

    def _ensure_chain(self, chain: tuple[Term, ...]) -> None:
        if chain in self.graph:
            return
        for i in range(1, len(chain) + 1):
            node = chain[:i]
            if node not in self.graph:
                self.graph.add_node(node, facts=ChainFacts())
                self.graph.add_edge(chain[: i - 1], node, agent=chain[i - 1])

    # --- serialisation ---------------------------------------------------------------------------
    def to_json(self) -> dict:
        return {
            "schema": SCHEMA,
            "domain": str(self.domain) if self.domain is not None else None,
            "entities": self.entities,
            "facts": [str(f) for f in self.facts()],
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1)

    @classmethod
    def from_json(cls, data: dict) -> "BeliefStore":
        if not isinstance(data, dict) or data.get("schema") != SCHEMA:
            raise BeliefError(f"not a belief store document (expected schema {SCHEMA!r})")
        facts, entities = data.get("facts", []), data.get("entities")
        if not isinstance(facts, list):
            raise BeliefError(f"belief store document: 'facts' must be a list of facts, got {type(facts).__name__}")
        if entities is not None and not isinstance(entities, dict):
            raise BeliefError(f"belief store document: 'entities' must be an object, got {type(entities).__name__}")
        if data.get("domain") is not None and not isinstance(data["domain"], str):
            raise BeliefError(f"belief store document: 'domain' must be the domain's text, "
                              f"got {type(data['domain']).__name__}")
        domain = None
        if data.get("domain"):
            domain = Domain.parse(data["domain"])
        store = cls(domain, entities)
        store.add_all(facts)
        return store

    @classmethod
    def loads(cls, text: str) -> "BeliefStore":
        return cls.from_json(load_json(text, "belief store: "))

    def copy(self) -> "BeliefStore":
        new = BeliefStore(self.domain, self.entities)
        new.graph = nx.DiGraph()
        for node, data in self.graph.nodes(data=True):
            new.graph.add_node(node, facts=data["facts"].copy())
        new.graph.add_edges_from(self.graph.edges(data=True))
        return new

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BeliefStore) and set(self.facts()) == set(other.facts())


def _remove(cf: ChainFacts, atom: Atom, key: FunctionalKey | None) -> None:
    cf.atoms.pop(atom, None)
    if key is not None:
        if cf.values.get(key) == atom:
            del cf.values[key]
        doubts = cf.unsure.get(key)
        if doubts is not None:
            doubts.discard(atom)
            if not doubts:
                del cf.unsure[key]


def _as_fact(item: object) -> Fact:
    if isinstance(item, Fact):
        return item
    if isinstance(item, Formula):
        return Fact(item)
    if isinstance(item, str):
        return parse_fact(item)
    raise BeliefError(f"not a fact: {item!r}")


def _answer(stance: Stance, bindings: dict[Var, Term], formula: Formula, known: bool, prob: float | None,
            q_stance: Stance) -> Answer:
    return Answer(stance, {k.name: v for k, v in bindings.items()}, formula, known, prob,
                  holds=known and stance is q_stance)
