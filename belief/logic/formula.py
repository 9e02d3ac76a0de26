"""Immutable belief formulas in normal form.

A formula is a chain of ``Believes`` ending in a *literal*: an ``Atom``, a ``Not`` of an atom, or an
``Unsure`` (an agent that neither believes the atom nor its negation)::

    Alice BELIEVE Bob BELIEVE apple IN kitchen      Believes(Alice, Believes(Bob, Atom(in, apple, kitchen)))
    Alice BELIEVE NOT apple IN box                  Believes(Alice, Not(Atom(in, apple, box)))
    Alice UNSURE apple IN box                       Unsure(Alice, Atom(in, apple, box))

Normal form is enforced by the constructors: ``X BELIEVE X BELIEVE p`` is ``X BELIEVE p`` and
``X BELIEVE X UNSURE p`` is ``X UNSURE p`` (introspection), ``X UNSURE NOT p`` is ``X UNSURE p``.
Every value has ``parse()`` and a ``__str__`` (the readable form) that round-trip. The parsers and the printer
live in :mod:`belief.grammar`, which is built on these values: it registers them here when imported
(:func:`register_syntax`; ``import belief`` imports it), so this module never imports it.
"""

from __future__ import annotations

import enum
import math
import re
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, NoReturn, Union

from belief.errors import BeliefTypeError

NAME_RE = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_\-]*\Z")
#: relations written infix in the readable form (keyword -> predicate name)
INFIX_KEYWORDS = {"IN": "in", "AT": "at", "HOLD": "hold", "CONTAIN": "contain", "EXPLORED": "explored"}
INFIX_PREDICATES = {v: k for k, v in INFIX_KEYWORDS.items()}
#: words that cannot be predicate names (they are operators in one of the two surfaces)
RESERVED = frozenset({"believes", "not", "unsure", "prob", "define"}) | frozenset(INFIX_KEYWORDS) | frozenset(
    {"BELIEVE", "BELIEVES", "NOT", "UNSURE"})
#: the longest perspective chain a formula may have (nested BELIEVE/UNSURE, after normalisation). Deeper
#: formulas are refused when built, so equality, hashing, pickling, printing and the store stay far from
#: Python's recursion limit and linear in practice (ToM questions stop at order 4).
MAX_DEPTH = 256


class FormulaDepthError(BeliefTypeError):
    """A formula nested deeper than :data:`MAX_DEPTH` beliefs."""

    def __init__(self) -> None:
        super().__init__(f"formula nested deeper than {MAX_DEPTH} beliefs (the limit, belief.logic.formula.MAX_DEPTH)")


def _check_name(name: str, what: str) -> str:
    if not isinstance(name, str) or not NAME_RE.match(name):
        raise BeliefTypeError(f"invalid {what} name {name!r}: expected letters, digits, '_' or '-'")
    return name


class Var:
    """A variable ``?name`` in a query or a rule."""

    __slots__ = ("name", "_hash")
    name: str
    _hash: int

    def __init__(self, name: str) -> None:
        name = name[1:] if name.startswith("?") else name
        object.__setattr__(self, "name", _check_name(name, "variable"))
        object.__setattr__(self, "_hash", hash(("?", name)))

    def __setattr__(self, key: str, value: object) -> NoReturn:
        raise AttributeError("Var is immutable")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Var) and other.name == self.name

    def __hash__(self) -> int:
        return self._hash

    def __str__(self) -> str:
        return "?" + self.name

    def __repr__(self) -> str:
        return f"Var({self.name!r})"

    def __reduce__(self) -> tuple[type[Var], tuple[str]]:
        return (Var, (self.name,))


Term = Union[str, Var]


def _check_term(term) -> Term:
    if isinstance(term, Var):
        return term
    return _check_name(term, "entity")


def term_str(term: Term) -> str:
    return str(term)


