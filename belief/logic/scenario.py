"""Scenarios: a problem over a domain (agents, typed objects, initial facts of any depth, queries).

::

    (define (problem sally-anne) (:domain tomi)
      (:agents Sally Anne)
      (:objects room - room  basket box - container  marble - item)
      (:init (in marble box) "Sally BELIEVE marble IN basket")
      (:query "? Anne BELIEVE Sally BELIEVE marble IN ?c"))

:func:`load_scenario` binds a scenario to its domain (in the same text, given, or registered by name:
:func:`belief.logic.domain.named_domain`); :meth:`Scenario.store` gives a belief store of its initial facts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, overload

from belief.logic.domain import AGENT_TYPE, ROOT_TYPE, Domain, domain_names, named_domain
from belief.errors import BeliefError, BeliefTypeError, QueryError, did_you_mean
from belief.logic.formula import Fact, Formula, Var, decompose
from belief.grammar import Declaration, is_sexpr, parse_document
from belief.logic.store import BeliefStore


@dataclass(frozen=True)
class Scenario:
    """A problem over a domain: agents, typed objects, initial facts (any depth) and queries."""

    name: str
    domain_name: str | None = None
    agents: tuple = ()
    objects: dict = field(default_factory=dict)
    init: tuple = ()
    queries: tuple = ()
    domain: Domain | None = None

    @classmethod
    def from_sections(cls, name: str, sections: Iterable[tuple]) -> "Scenario":
        domain_name = None
        agents: list[str] = []
        objects: dict[str, str] = {}
        init: list[Fact] = []
        queries: list[Formula] = []
        for kind, payload in sections:
            if kind == "domain":
                domain_name = payload
            elif kind == "agents":
                agents.extend(payload)
            elif kind == "objects":
                objects.update({n: t or ROOT_TYPE for n, t in payload})
            elif kind == "init":
                init.extend(payload)
            elif kind == "query":
                queries.extend(q.formula if isinstance(q, Fact) else q for q in payload)
        return cls(name, domain_name, tuple(agents), objects, tuple(init), tuple(queries))

    def with_domain(self, domain: Domain) -> "Scenario":
        if self.domain_name and domain.name != self.domain_name:
            raise BeliefTypeError(f"scenario {self.name} is for domain {self.domain_name}, not {domain.name}")
        for n, t in self.objects.items():
            if t not in domain.types:
                raise BeliefTypeError(f"scenario {self.name}: object {n} has undeclared type {t!r}")
        return Scenario(self.name, domain.name, self.agents, self.objects, self.init, self.queries, domain)

    @property
    def entities(self) -> dict[str, str]:
        ents = dict(self.domain.constants) if self.domain else {}
        ents.update(self.objects)
        ents.update({a: AGENT_TYPE for a in self.agents})
        return ents

    @overload
    def validate(self, item: Fact) -> Fact: ...

    @overload
    def validate(self, item: Formula) -> Formula: ...

    def validate(self, item: Fact | Formula) -> Fact | Formula:
        """``item`` checked against the domain (:meth:`Domain.validate`), as it is without one."""
        if self.domain is None:
            return item
        return self.domain.validate(item, self.entities)

    def check_query_names(self, query: Formula) -> None:
        """QueryError for a name this scenario never mentions ("no such agent 'Aliec' (did you mean
        'Alice'?)"); with a domain, its validation already says so."""
        if self.domain is not None:
            return
        chain, _, atom = decompose(query)
        agents = set(self.agents) | {a for f in self.init for a in f.chain}
        entities = set(self.objects) | {x for f in self.init for x in f.atom.args}
        for a in chain:
            if not isinstance(a, Var) and a not in agents:
                raise QueryError(f"no such agent {a!r}{did_you_mean(a, agents)}")
        for x in atom.args:
            if not isinstance(x, Var) and x not in entities:
                raise QueryError(f"no such entity {x!r}{did_you_mean(x, entities)}")

    def store(self) -> BeliefStore:
        """A BeliefStore holding this scenario's initial facts (all checked, all-or-nothing)."""
        store = BeliefStore(self.domain, self.entities if self.domain else None)
        store.add_all(self.init)
        return store


