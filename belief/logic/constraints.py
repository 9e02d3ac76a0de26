"""World constraints for knowledge by elimination: which values fluents may take, and how fluents bind each other.

A world's rules, declared once (in a trace's ``meta["constraints"]`` or passed to ``check(..., constraints=)``)
as JSON-able dicts. Each kind names fluent *families* by predicate, so one declaration covers every subject:

``{"kind": "domain", "predicate": "in", "values": [...], "initial": [...]}``
    every fluent ``(in, x)`` takes one of ``values``; ``initial`` (optional, a subset) is what it may be
    before anything changed it (bombs start in rooms, none is defused). ``"fluents": [[...], ...]`` instead
    of ``predicate`` names the fluents one by one.
``{"kind": "inverse", "forward": "in", "backward": "contents", "empty": "none", "outside": ["defused"]}``
    ``(in, o) = p`` iff ``(contents, p) = o``: each object is in exactly one place and each place holds at
    most one object (``empty`` is the value of a place that holds none). ``outside`` (optional): values of
    the forward fluent that are not places, so hold any number of objects (a defused bomb is nowhere).
``{"kind": "indicator", "fluent": "colour", "indicator": "is", "yes": "yes", "no": "no"}``
    ``(is, x, v) = yes`` iff ``(colour, x) = v``: a yes/no observation of one value ("this card is not
    red" is ``(is, card_3, red) = no``).
``{"kind": "count", "predicate": "colour", "value": "red", "at_most": 3, "at_least": 0}``
    how many fluents of the family (or ``fluents``) take ``value`` (e.g. cards of a colour in a deck).

:class:`Constraints` propagates per-fluent sets of values not yet ruled out (arc consistency: sound, not
complete) over the fluents bound to the one asked about; :mod:`belief.truth.possible` feeds it each chain's
sets. Pure and world-independent: nothing here knows any game.
"""

from __future__ import annotations

from typing import Iterable, Optional

from belief.errors import TraceError

KINDS = ("domain", "inverse", "indicator", "count")

#: the most fluents one propagation may touch (a guard against a runaway declaration)
MAX_GROUP = 4096


def _fl(x) -> tuple:
    if isinstance(x, str):
        return tuple(x.split())
    return tuple(x)