class Formula:
    """Base of all formula values. Subclasses are immutable, hashable and compare structurally."""

    __slots__ = ()
    _depth: int  # nested beliefs (a class constant of the literals, a slot of Believes)
    _hash: int  # a slot of every subclass: hash() of the value, computed once

    def __setattr__(self, key: str, value: object) -> NoReturn:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __delattr__(self, key: str) -> NoReturn:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __str__(self) -> str:  # readable form
        return _syntax().write_readable(self)

    def __repr__(self) -> str:
        return f"{type(self).__name__}.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> "Formula":
        f = _syntax().parse_formula(text)
        if not isinstance(f, cls):
            raise BeliefTypeError(f"{text!r} is a {type(f).__name__}, not a {cls.__name__}")
        return f

    # --- structure -------------------------------------------------------------------------
    @property
    def chain(self) -> tuple[Term, ...]:
        """The perspective chain: the agents whose beliefs hold the literal (Unsure's agent included)."""
        return decompose(self)[0]

    @property
    def depth(self) -> int:
        return self._depth

    @property
    def atom(self) -> "Atom":
        return decompose(self)[2]

    @property
    def stance(self) -> "Stance":
        return decompose(self)[1]

    def variables(self) -> frozenset[Var]:
        chain, _, atom = decompose(self)
        return frozenset(t for t in (*chain, *atom.args) if isinstance(t, Var))

    def substitute(self, bindings: dict) -> "Formula":
        """Replace variables by the terms ``bindings`` gives (keys: Var or variable name)."""
        chain, stance, atom = decompose(self)

        def sub(t: Term) -> Term:
            if isinstance(t, Var):
                return bindings.get(t, bindings.get(t.name, t))
            return t

        return compose(tuple(sub(a) for a in chain), stance, Atom(atom.pred, tuple(sub(a) for a in atom.args)))


class Atom(Formula):
    """A relation over terms: ``apple IN kitchen`` is ``Atom('in', ('apple', 'kitchen'))``."""

    __slots__ = ("pred", "args", "_hash")
    _depth = 0
    pred: str
    args: tuple[Term, ...]
    _hash: int

    def __init__(self, pred: str, args: Iterable[Term] = ()) -> None:
        if pred in RESERVED:
            raise BeliefTypeError(f"{pred!r} is a reserved word and cannot name a predicate")
        _check_name(pred, "predicate")
        args = tuple(_check_term(a) for a in args)
        object.__setattr__(self, "pred", pred)
        object.__setattr__(self, "args", args)
        object.__setattr__(self, "_hash", hash((pred, args)))

    @classmethod
    def _trusted(cls, pred: str, args: tuple) -> "Atom":
        """Construct without validation: for parsers whose grammar already guarantees valid names."""
        if pred in RESERVED:
            raise BeliefTypeError(f"{pred!r} is a reserved word and cannot name a predicate")
        self = _AtomDraft()
        self.pred = pred
        self.args = args
        self._hash = hash((pred, args))
        self.__class__ = Atom  # see _draft
        return self

    def __eq__(self, other: object) -> bool:
        return other.__class__ is Atom and other._hash == self._hash and other.pred == self.pred \
            and other.args == self.args

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[Atom], tuple[str, tuple[Term, ...]]]:
        return (Atom, (self.pred, self.args))


class Not(Formula):
    """Negation of an atom (NOT applies to atoms only; this keeps every formula a literal under a chain)."""

    __slots__ = ("atom_", "_hash")
    _depth = 0
    atom_: Atom
    _hash: int

    def __init__(self, atom: Atom) -> None:
        if not isinstance(atom, Atom):
            raise BeliefTypeError(f"NOT applies to a relation, not to {type(atom).__name__} {atom}")
        object.__setattr__(self, "atom_", atom)
        object.__setattr__(self, "_hash", hash(("not", atom._hash)))

    def __eq__(self, other: object) -> bool:
        return other.__class__ is Not and other.atom_ == self.atom_

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[Not], tuple[Atom]]:
        return (Not, (self.atom_,))


class _Modal(Formula):
    __slots__ = ("agent", "body", "_hash")
    agent: Term
    body: Formula
    _hash: int

    def __eq__(self, other: object) -> bool:
        return other.__class__ is self.__class__ and other._hash == self._hash and other.agent == self.agent \
            and other.body == self.body

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[_Modal], tuple[Term, Formula]]:
        return (self.__class__, (self.agent, self.body))


