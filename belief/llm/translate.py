"""Observations into belief facts: rules by default, an LLM when configured, always checked.

A :class:`Translator` serves one environment (:class:`belief.llm.translation_envs.TranslationEnv`: domain, known
entities, static facts, rules). For one agent and one text it produces facts in the readable belief
language, in the spirit of CoBel-World's two prompts:

* **zero-order**: what the agent itself learns (``alpha BELIEVE bomb_2 IN room_6``);
* **first-order**: what a partner can have learned too (``alpha BELIEVE bravo BELIEVE bomb_2 IN room_6``),
  only for partners who observed the same thing.

Every fact, whoever wrote it, passes the same gate (:meth:`Translator.check`):

1. the grammar parses it (syntax errors carry line and column);
2. the domain validates it against the known entities (unknown entities, wrong types such as bread put
   INTO an orange, wrong arity, belief forms no rule allows);
3. scope: the fact is the agent's own belief (a chain starting with the agent; a bare relation is read as
   the agent's belief), of the order asked for, about known partners; reality and other agents' beliefs
   are never written;
4. static facts: a fact contradicting the environment's static facts (a bed placed IN an office it is
   not in, a hallway that does not exist) is rejected with the static fact it contradicts;
5. consistency: two values of one functional fluent, or two stances on one atom, in one update;
6. grounding (LLM facts, when the environment has a ``grounding`` hook): every fact is grounded in the
   observation (the bomb game: only entities the text mentions, a teammate's beliefs only about what it was
   there to see).

Messages are data: they are split out of the text (:meth:`TranslationEnv.split_messages`) before the rules
or the LLM read it, and come back in ``Translation.messages`` for a trust policy
(:func:`belief.llm.messages.receive_message`); the LLM never sees them.

Then the update is applied to the agent's :class:`~belief.logic.store.BeliefStore` all-or-nothing. When the
LLM wrote the facts, every problem is sent back to it verbatim and it gets a bounded number of further
attempts (``max_attempts``); after that :class:`TranslationError` lists the problems and the store is
unchanged.

The other jobs of translation live beside it: :mod:`belief.llm.translation_envs` (environments and their
rule translators, by name), :mod:`belief.llm.prompts` (what is said to the LLM),
:mod:`belief.llm.translator_config` (a translator declared in a file) and :mod:`belief.llm.messages` (messages
are data: their claims go through a trust policy into the hearer's own store only).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterable, Optional, Sequence, Union


from belief.errors import BatchError, BeliefError, BeliefSyntaxError, BeliefTypeError
from belief.logic.formula import Believes, Fact, Formula, Stance, compose, decompose
from belief.grammar import parse_fact
from belief.llm.client import LLMClient, LLMOutputError
from belief.llm.translation_envs import RuleResult, TranslationEnv, get_env
from belief.llm.prompts import FactList, constrained_fact_list, feedback_prompt, observation_prompt

if TYPE_CHECKING:  # the store brings networkx, which translating alone does not need
    from belief.logic.store import BeliefStore


class TranslationError(BeliefError):
    """No valid update could be obtained; ``errors`` lists the problems of the last attempt."""

    def __init__(self, message: str, errors: Sequence[str] = (), attempts: int = 0) -> None:
        self.errors = list(errors)
        self.attempts = attempts
        super().__init__(message)


@dataclass
class Translation:
    """The outcome of one translation (and, with a store, of its all-or-nothing update)."""

    facts: list[Fact] = field(default_factory=list)
    source: str = "rules"  # rules | llm | rules+llm
    attempts: int = 0  # LLM requests made
    history: list[list[str]] = field(default_factory=list)  # problems found at each rejected LLM attempt
    uncovered: list[str] = field(default_factory=list)  # sentences no translator covered
    messages: list[tuple[str, str]] = field(default_factory=list)  # messages found in the text (data)
    applied: bool = False
    usage: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"facts": [str(f) for f in self.facts], "source": self.source, "attempts": self.attempts,
                "rejected": self.history, "uncovered": self.uncovered,
                "messages": [{"sender": s, "text": t} for s, t in self.messages], "applied": self.applied,
                "usage": self.usage}


@dataclass
class Checked:
    facts: list[Fact]
    errors: list[str]


class Translator:
    """Rules first, the LLM when configured; everything checked; updates all-or-nothing."""

    def __init__(self, env: Union[str, TranslationEnv], llm: Optional[LLMClient] = None, *,
                 max_attempts: int = 3, mode: str = "replace", extra_static: Iterable[Fact | str] = (),
                 constrain: bool = False) -> None:
        self.env = get_env(env) if isinstance(env, str) else env
        #: send a regex ``pattern`` for the facts in the JSON schema (grammar-constrained decoding on servers
        #: that honour it, e.g. llama.cpp): only well-formed facts over known entities can be generated
        self.constrain = constrain
        self.domain = self.env.domain
        self.entities = dict(self.env.entities)
        self.llm = llm
        if max_attempts < 1:
            raise BeliefError("max_attempts must be at least 1")
        self.max_attempts = max_attempts
        self.mode = mode
        self.static: list[Fact] = []
        for f in (*self.env.static_facts, *extra_static):
            f = f if isinstance(f, Fact) else Fact.parse(str(f))
            f = self.domain.validate(f, self.entities)
            if f.chain:
                raise BeliefTypeError(f"static fact {f} must be about reality (no BELIEVE)")
            self.static.append(f)
        self._static_atoms = {f.atom: f.stance for f in self.static}
        #: predicates whose every true fact is a static fact (the map's hallways): anything else is false
        self.closed = frozenset(getattr(self.env, "closed_predicates", ()))
        self._static_values = {}
        for f in self.static:
            key = self.domain.functional_key(f.atom)
            if key is not None and f.stance is Stance.BELIEVES:
                self._static_values[key] = f

    @classmethod
    def from_config(cls, config, llm: Optional[LLMClient] = None) -> "Translator":
        """A translator from a :class:`belief.llm.translator_config.TranslatorConfig`."""
        return cls(config.build_env(), llm, max_attempts=config.max_attempts, mode=config.mode)

    @property
    def agents(self) -> list[str]:
        return [n for n, t in self.entities.items() if self.domain.is_subtype(t, "agent")]

    # --- the gate ----------------------------------------------------------------------------------
    def check(self, items: Iterable, agent: str, *, partners: Sequence[str] | None = None,
              order: Optional[int] = None) -> Checked:
        """Parse, validate, scope and cross-check candidate facts for ``agent``; collect every problem.

        ``order`` 0 allows only the agent's own beliefs, 1 only beliefs about ``partners``' beliefs,
        None both. Bare relations are read as the agent's own beliefs.
        """
        agent = self.agent_name(agent)
        partners = [self.agent_name(p) for p in (partners if partners is not None else self.agents)
                    if self.agent_name(p) != agent]
        facts: list[Fact] = []
        errors: list[str] = []
        for i, item in enumerate(items, start=1):
            label = f"fact {i}"
            try:
                if isinstance(item, Fact):
                    fact = item
                elif isinstance(item, Formula):
                    fact = Fact(item)
                else:
                    text = str(item).strip()
                    if not text:
                        errors.append(f"{label}: empty")
                        continue
                    if "\n" in text:
                        errors.append(f"{label} {text!r}: one fact per item, no line breaks")
                        continue
                    fact = parse_fact(text)
            except BeliefSyntaxError as e:
                errors.append(f"{label} {str(item).strip()!r}: syntax error at column {e.column}: {e.message}")
                continue
            except BeliefError as e:
                errors.append(f"{label} {str(item).strip()!r}: {e}")
                continue
            if not fact.chain:
                fact = Fact(Believes(agent, fact.formula), fact.probability)
            try:
                fact = self.domain.validate(fact, self.entities)
            except BeliefTypeError as e:
                errors.append(f"{label}: {e}")
                continue
            chain = fact.chain
            problem = None
            if any(not isinstance(a, str) for a in (*chain, *fact.atom.args)):
                problem = "facts must be ground (no ?variables)"
            elif chain[0] != agent:
                problem = (f"only {agent}'s own beliefs can be written here (a chain starting with {agent}); "
                           f"this fact is about {chain[0]}'s beliefs")
            elif len(chain) > 2:
                problem = "at most first-order facts (agent BELIEVE partner BELIEVE relation)"
            elif len(chain) == 2 and order == 0:
                problem = "zero-order update: write only what the agent itself believes"
            elif len(chain) == 1 and order == 1:
                problem = "first-order update: write only what a partner believes (agent BELIEVE partner BELIEVE ...)"
            elif len(chain) == 2 and chain[1] not in partners:
                problem = f"{chain[1]!r} is not a partner of {agent} (partners: {', '.join(partners) or 'none'})"
            if problem is None:
                problem = self.static_conflict(fact)
            if problem is not None:
                errors.append(f"{label} {fact}: {problem}")
                continue
            facts.append(fact)
        errors.extend(self._batch_conflicts(facts))
        return Checked(facts, errors)

    def agent_name(self, name: str) -> str:
        """An agent's declared spelling (case-insensitive lookup); unknown names come back unchanged."""
        lower = {n.lower(): n for n, t in self.entities.items() if self.domain.is_subtype(t, "agent")}
        return lower.get(str(name).lower(), str(name))

    def static_conflict(self, fact: Fact) -> Optional[str]:
        """Why a fact contradicts the environment's static facts (reality that never changes), or None."""
        atom, stance = fact.atom, fact.stance
        held = self._static_atoms.get(atom)
        if held is not None and stance is not Stance.UNSURE and held is not stance:
            return f"contradicts the static fact {Fact(compose((), held, atom))} (it never changes)"
        if stance is Stance.BELIEVES:
            key = self.domain.functional_key(atom)
            fixed = self._static_values.get(key) if key is not None else None
            if fixed is not None and fixed.atom != atom:
                return (f"{', '.join(map(str, atom.args[:-1]))} is fixed: the static fact {fixed} says so, so "
                        f"{atom.args[-1]!r} cannot be its {atom.pred} value")
        if held is None and stance is Stance.BELIEVES and atom.pred in self.closed:
            return (f"contradicts the static facts: {atom} is not among the known {atom.pred} facts "
                    f"({atom.pred} is closed: every true {atom.pred} fact is static)")
        return None

    def _batch_conflicts(self, facts: list[Fact]) -> list[str]:
        errors = []
        stances: dict = {}
        values: dict = {}
        for f in facts:
            chain, stance, atom = decompose(f.formula)
            prev = stances.get((chain, atom))
            if prev is not None and prev is not stance:
                errors.append(f"contradictory facts in one update: {Fact(compose(chain, prev, atom))} and {f}")
            stances[(chain, atom)] = stance
            key = self.domain.functional_key(atom)
            if key is not None and stance is Stance.BELIEVES:
                other = values.get((chain, key))
                if other is not None and other != atom:
                    errors.append(f"contradictory facts in one update: {Fact(compose(chain, stance, other))} and "
                                  f"{f} ({atom.pred} has one value)")
                values[(chain, key)] = atom
        return errors

    # --- translating -------------------------------------------------------------------------------
    def translate(self, text: str, agent: str, *, partners: Sequence[str] | None = None, order: Optional[int] = None,
                  store=None, use_llm: Optional[bool] = None) -> Translation:
        """Facts for ``agent`` from one observation text; with ``store``, also apply them (all-or-nothing).

        ``use_llm``: True forces the LLM (an error if none is configured), False never uses it, None uses
        the rules and asks the LLM only for sentences the rules do not cover (when an LLM is configured).
        """
        agent = self.agent_name(agent)
        if use_llm and self.llm is None:
            raise TranslationError("the LLM path was requested but no LLM is configured "
                                   "(set OPENAI_BASE_URL and BELIEF_MODEL, or pass --base-url and --model)")
        rules = self.env.rules
        result = Translation()
        text, result.messages = self.env.split_messages(text)  # messages are data: never translated here
        rule_facts: list[Fact] = []
        llm_text = None
        if not use_llm and rules is not None:
            rr: RuleResult = rules.translate(text, agent)
            checked = self.check(rr.facts, agent, partners=partners, order=order)
            if checked.errors:  # the rules themselves produced something invalid: a bug worth reporting
                raise TranslationError("rule translator produced invalid facts: " + "; ".join(checked.errors),
                                       checked.errors)
            rule_facts = checked.facts
            if rr.uncovered:
                if self.llm is not None and use_llm is None:
                    llm_text = " ".join(rr.uncovered)
                else:
                    result.uncovered = list(rr.uncovered)
        elif use_llm or rules is None:
            if self.llm is None:
                result.uncovered = [text]
            else:
                llm_text = text
        if llm_text is None:
            result.facts = rule_facts
            result.source = "rules"
            if store is not None:
                self.apply(store, rule_facts)
                result.applied = True
            return result
        result.source = "llm" if not rule_facts else "rules+llm"
        assert self.llm is not None  # llm_text is set only when an LLM is configured
        return self._llm_loop(self.llm, llm_text, agent, partners, order, store, rule_facts, result, observation=text)

    def update(self, store, text: str, agent: str, **kw) -> Translation:
        """Translate and apply to ``store`` all-or-nothing (see :meth:`translate`)."""
        return self.translate(text, agent, store=store, **kw)

    def apply(self, store, facts: Sequence[Fact]) -> None:
        """Apply a checked batch all-or-nothing (BatchError or a single BeliefError on failure)."""
        store.apply(list(facts), mode=self.mode)

    def _llm_loop(self, llm: LLMClient, text: str, agent: str, partners: Sequence[str] | None, order: Optional[int],
                  store: BeliefStore | None, rule_facts: list[Fact], result: Translation, *,
                  observation: str) -> Translation:
        messages = self.prompt(text, agent, partners=partners, order=order, known=rule_facts)
        grounded = self.env.grounding(observation, agent) if self.env.grounding is not None else None
        errors: list[str] = []
        before = dict(llm.usage.to_json())
        try:
            for attempt in range(1, self.max_attempts + 1):
                result.attempts = attempt
                try:
                    reply = llm.structured(messages, self.reply_schema(agent, partners, order))
                    raw = reply.text
                    checked = self.check(reply.value.facts, agent, partners=partners, order=order)
                    errors = checked.errors
                    if grounded is not None:
                        errors = errors + [f"{f}: {why}" for f in checked.facts if (why := grounded(f))]
                    if not errors:
                        facts = dedupe(rule_facts + checked.facts)
                        errors = self._batch_conflicts(facts)
                    if not errors and store is not None:
                        try:
                            self.apply(store, facts)
                        except BatchError as e:
                            errors = [str(x) for x in e.errors]
                        except BeliefError as e:
                            errors = [str(e)]
                    if not errors:
                        result.facts = facts
                        result.applied = store is not None
                        return result
                except LLMOutputError as e:
                    raw = e.raw
                    errors = list(e.problems)
                result.history.append(list(errors))
                if attempt < self.max_attempts:
                    messages = messages + [
                        {"role": "assistant", "content": raw or "(no usable reply)"},
                        {"role": "user", "content": feedback_prompt(errors)}]
        finally:
            after = llm.usage.to_json()
            result.usage = {k: after[k] - before.get(k, 0) for k in after}
        raise TranslationError(
            f"no valid facts after {result.attempts} attempt(s); store unchanged. Last problems: "
            + "; ".join(errors), errors, result.attempts)

    def reply_schema(self, agent: str, partners: Sequence[str] | None = None, order: Optional[int] = None
                     ) -> type[FactList]:
        """FactList, or (``constrain``) a FactList whose JSON schema carries a regex over the known
        relations and entities. The pattern only shapes generation; validation stays the gate above."""
        if not self.constrain:
            return FactList
        agent = self.agent_name(agent)
        partners = [p for p in (partners if partners is not None else self.agents) if p != agent]
        return constrained_fact_list(agent, partners, domain=self.domain, entities=self.entities, order=order)

    def prompt(self, text: str, agent: str, *, partners: Sequence[str] | None = None, order: Optional[int] = None,
               known: Sequence[Fact] = ()) -> list[dict]:
        """The chat messages for one translation (zero-order, first-order, or both)."""
        agent = self.agent_name(agent)
        partners = [p for p in (partners if partners is not None else self.agents) if p != agent]
        return observation_prompt(text, agent, partners, domain=self.domain, entities=self.entities,
                                  static=self.static, description=self.env.description, order=order, known=known)


def dedupe(facts: Sequence[Fact]) -> list[Fact]:
    """The facts without repeats, in first-seen order."""
    out, seen = [], set()
    for f in facts:
        if f not in seen:
            seen.add(f)
            out.append(f)
    return out


__all__ = ["Checked", "Translation", "TranslationError", "Translator"]
