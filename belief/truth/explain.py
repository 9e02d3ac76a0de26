"""Why a chain holds the value it holds, and whether it knows: the events (and who perceived them) behind it.

``explain(truth, chain, fluent, at)`` returns an :class:`Explanation` with a readable ``text`` and a
JSON-able ``to_dict()``: the update that set the chain's value (event, observers, how), and every later
change of the fluent the chain did *not* follow, each with the reason: a chain agent was absent, was
inattentive (there, but missed it), or does not believe the next agent of the chain perceived it (that one
peeked secretly, or a ``perceived_as`` leaves it out), a conditional update the chain did not draw.
``explain_knows(truth, chain, fluent, at)`` answers "does a1 know that a2 knows ... the fluent's value"
(:meth:`~belief.truth.ground.GroundTruth.knows_chain`) the same way, agent by agent from the innermost.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from belief.truth.checker import GroundTruth, Provenance, fluent_of
from belief.truth.index import UNSURE, is_marker

#: changes not followed listed per explanation by default (the rest are counted: "... N more")
MAX_LISTED = 20


def chain_text(chain: tuple) -> str:
    if not chain:
        return "reality"
    if len(chain) == 1:
        return chain[0]
    return " thinks ".join(chain)


def fluent_text(fluent: tuple) -> str:
    if len(fluent) == 2 and fluent[0] == "in":
        return f"where the {fluent[1]} is"
    if len(fluent) == 2 and fluent[0] == "at":
        return f"where {fluent[1]} is"
    return f"{fluent[0]}({', '.join(fluent[1:])})"


def _ev(p: Provenance) -> str:
    e = p.event
    if e is None:
        return f"t={p.t}"
    src = f" [{e.where()}]" if e.source_line is not None else ""
    return f"t={p.t}{src} {e.describe()}"


def _value(v) -> str:
    return str(v) if is_marker(v) or v is not None else "nowhere"


def reason_text(why: tuple, event) -> str:
    """One line for :meth:`GroundTruth.why_missed`'s reason."""
    reason, a, b = why
    if reason == "absent":
        return f"absent: {a}"
    if reason == "inattentive":
        return f"inattentive: {a} (there, but did not perceive it)"
    if reason == "unaware":
        if event is not None and b in event.secret:
            how = f"{b} perceived it secretly"
        elif event is not None and a in (event.perceived_as or {}):
            believed = ", ".join(event.perceived_as[a]) or "nobody else"
            how = f"perceived_as: {a} believes {believed} perceived it"
        else:
            how = f"{b} was not there"
        return f"{a} does not believe {b} perceived it ({how})"
    if reason == "actor":
        return f"{a}'s own action or message (it knows what it did)"
    if reason == "condition":
        return "a conditional update (given) the chain did not draw"
    return "nobody perceived it"


@dataclass
class Explanation:
    chain: tuple
    fluent: tuple
    at: int
    value: Optional[str]
    known: bool
    set_by: Optional[Provenance]
    #: (Provenance of a later reality change, chain agents absent, the reason the chain did not follow it)
    missed: list = field(default_factory=list)
    policy: str = ""
    whereabouts: dict = field(default_factory=dict)  # agent -> {"at_set": room, "now": room}
    more: int = 0  # changes not followed beyond those listed in ``missed``

    @property
    def text(self) -> str:
        who = chain_text(self.chain)
        lines = []
        if not self.chain:
            if self.set_by is None:
                lines.append(f"{fluent_text(self.fluent)}: no event set it (up to t={self.at})")
            else:
                lines.append(f"reality: {fluent_text(self.fluent)} = {self.value}, set at {_ev(self.set_by)}")
            return "\n".join(lines)
        agents = sorted(set(self.chain))
        if self.set_by is None:
            lines.append(f"{who}: unknown ({fluent_text(self.fluent)}): no event up to t={self.at} was observed "
                         f"by all of {', '.join(agents)} together, and no message set this chain")
        else:
            p = self.set_by
            if p.chain is not None:
                lines.append(f"{who}: {self.value}, set by a message under the {self.policy!r} policy at {_ev(p)}")
            else:
                how = {"seen-on-entering": "seen on entering", "told": "told (shared by sender and recipients)"}.get(
                    p.how, p.how)
                if p.event is not None and p.event.has_perception:
                    lines.append(f"{who}: {self.value}, {how} at {_ev(p)}; perceived by: {', '.join(p.observers)} "
                                 f"(the chain follows who each believes perceived it: {_perception_text(p.event)})")
                else:
                    lines.append(f"{who}: {self.value}, {how} at {_ev(p)}; present: {', '.join(p.observers)} "
                                 f"(includes all of {', '.join(agents)})")
        for p, _absent, reason in self.missed:
            lines.append(f"  not followed: {_ev(p)} -> {_value(p.value)}; {reason}")
        if self.more:
            lines.append(f"  ... {self.more} more change(s) not followed")
        if self.whereabouts:
            lines.append("  whereabouts: " + "; ".join(
                f"{a} in {w.get('at_set') or 'no room'} when set, in {w.get('now') or 'no room'} at t={self.at}"
                if "at_set" in w else f"{a} in {w.get('now') or 'no room'} at t={self.at}"
                for a, w in self.whereabouts.items()))
        return "\n".join(lines)

    def to_dict(self) -> dict:
        return {
            "chain": list(self.chain), "fluent": list(self.fluent), "at": self.at, "value": self.value,
            "known": self.known, "policy": self.policy,
            "set_by": self.set_by.to_dict() if self.set_by else None,
            "not_followed": [dict(p.to_dict(), absent=list(absent), reason=reason)
                             for p, absent, reason in self.missed],
            "not_followed_more": self.more,
            "whereabouts": self.whereabouts,
            "text": self.text,
        }