class Believes(_Modal):
    """``agent BELIEVE body``. ``Believes(X, Believes(X, p))`` is constructed as ``Believes(X, p)``."""

    __slots__ = ("_depth",)

    # normal form: X BELIEVE X UNSURE p is built as the Unsure itself, which a __new__ may return (Python
    # then skips __init__; there is none) though mypy wants an instance of the class
    def __new__(cls, agent: Term, body: Formula) -> Believes | Unsure:  # type: ignore[misc]
        agent = _check_term(agent)
        if not isinstance(body, Formula):
            raise BeliefTypeError(f"BELIEVE needs a formula, got {body!r}")
        return cls._trusted(agent, body)  # normalises: X BELIEVE X BELIEVE p == X BELIEVE p (introspection)

    @classmethod
    def _trusted(cls, agent: Term, body: Formula) -> Believes | Unsure:
        """Construct (normalising) without validating the agent's name: for parsers (and for ``__new__``)."""
        if (body.__class__ is Believes or body.__class__ is Unsure) and body.agent == agent:
            return body
        depth = body._depth + 1
        if depth > MAX_DEPTH:
            raise FormulaDepthError()
        self = _BelievesDraft()
        self.agent = agent
        self.body = body
        self._depth = depth
        self._hash = hash(("believes", agent, body._hash))  # the body's hash, not a call of its __hash__
        self.__class__ = cls  # see _draft
        return self


class Unsure(_Modal):
    """``agent UNSURE p``: the agent believes neither p nor NOT p. ``UNSURE NOT p`` is ``UNSURE p``."""

    __slots__ = ()
    _depth = 1
    body: Atom

    def __new__(cls, agent: Term, body: Formula) -> Unsure:
        agent = _check_term(agent)
        if isinstance(body, Not):
            body = body.atom_
        if not isinstance(body, Atom):
            raise BeliefTypeError(f"UNSURE applies to a relation or its negation, not to {body}")
        self = object.__new__(cls)
        object.__setattr__(self, "agent", agent)
        object.__setattr__(self, "body", body)
        object.__setattr__(self, "_hash", hash(("unsure", agent, body._hash)))
        return self


class Stance(str, enum.Enum):
    """What a chain holds about an atom."""

    BELIEVES = "believes"
    BELIEVES_NOT = "believes-not"
    UNSURE = "unsure"

    def __str__(self) -> str:
        return self.value


def decompose(f: Formula) -> tuple[tuple[Term, ...], Stance, Atom]:
    """Split a formula into (chain, stance, atom)."""
    chain = []
    while isinstance(f, Believes):
        chain.append(f.agent)
        f = f.body
    if isinstance(f, Atom):
        return tuple(chain), Stance.BELIEVES, f
    if isinstance(f, Not):
        return tuple(chain), Stance.BELIEVES_NOT, f.atom_
    if isinstance(f, Unsure):
        chain.append(f.agent)
        return tuple(chain), Stance.UNSURE, f.body
    raise BeliefTypeError(f"not a formula: {f!r}")


def compose(chain: tuple[Term, ...], stance: Stance, atom: Atom) -> Formula:
    """Inverse of :func:`decompose` (normalising the chain on the way)."""
    if stance is Stance.UNSURE:
        if not chain:
            raise BeliefTypeError("UNSURE needs an agent: reality is never unsure")
        f: Formula = Unsure(chain[-1], atom)
        chain = chain[:-1]
    elif stance is Stance.BELIEVES_NOT:
        f = Not(atom)
    else:
        f = atom
    for agent in reversed(chain):
        f = Believes(agent, f)
    return f


def normalize_chain(chain) -> tuple[Term, ...]:
    """Collapse repeated adjacent agents: (a, a, b) -> (a, b)."""
    out: list = []
    for a in chain:
        if not out or out[-1] != a:
            out.append(a)
    return tuple(out)