class Constraints:
    """Parsed constraint declarations (see the module docstring) with set propagation."""

    def __init__(self, decls: Iterable[dict] = ()):
        self.decls = [dict(d) for d in decls]
        self._domain_pred: dict[str, tuple] = {}     # predicate -> (values, initial)
        self._domain_fluent: dict[tuple, tuple] = {}  # fluent -> (values, initial)
        self.inverses: list[tuple] = []               # (forward, backward, empty)
        self._outside: dict[str, frozenset] = {}      # forward predicate -> its values that are not places
        self.indicators: list[tuple] = []             # (fluent pred, indicator pred, yes, no)
        self.counts: list[dict] = []
        for i, d in enumerate(self.decls):
            self._add(d, i)

    def _add(self, d: dict, i: int) -> None:
        kind = d.get("kind")
        where = f"constraint {i + 1} ({kind!r})"
        try:
            if kind == "domain":
                values = tuple(d["values"])
                initial = tuple(d.get("initial") or values)
                if not set(initial) <= set(values):
                    raise TraceError(f"{where}: initial values {sorted(set(initial) - set(values))} are not in values")
                entry = (frozenset(values), frozenset(initial))
                if "predicate" in d:
                    self._domain_pred[d["predicate"]] = entry
                for f in d.get("fluents", ()):
                    self._domain_fluent[_fl(f)] = entry
                if "predicate" not in d and "fluents" not in d:
                    raise TraceError(f"{where}: give a predicate or fluents")
            elif kind == "inverse":
                self.inverses.append((d["forward"], d["backward"], d.get("empty", "none")))
                outside = d.get("outside", ())
                if isinstance(outside, str):
                    raise TraceError(f"{where}: outside must be a list of values, not {outside!r}")
                self._outside[d["forward"]] = frozenset(outside)
            elif kind == "indicator":
                self.indicators.append((d["fluent"], d["indicator"], d.get("yes", "yes"), d.get("no", "no")))
            elif kind == "count":
                if "predicate" not in d and "fluents" not in d:
                    raise TraceError(f"{where}: give a predicate or fluents")
                self.counts.append({"predicate": d.get("predicate"),
                                    "fluents": tuple(_fl(f) for f in d.get("fluents", ())) or None,
                                    "value": d["value"], "at_most": d.get("at_most"), "at_least": d.get("at_least")})
            else:
                raise TraceError(f"{where}: unknown kind; expected one of {', '.join(KINDS)}")
        except KeyError as e:
            raise TraceError(f"{where}: missing field {e.args[0]!r}") from None
        except TypeError as e:
            raise TraceError(f"{where}: {e}") from None

    def __bool__(self) -> bool:
        return bool(self.decls)

    # --- domains ---------------------------------------------------------------------------------
    def domain(self, f: tuple) -> Optional[frozenset]:
        """The values ``f`` may take, or None when no constraint says."""
        e = self._domain_fluent.get(f) or self._domain_pred.get(f[0])
        if e is not None:
            return e[0]
        for fp, ip, yes, no in self.indicators:
            if f[0] == ip and len(f) >= 3:
                return frozenset((yes, no))
        return None

    def initial(self, f: tuple) -> Optional[frozenset]:
        e = self._domain_fluent.get(f) or self._domain_pred.get(f[0])
        return e[1] if e is not None else self.domain(f)

    def constrained(self, f: tuple) -> bool:
        """Is ``f`` bound to other fluents (so that knowing them can tell its value)?"""
        p = f[0]
        return (any(p in (a, b) for a, b, _ in self.inverses) or any(p in (a, b) for a, b, _, _ in self.indicators)
                or any(c["predicate"] == p or (c["fluents"] and f in c["fluents"]) for c in self.counts)
                or f in self._domain_fluent or p in self._domain_pred)

    # --- the fluents bound to one ----------------------------------------------------------------
    def neighbours(self, f: tuple, known: Iterable[tuple]) -> set:
        """Fluents one constraint away from ``f`` (``known``: the fluents the trace mentions)."""
        out = set()
        p = f[0]
        known = tuple(known)
        for fw, bw, empty in self.inverses:
            if p == fw and len(f) == 2:
                dom = self.domain(f) or ()
                outside = self._outside.get(fw, frozenset())
                out.update((bw, v) for v in dom if v not in outside)
                out.update(g for g in known if g[0] == bw and g[1] not in outside)
                out.update(g for g in known if g[0] == fw)
            elif p == bw and len(f) == 2:
                out.update(g for g in known if g[0] == fw)
                dom = self.domain(f) or ()
                out.update((fw, v) for v in dom if v != empty)
        for fp, ip, yes, no in self.indicators:
            if p == fp:
                out.update((ip, *f[1:], v) for v in (self.domain(f) or ()))
                out.update(g for g in known if g[0] == ip and g[1:-1] == f[1:])
            elif p == ip and len(f) >= 3:
                out.add((fp, *f[1:-1]))
        for c in self.counts:
            fam = c["fluents"] or tuple(g for g in known if g[0] == c["predicate"])
            if f in fam or (c["predicate"] == p and not c["fluents"]):
                out.update(fam)
        out.discard(f)
        return out

    def group(self, f: tuple, known: Iterable[tuple]) -> list:
        """``f`` and every fluent bound to it, transitively (at most :data:`MAX_GROUP`)."""
        known = tuple(known)
        seen = {f: None}
        todo = [f]
        while todo and len(seen) < MAX_GROUP:
            g = todo.pop()
            for h in self.neighbours(g, known):
                if h not in seen:
                    seen[h] = None
                    todo.append(h)
        return list(seen)

    # --- propagation -----------------------------------------------------------------------------
    def propagate(self, sets: dict) -> dict:
        """Narrow ``sets`` (fluent -> set of values not ruled out; a missing fluent or None is "any") to a
        fixpoint of every constraint. Returns a new dict; a fluent may end with an empty set (a contradiction)."""
        s = {f: (set(v) if v is not None else None) for f, v in sets.items()}
        for f in list(s):
            dom = self.domain(f)
            if dom is not None:
                s[f] = set(dom) if s[f] is None else s[f] & dom
        changed = True
        rounds = 0
        while changed and rounds < 64:
            rounds += 1
            changed = False
            for fw, bw, empty in self.inverses:
                changed |= self._inverse(s, fw, bw, empty)
            for fp, ip, yes, no in self.indicators:
                changed |= self._indicator(s, fp, ip, yes, no)
            for c in self.counts:
                changed |= self._count(s, c)
        return s

    @staticmethod
    def _narrow(s: dict, f: tuple, allowed) -> bool:
        cur = s.get(f)
        if cur is None:
            return False
        new = cur & allowed if isinstance(allowed, (set, frozenset)) else cur - {allowed}
        if new != cur:
            s[f] = new
            return True
        return False

    def _inverse(self, s: dict, fw: str, bw: str, empty: str) -> bool:
        objs = [f for f in s if f[0] == fw and len(f) == 2]
        outside = self._outside.get(fw, frozenset())
        places = [f for f in s if f[0] == bw and len(f) == 2 and f[1] not in outside]
        changed = False
        place_names = {p[1] for p in places}
        for p in places:
            bp = s[p]
            if bp is None:
                continue
            for o in objs:
                fo = s[o]
                if fo is None:
                    continue
                name = o[1]
                if name not in bp and p[1] in fo:      # the place cannot hold o: o is not there
                    changed |= self._narrow(s, o, p[1])
                if p[1] not in s[o] and name in bp:   # o cannot be there: the place does not hold o
                    changed |= self._narrow(s, p, name)
                    bp = s[p]
                if s[o] == {p[1]} and bp != {name}:    # o is there: the place holds o
                    changed |= self._narrow(s, p, {name})
                    bp = s[p]
            # a place holds one of the objects that may be there, or nothing
            may = {o[1] for o in objs if s[o] is not None and p[1] in s[o]}
            unnamed = [v for v in bp if v != empty and (fw, v) not in s]
            changed |= self._narrow(s, p, may | {empty} | set(unnamed))
        for o in objs:
            fo = s[o]
            if fo is None:
                continue
            # o is at a place that may hold it, or somewhere no place fluent covers (e.g. "defused")
            allowed = {v for v in fo if v not in place_names or o[1] in (s[(bw, v)] or {o[1]})}
            changed |= self._narrow(s, o, allowed)
        return changed

    def _indicator(self, s: dict, fp: str, ip: str, yes: str, no: str) -> bool:
        changed = False
        for f in [f for f in s if f[0] == fp]:
            cur = s[f]
            if cur is None:
                continue
            for g in [g for g in s if g[0] == ip and g[1:-1] == f[1:]]:
                v = g[-1]
                ind = s[g]
                if ind is None:
                    continue
                if ind == {no}:
                    changed |= self._narrow(s, f, v)
                elif ind == {yes}:
                    changed |= self._narrow(s, f, {v})
                cur = s[f]
                if v not in cur:
                    changed |= self._narrow(s, g, {no})
                elif cur == {v}:
                    changed |= self._narrow(s, g, {yes})
        return changed

    def _count(self, s: dict, c: dict) -> bool:
        fam = [f for f in (c["fluents"] or [f for f in s if f[0] == c["predicate"]]) if f in s and s[f] is not None]
        v = c["value"]
        sure = [f for f in fam if s[f] == {v}]
        maybe = [f for f in fam if v in s[f]]
        changed = False
        if c["at_most"] is not None and len(sure) >= c["at_most"]:
            for f in maybe:
                if s[f] != {v}:
                    changed |= self._narrow(s, f, v)
        if c["at_least"] is not None and len(maybe) <= c["at_least"] and c["fluents"]:
            for f in maybe:
                changed |= self._narrow(s, f, {v})
        return changed


def constraints_of(trace, given=None) -> Constraints:
    """The constraints in force for ``trace``: ``given`` (a Constraints or a list of dicts), else the trace's
    ``meta["constraints"]``, else none."""
    if isinstance(given, Constraints):
        return given
    if given is None:
        given = (getattr(trace, "meta", None) or {}).get("constraints") or ()
    if not isinstance(given, (list, tuple)) or not all(isinstance(d, dict) for d in given):
        raise TraceError("constraints must be a list of JSON objects (see docs/logic.md, 'Knowledge by elimination')")
    return Constraints(given)


__all__ = ["Constraints", "constraints_of", "KINDS", "MAX_GROUP"]
