"""Messages are data: what a hearer may take from a teammate's message, through a trust policy.

A message's content is read as *claims about the world* (:func:`message_claims`: plain relations only; a
claim that someone BELIEVEs something is refused), from the environment's own message parser, from
readable facts written in the message, or from the LLM. :func:`receive_message` hands the claims to a
trust policy (:mod:`belief.logic.policies`: ``strict-truthful``, ``hitom``, ``skeptical`` or your own) as a
``tell``/``announce`` event; only the effects on chains that start with the hearer are written, into the
hearer's own store, all-or-nothing. Text inside a message can neither address the translator nor write
another agent's beliefs or the ground truth.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Sequence

from belief.errors import BeliefError, BeliefTypeError
from belief.logic.formula import Atom, Believes, Fact, Stance, compose
from belief.grammar import parse_fact
from belief.llm.client import LLMError
from belief.logic.policies import ChainEffect, GroupEffect, PolicyContext, get_policy
from belief.truth.trace import Announce, Content, Tell
from belief.llm.translate import Translator, dedupe
from belief.llm.prompts import ClaimList, claims_prompt


@dataclass
class Reception:
    """What a hearer took from one message."""

    claims: list[Fact] = field(default_factory=list)  # plain relations the message states
    refused: list[str] = field(default_factory=list)  # content that could not be a claim, with the reason
    facts: list[Fact] = field(default_factory=list)  # what was written into the hearer's store
    policy: str = ""
    applied: bool = False

    def to_json(self) -> dict:
        return {"claims": [str(f) for f in self.claims], "refused": self.refused,
                "facts": [str(f) for f in self.facts], "policy": self.policy, "applied": self.applied}


def message_claims(translator: Translator, text: str, sender: str, *, use_llm: Optional[bool] = None,
                   parse_facts=None) -> tuple[list[Fact], list[str]]:
    """The claims about the world a message makes, and what was refused (with reasons).

    Order of sources: ``parse_facts`` (an environment's own message parser returning readable relations),
    readable facts written literally in the message (one per line or separated by ';'), then the LLM
    (when configured, or forced with ``use_llm=True``). Anything with a BELIEVE/UNSURE chain is refused:
    a message cannot write beliefs; a claim the LLM read that the environment's grounding check finds
    nowhere in the message is refused too.
    """
    candidates: list[str] = []
    refused: list[str] = []
    from_llm = False
    if parse_facts is not None and not use_llm:
        candidates.extend(parse_facts(text))
    if not candidates and not use_llm:
        for piece in [p.strip() for chunk in text.splitlines() for p in chunk.split(";")]:
            if not piece:
                continue
            try:
                parse_fact(piece)
            except BeliefError:
                continue
            candidates.append(piece)
    if not candidates and translator.llm is not None and use_llm is not False:
        msgs = claims_prompt(text, sender, domain=translator.domain, entities=translator.entities)
        try:
            reply = translator.llm.structured(msgs, ClaimList)
            candidates.extend(reply.value.claims)
            from_llm = True
        except LLMError as e:
            refused.append(f"LLM could not read the message: {e}")
    if not candidates and not refused:
        why = "no LLM configured" if translator.llm is None or use_llm is False else "the LLM found none"
        refused.append(f"no claim understood in the message ({why}); nothing taken from it")
    grounding = translator.env.grounding
    grounded = grounding(text, sender) if from_llm and grounding is not None else None
    claims: list[Fact] = []
    for c in candidates:
        try:
            fact = c if isinstance(c, Fact) else parse_fact(str(c))
        except BeliefError as e:
            refused.append(f"{str(c)!r}: not a fact ({one_line_err(e)})")
            continue
        if fact.chain:
            refused.append(f"{fact}: a message states claims about the world; it cannot write anyone's beliefs")
            continue
        if fact.stance is not Stance.BELIEVES:
            refused.append(f"{fact}: only positive claims are passed to the trust policy")
            continue
        try:
            fact = translator.domain.validate(fact, translator.entities)
        except BeliefTypeError as e:
            refused.append(one_line_err(e))
            continue
        problem = translator.static_conflict(fact)
        if problem is not None:
            refused.append(f"{fact}: {problem}")
            continue
        if len(fact.atom.args) < 2:
            refused.append(f"{fact}: a claim needs a subject and a value")
            continue
        ungrounded = grounded(Fact(Believes(translator.agent_name(sender), fact.formula))) if grounded else None
        if ungrounded:  # the LLM read something the message does not say
            refused.append(f"{fact}: {ungrounded}")
            continue
        claims.append(fact)
    return dedupe(claims), refused


def one_line_err(e: BaseException) -> str:
    return " ".join(str(e).split())


class MessageError(BeliefError):
    """A message whose sender, hearer or recipients are not agent names (empty, with spaces, not text)."""


def _check_name(role: str, name) -> None:
    """MessageError unless `name` is a valid agent name (what a trace event would accept), before any parsing."""
    if not isinstance(name, str):
        raise MessageError(f"the message's {role} must be an agent name, got {type(name).__name__}")
    if not name or not name.isprintable() or any(c.isspace() for c in name):
        shown = repr(name) if len(name) <= 40 else repr(name[:40]) + "..."
        raise MessageError(f"the message's {role} {shown} is not an agent name (a name is non-empty, without "
                           f"spaces or control characters)")


def receive_message(store, translator: Translator, hearer: str, sender: str, text: str, *,
                    recipients: Sequence[str] | None = None, public: bool = False, policy="strict-truthful",
                    use_llm: Optional[bool] = None, parse_facts=None, max_depth: int = 2) -> Reception:
    """Let ``hearer`` take what a trust policy allows from ``sender``'s message into its own store.

    The message is data: its claims (plain relations) become a ``tell``/``announce`` event handed to the
    policy (:mod:`belief.logic.policies`); only effects on chains that start with ``hearer`` (up to
    ``max_depth``) are written, into ``store`` (the hearer's), all-or-nothing. Nothing else is touched.
    """
    for role, name in (("hearer", hearer), ("sender", sender), *(("recipient", r) for r in recipients or ())):
        _check_name(role, name)
    hearer = translator.agent_name(hearer)
    sender = translator.agent_name(sender)
    pol = get_policy(policy)
    rec = Reception(policy=getattr(pol, "name", type(pol).__name__))
    claims, refused = message_claims(translator, text, sender, use_llm=use_llm, parse_facts=parse_facts)
    rec.claims, rec.refused = claims, refused
    if not claims:
        return rec
    listeners = tuple(translator.agent_name(r) for r in (recipients or (hearer,)) if r != sender)
    if hearer not in listeners:
        listeners = (*listeners, hearer)
    content = tuple(Content(predicate=c.atom.pred, subject=tuple(map(str, c.atom.args[:-1])),
                            value=str(c.atom.args[-1])) for c in claims)  # claims are ground: names
    event = (Announce(sender=sender, audience=listeners, content=content) if public
             else Tell(sender=sender, recipients=listeners, content=content))
    ctx = PolicyContext(sender=sender, listeners=listeners, public=public, chapter=None)
    out: list[Fact] = []
    for eff in pol.effects(event, ctx):
        if eff.value is None:
            continue
        atom = Atom(eff.fluent[0], (*eff.fluent[1:], eff.value))
        chains: list[tuple] = []
        if isinstance(eff, GroupEffect):
            if hearer in eff.agents:
                if eff.except_solo != hearer:
                    chains.append((hearer,))
                chains.extend((hearer, a) for a in sorted(eff.agents) if a != hearer)
        elif isinstance(eff, ChainEffect):
            if eff.chain and eff.chain[0] == hearer:
                chains.append(tuple(eff.chain))
        for chain in chains:
            if len(chain) <= max_depth:
                out.append(Fact(compose(chain, Stance.BELIEVES, atom)))
    checked = translator.check(out, hearer, order=None)
    if checked.errors:
        rec.refused.extend(checked.errors)
        return rec
    rec.facts = checked.facts
    if store is not None and rec.facts:
        translator.apply(store, rec.facts)
        rec.applied = True
    return rec


__all__ = ["MessageError", "Reception", "message_claims", "one_line_err", "receive_message"]