def read_document(text: str, *, source: str | None = None) -> list:
    """A document's items as values: facts, :class:`~belief.logic.domain.Domain` and :class:`Scenario` (not yet
    bound to their domains), in order. Either surface (see :func:`belief.grammar.parse_document`)."""
    out = []
    for item in parse_document(text, source=source):
        if isinstance(item, Declaration):
            item = (Domain.from_declaration(item) if item.kind == "domain"
                    else Scenario.from_sections(item.name, item.sections))
            if isinstance(item, Scenario) and item.domain_name is None:  # its names could not be typed
                raise BeliefError(f"{source or '<document>'}: (define (problem {item.name}) ...) names no domain: "
                                  f"add (:domain NAME), e.g. one of {', '.join(domain_names())} or a domain "
                                  f"defined in the same file")
        out.append(item)
    return out


def load_scenario(text: str, *, source: str | None = None, domains: dict[str, Domain] | None = None) -> Scenario:
    """Load a scenario from an s-expression document, bound to its domain (defined in the same text, given
    in ``domains``, or a registered one such as the built-in examples: :func:`belief.logic.domain.named_domain`),
    or from a plain readable fact file (one fact per line: an untyped scenario)."""
    text = text[1:] if text.startswith("\ufeff") else text  # a byte order mark, as some editors write
    if not is_sexpr(text):
        facts = parse_document(text, source=source)
        agents = sorted({a for f in facts for a in f.chain if isinstance(a, str)})
        return Scenario(source or "facts", None, tuple(agents), {}, tuple(facts), ())
    items = read_document(text, source=source)
    known: dict = {name: None for name in domain_names()}
    known.update(domains or {})
    known.update({d.name: d for d in items if isinstance(d, Domain)})
    problems = [i for i in items if isinstance(i, Scenario)]
    if len(problems) != 1:
        raise BeliefError(f"{source or 'scenario'}: expected one (define (problem ...)), found {len(problems)}")
    sc = problems[0]
    if sc.domain_name is None:
        return sc
    dom = known.get(sc.domain_name, "missing")
    if dom is None:
        dom = named_domain(sc.domain_name)
    if dom == "missing":
        raise BeliefError(f"{source or 'scenario'}: unknown domain {sc.domain_name!r}; define it in the same file "
                          f"or use a built-in one ({', '.join(domain_names())})")
    extra = [i for i in items if isinstance(i, Fact)]
    if extra:
        sc = Scenario(sc.name, sc.domain_name, sc.agents, sc.objects, sc.init + tuple(extra), sc.queries)
    return sc.with_domain(dom)


def load_domain(spec: str) -> tuple[Domain, dict | None]:
    """(domain, entities) from a built-in domain's name, a file defining a domain (entities None: names are
    not typed), or a scenario file (its agents and objects typed over its domain)."""
    path = Path(spec)
    if not path.is_file():
        if spec in domain_names():
            return named_domain(spec), None
        raise BeliefError(f"{spec}: neither a file nor a built-in domain ({', '.join(domain_names())})")
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as e:
        raise BeliefError(f"{spec}: cannot read: {e}") from None
    items = read_document(text, source=spec)
    if any(isinstance(i, Scenario) for i in items):
        sc = load_scenario(text, source=spec)
        if sc.domain is None:
            raise BeliefError(f"{spec}: the scenario names no domain")
        return sc.domain, sc.entities
    domains = [i for i in items if isinstance(i, Domain)]
    if len(domains) != 1:
        raise BeliefError(f"{spec}: expected one (define (domain ...)) or a scenario, found {len(domains)} domain(s)")
    return domains[0], None


__all__ = ["Scenario", "load_domain", "load_scenario", "read_document"]