def _perception_text(ev) -> str:
    parts = []
    if ev.secret:
        parts.append(f"secretly perceived by {', '.join(ev.secret)}")
    if ev.inattentive:
        parts.append(f"missed by {', '.join(ev.inattentive)}")
    for a, agents in (ev.perceived_as or {}).items():
        parts.append(f"{a} believes {', '.join(agents) or 'nobody'} perceived it")
    return "; ".join(parts)


def explain(truth: GroundTruth, chain, fluent, at: Optional[int] = None, *, limit: int = MAX_LISTED) -> Explanation:
    """The update behind ``chain``'s value of ``fluent`` and the later changes it did not follow (at most
    ``limit`` listed, the rest counted in ``more``)."""
    chain = truth.normalize(chain)
    fluent = fluent_of(fluent)
    at = truth.checked_at(at)
    prov = truth.lookup(chain, fluent, at)
    start = prov.t if prov is not None else -1
    missed: list[tuple] = []
    more = 0
    if chain:
        for r in truth.history(fluent):  # reality changes after the setting update that the chain did not follow
            if r.t <= start or r.t > at or (prov is not None and r.t == prov.t):
                continue
            why = truth.why_missed(chain, fluent, r.t)
            if why is None:
                continue
            if len(missed) >= limit:
                more += 1
                continue
            absent = (why[1],) if why[0] == "absent" else ()
            missed.append((r, absent, reason_text(why, r.event)))
    where = {}
    for a in dict.fromkeys(chain):
        w = {"now": truth.location(a, at)}
        if prov is not None:
            w["at_set"] = truth.location(a, prov.t)
        where[a] = w
    return Explanation(chain, fluent, at, prov.value if prov else None, prov is not None, prov, missed,
                       getattr(truth.policy, "name", str(truth.policy)), where, more)


@dataclass
class KnowsExplanation:
    """Whether ``chain`` knows ``fluent`` (:meth:`GroundTruth.knows_chain`), with each inner chain's answer."""

    chain: tuple
    fluent: tuple
    at: int
    knows: bool
    real: Optional[str]
    steps: list  # (inner chain, knows?, what it holds, possible values or None), innermost first
    belief: Explanation

    @property
    def text(self) -> str:
        lines = []
        for inner, knows, held, possible in self.steps:  # the whole chain last: the headline
            holds = "holds nothing" if held is None else (
                "is unsure (a possible change since)" if held is UNSURE else f"holds {_value(held)}")
            elim = f"; values not ruled out: {', '.join(sorted(map(str, possible)))}" if possible is not None else ""
            line = f"{_knows_text(inner, self.fluent)}: {'yes' if knows else 'no'} ({chain_text(inner)} {holds}{elim}"
            lines.append(f"  {line})" if inner != self.chain else f"{line}; the real value: {_value(self.real)})")
        lines.insert(0, lines.pop())
        lines.append(self.belief.text)
        return "\n".join(lines)

    def to_dict(self) -> dict:
        return {"chain": list(self.chain), "fluent": list(self.fluent), "at": self.at, "knows": self.knows,
                "real": self.real,
                "steps": [{"chain": list(c), "knows": k, "holds": None if h is None else _value(h),
                           "possible": None if p is None else sorted(map(str, p))} for c, k, h, p in self.steps],
                "belief": self.belief.to_dict(), "text": self.text}


def _knows_text(chain: tuple, fluent: tuple) -> str:
    if len(chain) == 1:
        return f"{chain[0]} knows {fluent_text(fluent)}"
    return f"{chain[0]} is aware that " + " knows that ".join(chain[1:]) + f" knows {fluent_text(fluent)}"


def explain_knows(truth: GroundTruth, chain, fluent, at: Optional[int] = None, *,
                  limit: int = MAX_LISTED) -> KnowsExplanation:
    """Does ``chain[0]`` know that ``chain[1]`` knows ... the value of ``fluent`` (awareness for two or more
    agents), and why: each inner chain's answer, what it holds, the values the world's rules leave it, and
    the belief explanation of the whole chain (the changes it missed, and why)."""
    chain = truth.normalize(chain)
    fluent = fluent_of(fluent)
    at = truth.checked_at(at)
    steps = []
    for k in range(len(chain) - 1, -1, -1):
        inner = chain[k:]
        p = truth.lookup(inner, fluent, at)
        rules = truth.constraints
        possible = truth.possible(inner, fluent, at) if rules is not None and rules.constrained(fluent) else None
        steps.append((inner, truth.knows_chain(inner, fluent, at), p.value if p is not None else None, possible))
    real = truth.reality(fluent, at)
    return KnowsExplanation(chain, fluent, at, steps[-1][1], real, steps, explain(truth, chain, fluent, at,
                                                                                   limit=limit))


__all__ = ["Explanation", "KnowsExplanation", "MAX_LISTED", "chain_text", "explain", "explain_knows",
           "fluent_text", "reason_text"]