class Fact:
    """A formula with an optional probability (``... @ 0.7``): the unit stored, exchanged and printed."""

    __slots__ = ("formula", "probability", "_hash")
    formula: Formula
    probability: float | None
    _hash: int

    def __init__(self, formula: Formula, probability: float | None = None) -> None:
        if not isinstance(formula, Formula):
            raise BeliefTypeError(f"a fact needs a formula, got {formula!r}")
        if probability is not None:
            probability = float(probability) + 0.0  # -0.0 -> 0.0
            if not (0.0 <= probability <= 1.0) or math.isnan(probability):
                raise BeliefTypeError(f"probability must lie in [0, 1], got {probability}")
        object.__setattr__(self, "formula", formula)
        object.__setattr__(self, "probability", probability)
        object.__setattr__(self, "_hash", hash((formula._hash, probability)))

    @classmethod
    def _trusted(cls, formula: Formula, probability: float | None) -> "Fact":
        """Construct without validation: for parsers that built ``formula`` and checked ``probability`` (a float
        in [0, 1], not -0.0, or None)."""
        self = _FactDraft()
        self.formula = formula
        self.probability = probability
        self._hash = hash((formula._hash, probability))
        self.__class__ = Fact  # see _draft
        return self

    @staticmethod
    def _trusted_chain(agents: Iterable[Term], body: Formula, probability: float | None) -> "Fact":
        """``Fact._trusted`` of ``body`` under ``Believes._trusted`` for each agent in turn, innermost first
        (agents ``(b, a)``: ``a BELIEVE b BELIEVE body``), in one call: for parsers, which make one per line (the
        same normal form and checks as :meth:`Believes._trusted`, inlined; a call less per object)."""
        f = body
        for agent in agents:
            if (f.__class__ is Believes or f.__class__ is Unsure) and f.agent == agent:
                continue
            depth = f._depth + 1
            if depth > MAX_DEPTH:
                raise FormulaDepthError()
            b = _BelievesDraft()
            b.agent = agent
            b.body = f
            b._depth = depth
            b._hash = hash(("believes", agent, f._hash))
            b.__class__ = Believes  # see _draft
            f = b
        self = _FactDraft()
        self.formula = f
        self.probability = probability
        self._hash = hash((f._hash, probability))
        self.__class__ = Fact
        return self

    def __setattr__(self, key: str, value: object) -> NoReturn:
        raise AttributeError("Fact is immutable")

    def __delattr__(self, key: str) -> NoReturn:
        raise AttributeError("Fact is immutable")

    def __eq__(self, other: object) -> bool:
        return other.__class__ is Fact and other.formula == self.formula and other.probability == self.probability

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[Fact], tuple[Formula, float | None]]:
        return (Fact, (self.formula, self.probability))

    def __str__(self) -> str:
        return _syntax().write_readable(self)

    def __repr__(self) -> str:
        return f"Fact.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> "Fact":
        return _syntax().parse_fact(text)

    @property
    def chain(self) -> tuple[Term, ...]:
        return self.formula.chain

    @property
    def stance(self) -> Stance:
        return self.formula.stance

    @property
    def atom(self) -> Atom:
        return self.formula.atom


def _draft(cls: type) -> type:
    """A mutable twin of the immutable slotted class ``cls``: the same base and slots, so the same layout, and
    plain attribute stores. The trusted constructors fill one and then make it a ``cls`` by assigning
    ``__class__`` (Python allows that between classes of one layout): half the cost of ``object.__new__`` and
    a slot descriptor's ``__set__`` per field, which ``cls.__setattr__`` (it refuses every store) forced."""
    draft = type(f"_{cls.__name__}Draft", cls.__bases__, {
        "__slots__": cls.__dict__["__slots__"], "__setattr__": object.__setattr__,
        "__delattr__": object.__delattr__})  # both: a class's own __delattr__ would slow its stores too
    draft().__class__ = cls  # here, at import, if the two layouts ever differ: TypeError
    return draft


_AtomDraft, _BelievesDraft, _FactDraft = _draft(Atom), _draft(Believes), _draft(Fact)


def unify(pattern: Iterable[Term], values: Iterable[Term], binding: dict[Var, Term] | None = None
          ) -> dict[Var, Term] | None:
    """Bind ``pattern``'s variables so that it reads ``values`` term by term: ``binding`` (a new dict when
    None) extended in place, or None when a constant, or a variable already bound, differs."""
    binding = {} if binding is None else binding
    for p, v in zip(pattern, values):
        if isinstance(p, Var):
            if binding.setdefault(p, v) != v:
                return None
        elif p != v:
            return None
    return binding


def iter_terms(f: Formula) -> Iterator[Term]:
    chain, _, atom = decompose(f)
    yield from chain
    yield from atom.args


# --- the syntax, provided by belief.grammar ------------------------------------------------------------
@dataclass(frozen=True)
class _Syntax:
    parse_formula: Callable[[str], Formula]
    parse_fact: Callable[[str], Fact]
    write_readable: Callable[[Fact | Formula], str]


_SYNTAX: _Syntax | None = None


def register_syntax(*, parse_formula: Callable[[str], Formula], parse_fact: Callable[[str], Fact],
                    write_readable: Callable[[Fact | Formula], str]) -> None:
    """Install the parsers behind :meth:`Formula.parse` and :meth:`Fact.parse` and the printer behind ``str()``
    (:mod:`belief.grammar` does this when it is imported)."""
    global _SYNTAX
    _SYNTAX = _Syntax(parse_formula, parse_fact, write_readable)


def _syntax() -> _Syntax:
    if _SYNTAX is None:
        raise RuntimeError("no belief-language syntax registered: import belief.grammar")
    return _SYNTAX
