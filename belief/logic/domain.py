"""Typed domains and scenarios: what a fact may say, so contradictions and hallucinations are caught.

A :class:`Domain` declares types (with subtyping), typed predicates, which predicates are *functional*
(the last argument is determined by the others: an object is IN one place, an agent AT one room),
constants, and optional *belief rules* (formula patterns with variables, e.g.
``?agentA BELIEVE ?agentB BELIEVE ?object IN ?room``) that say which belief forms are allowed.
Scenarios over a domain (agents, typed objects, initial facts, queries) are in :mod:`belief.logic.scenario`.

Domains are written in the PDDL-like s-expression surface::

    (define (domain tomi)
      (:types place - entity  room container - place  item - entity)
      (:predicates (in ?i - item ?p - place) (at ?a - agent ?r - room))
      (:functional in at))

Domains are known by name (:func:`register_domain`, :func:`named_domain`): a scenario's ``(:domain tomi)``
finds the built-in ``tomi`` that :mod:`belief.logic.example_domains` registers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable, overload

from belief.errors import BeliefError, BeliefSyntaxError, BeliefTypeError, did_you_mean
from belief.logic.formula import Atom, Fact, Formula, Term, Var, compose, decompose, unify
from belief.grammar import Declaration, parse_sexpr_document, to_sexpr

ROOT_TYPE = "entity"
AGENT_TYPE = "agent"
#: what determines a functional predicate's value: (predicate, every argument but the last)
FunctionalKey = tuple[str, tuple[Term, ...]]


@dataclass(frozen=True)
class Predicate:
    name: str
    arg_types: tuple[str, ...]
    functional: bool = False

    @property
    def arity(self) -> int:
        return len(self.arg_types)

    def key(self, atom: Atom) -> FunctionalKey:
        """The functional key: all arguments but the last."""
        return (self.name, atom.args[:-1])


@dataclass(frozen=True)
class Domain:
    name: str
    types: dict[str, str | None] = field(default_factory=dict)  # type -> parent type (None for the root)
    predicates: dict[str, Predicate] = field(default_factory=dict)
    constants: dict[str, str] = field(default_factory=dict)  # name -> type
    rules: tuple[Formula, ...] = ()  # Formula patterns

    # --- construction ------------------------------------------------------------------------
    @classmethod
    def from_sections(cls, name: str, sections: Iterable[tuple]) -> "Domain":
        types: dict[str, str | None] = {ROOT_TYPE: None, AGENT_TYPE: ROOT_TYPE}
        predicates: dict[str, Predicate] = {}
        functional: list[str] = []
        constants: dict[str, str] = {}
        rules: list[Formula] = []
        for kind, payload in sections:
            if kind == "types":
                for t, parent in payload:
                    if t in (ROOT_TYPE,):
                        continue
                    types[t] = parent or ROOT_TYPE
                for t, parent in payload:  # parents mentioned only as parents are types too
                    if parent and parent not in types:
                        types[parent] = ROOT_TYPE
            elif kind == "constants":
                constants.update({n: t or ROOT_TYPE for n, t in payload})
            elif kind == "predicates":
                for pname, typed in payload:
                    if pname in predicates:
                        raise BeliefTypeError(f"domain {name}: predicate {pname!r} declared twice")
                    predicates[pname] = Predicate(pname, tuple(t or ROOT_TYPE for _, t in typed))
            elif kind == "functional":
                functional.extend(payload)
            elif kind == "rules":
                rules.extend(payload)
        for f in functional:
            if f not in predicates:
                raise BeliefTypeError(f"domain {name}: :functional names unknown predicate {f!r}")
            p = predicates[f]
            if p.arity < 1:
                raise BeliefTypeError(f"domain {name}: functional predicate {f!r} needs at least one argument")
            predicates[f] = Predicate(p.name, p.arg_types, True)
        dom = cls(name, types, predicates, constants, tuple(rules))
        dom._check_declarations()
        return dom

    def _check_declarations(self) -> None:
        for t, parent in self.types.items():
            seen: set[str | None] = {t}
            while parent is not None:
                if parent in seen:
                    raise BeliefTypeError(f"domain {self.name}: type cycle through {parent!r}")
                seen.add(parent)
                parent = self.types.get(parent)
        for p in self.predicates.values():
            for t in p.arg_types:
                if t not in self.types:
                    raise BeliefTypeError(f"domain {self.name}: predicate {p.name} uses undeclared type {t!r}")
        for c, t in self.constants.items():
            if t not in self.types:
                raise BeliefTypeError(f"domain {self.name}: constant {c} has undeclared type {t!r}")
        for r in self.rules:
            self._check_rule(r)

    def _check_rule(self, rule: Formula) -> None:
        _, _, atom = decompose(rule)
        if atom.pred not in self.predicates:
            raise BeliefTypeError(f"domain {self.name}: rule {rule} uses unknown predicate {atom.pred!r}")
        if len(atom.args) != self.predicates[atom.pred].arity:
            raise BeliefTypeError(f"domain {self.name}: rule {rule} has the wrong arity for {atom.pred}")

    @classmethod
    def from_declaration(cls, decl: Declaration) -> "Domain":
        return cls.from_sections(decl.name, decl.sections)

    @classmethod
    def parse(cls, text: str) -> "Domain":
        """The one ``(define (domain ...))`` of an s-expression document."""
        items = parse_sexpr_document(text)
        doms = [i for i in items if isinstance(i, Declaration) and i.kind == "domain"]
        if len(doms) != 1:
            raise BeliefSyntaxError(f"expected one (define (domain ...)), found {len(doms)}", line=1, column=1)
        return cls.from_declaration(doms[0])

    def __str__(self) -> str:
        def typed(pairs: Iterable[tuple[str, str | None]]) -> str:
            return " ".join(f"{n} - {t}" for n, t in pairs)

        types = [(t, p) for t, p in self.types.items() if t not in (ROOT_TYPE, AGENT_TYPE)]
        lines = [f"(define (domain {self.name})"]
        if types:
            lines.append(f"  (:types {typed(types)})")
        if self.constants:
            lines.append(f"  (:constants {typed(self.constants.items())})")
        if self.predicates:
            decls = " ".join(
                "(" + " ".join([p.name, *(f"?x{i} - {t}" for i, t in enumerate(p.arg_types))]) + ")"
                for p in self.predicates.values())
            lines.append(f"  (:predicates {decls})")
        fun = [p.name for p in self.predicates.values() if p.functional]
        if fun:
            lines.append(f"  (:functional {' '.join(fun)})")
        if self.rules:
            lines.append(f"  (:rules {' '.join(to_sexpr(r) for r in self.rules)})")
        return "\n".join(lines) + ")"

    # --- type queries ----------------------------------------------------------------------------
    def is_subtype(self, t: str, parent: str) -> bool:
        ancestor: str | None = t
        while ancestor is not None:
            if ancestor == parent:
                return True
            ancestor = self.types.get(ancestor)
        return False

    def subtypes(self, t: str) -> list[str]:
        return [s for s in self.types if self.is_subtype(s, t)]

    def predicate(self, name: str) -> Predicate:
        try:
            return self.predicates[name]
        except KeyError:
            hint = did_you_mean(name, self.predicates)
            raise BeliefTypeError(f"unknown predicate {name!r}{hint}; domain {self.name} has: "
                                  f"{', '.join(sorted(self.predicates))}") from None

    def functional_key(self, atom: Atom) -> FunctionalKey | None:
        """(pred, head args) when ``atom``'s predicate is functional, else None."""
        p = self.predicates.get(atom.pred)
        if p is not None and p.functional:
            return (atom.pred, atom.args[:-1])
        return None

    # --- validation ------------------------------------------------------------------------------
    @overload
    def validate(self, item: Fact, entities: dict[str, str] | None = None) -> Fact: ...

    @overload
    def validate(self, item: Formula, entities: dict[str, str] | None = None) -> Formula: ...

    def validate(self, item: Fact | Formula, entities: dict[str, str] | None = None) -> Fact | Formula:
        """Check a Fact or Formula against this domain; return it with entity names canonicalised.

        ``entities`` maps known entity names to types (agents have type ``agent``); domain constants are
        added. With ``entities=None`` entity names are not checked, only predicates and arity.
        Raises BeliefTypeError listing every problem found.
        """
        fact = item if isinstance(item, Fact) else Fact(item)
        chain, stance, atom = decompose(fact.formula)
        known = None
        if entities is not None:
            known = dict(self.constants)
            known.update(entities)
        problems: list[str] = []
        canon = _Canonicaliser(known)
        new_chain: list[Term] = []
        for i, agent in enumerate(chain):
            if isinstance(agent, Var):
                new_chain.append(agent)
                continue
            name = canon(agent, problems, f"believer {i + 1}", agent=True)
            if known is not None and name in known and not self.is_subtype(known[name], AGENT_TYPE):
                problems.append(f"{name!r} cannot believe anything: it is {_a(known[name])}, not an agent")
            new_chain.append(name)
        pred = self.predicates.get(atom.pred)
        new_args: list[Term] = list(atom.args)
        if pred is None:
            try:
                self.predicate(atom.pred)
            except BeliefTypeError as e:
                problems.append(str(e))
        elif len(atom.args) != pred.arity:
            problems.append(f"{atom.pred} takes {pred.arity} argument(s) "
                            f"({', '.join(pred.arg_types)}), got {len(atom.args)}: {atom}")
        else:
            for i, (arg, want) in enumerate(zip(atom.args, pred.arg_types)):
                if isinstance(arg, Var):
                    continue
                name = canon(arg, problems, f"argument {i + 1} of {atom.pred}")
                new_args[i] = name
                if known is not None and name in known and not self.is_subtype(known[name], want):
                    problems.append(
                        f"argument {i + 1} of {atom.pred} must be {_a(want)}, but {name!r} is {_a(known[name])}"
                        f" (in {atom})")
        if problems:
            raise BeliefTypeError(f"{fact}: " + "; ".join(problems))
        new_atom = Atom(atom.pred, tuple(new_args))
        formula = compose(tuple(new_chain), stance, new_atom)
        if self.rules and not any(_matches_rule(r, formula) for r in self.rules):
            raise BeliefTypeError(f"{fact}: no belief rule of domain {self.name} allows this form "
                                  f"(rules: {'; '.join(str(r) for r in self.rules)})")
        out = Fact(formula, fact.probability)
        return out if isinstance(item, Fact) else out.formula


