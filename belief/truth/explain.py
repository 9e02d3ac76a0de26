"""Why a chain holds the value it holds: the events (and who was present) that justify an answer.

``explain(truth, chain, fluent, at)`` returns an :class:`Explanation` with a readable ``text`` and a
JSON-able ``to_dict()``: the update that set the chain's value (event, observers, how), and every later
change of the fluent the chain did *not* follow, with the chain agents who were absent.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from belief.truth.checker import GroundTruth, Provenance, fluent_of


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
    src = f" [{e.where()}]" if e.source_line is not None else ""
    return f"t={p.t}{src} {e.describe()}"


@dataclass
class Explanation:
    chain: tuple
    fluent: tuple
    at: int
    value: Optional[str]
    known: bool
    set_by: Optional[Provenance]
    missed: list = field(default_factory=list)   # (Provenance of a later reality change, absent chain agents)
    policy: str = ""
    whereabouts: dict = field(default_factory=dict)  # agent -> {"at_set": room, "now": room}

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
        for p, absent in self.missed:
            lines.append(f"  not followed: {_ev(p)} -> {p.value}; absent: {', '.join(absent) or '-'}")
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
            "not_followed": [dict(p.to_dict(), absent=list(absent)) for p, absent in self.missed],
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


def explain(truth: GroundTruth, chain, fluent, at: Optional[int] = None) -> Explanation:
    chain = truth.normalize(chain)
    fluent = fluent_of(fluent)
    at = truth.checked_at(at)
    prov = truth.lookup(chain, fluent, at)
    start = prov.t if prov is not None else -1
    missed = []
    if chain:
        need = set(chain)
        seen_events = {}
        for u in truth.updates_of(fluent, start, at):
            seen_events.setdefault(u.event.t, set()).update(u.observers)
        # reality changes after the setting update that the chain did not follow
        for r in truth.history(fluent):
            if r.t <= start or r.t > at:
                continue
            if prov is not None and r.t == prov.t:
                continue
            observers = seen_events.get(r.event.t, set())
            absent = tuple(sorted(need - observers))
            if absent:
                missed.append((Provenance(r.t, r.value, r.event, r.how, tuple(sorted(observers))), absent))
    where = {}
    for a in dict.fromkeys(chain):
        w = {"now": truth.location(a, at)}
        if prov is not None:
            w["at_set"] = truth.location(a, prov.t)
        where[a] = w
    return Explanation(chain, fluent, at, prov.value if prov else None, prov is not None, prov, missed,
                       getattr(truth.policy, "name", str(truth.policy)), where)


__all__ = ["Explanation", "chain_text", "explain", "fluent_text"]