def _a(word: str) -> str:
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


class _Canonicaliser:
    """Resolve entity names to their declared spelling (case-insensitively), collecting problems."""

    def __init__(self, known: dict[str, str] | None) -> None:
        self.known = known
        self.lower = {k.lower(): k for k in known} if known is not None else {}

    def __call__(self, name: str, problems: list, where: str, agent: bool = False) -> str:
        if self.known is None or name in self.known:
            return name
        hit = self.lower.get(name.lower())
        if hit is not None:
            return hit
        if agent:
            agents = [k for k, t in self.known.items() if t == AGENT_TYPE]
            problems.append(f"no such agent {name!r} as {where}{did_you_mean(name, agents)}")
        else:
            problems.append(f"unknown entity {name!r} as {where}{did_you_mean(name, self.known)}")
        return name


def _matches_rule(rule: Formula, f: Formula) -> bool:
    rc, _, ra = decompose(rule)
    fc, _, fa = decompose(f)
    return len(rc) == len(fc) and ra.pred == fa.pred and len(ra.args) == len(fa.args) \
        and unify((*rc, *ra.args), (*fc, *fa.args)) is not None


# --- domains by name ---------------------------------------------------------------------------------
_NAMED: dict[str, Callable[[], Domain]] = {}


def register_domain(name: str, factory: Callable[[], Domain]) -> None:
    """Make ``named_domain(name)`` return ``factory()`` (scenarios refer to domains by name)."""
    _NAMED[name] = factory


def domain_names() -> list[str]:
    """The names of the registered domains (the built-in examples once :mod:`belief.logic.example_domains` is
    imported, which ``import belief`` does)."""
    return sorted(_NAMED)


def named_domain(name: str) -> Domain:
    try:
        factory = _NAMED[name]
    except KeyError:
        raise BeliefError(f"unknown domain {name!r}; known: {', '.join(domain_names()) or 'none'}") from None
    return factory()
