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
``{"kind": "implies", "if": {"predicate": "in", "values": ["defused"]}, "then": {"predicate": "seq", "values": ["none"]}, "iff": true}``
    a functional link between two fluents of one subject: ``(in, x)`` in the ``if`` values implies ``(seq, x)``
    in the ``then`` values (with ``iff``, and the converse): a defused bomb has no remaining sequence.

:class:`Constraints` propagates per-fluent sets of values not yet ruled out (arc consistency: sound, not
complete) over the fluents bound to the one asked about; :mod:`belief.truth.possible` feeds it each chain's
sets. Pure and world-independent: nothing here knows any game.
"""

from __future__ import annotations

from typing import Iterable, Optional

from belief.errors import QueryError, TraceError

KINDS = ("domain", "inverse", "indicator", "count", "implies")

#: the fields each kind takes: (required, optional)
FIELDS = {
    "domain": ((), ("predicate", "fluents", "values", "initial")),
    "inverse": (("forward", "backward"), ("empty", "outside")),
    "indicator": (("fluent", "indicator"), ("yes", "no")),
    "count": (("value",), ("predicate", "fluents", "at_most", "at_least")),
    "implies": (("if", "then"), ("iff",)),
}

#: the most fluents one constraint group may bind together (knowledge by elimination asks about all of them)
MAX_GROUP = 1024
#: the most values the sets of one propagation may hold in all (fluents x values not yet ruled out)
MAX_CELLS = 16_384
#: the most steps (a fluent or pair of fluents looked at) one propagation may take
MAX_STEPS = 1_000_000
#: after arc consistency, a group whose remaining assignments (the product of its sets) number at most this many
#: is searched exactly: each value kept is one some assignment satisfying every rule gives (a case split)
MAX_WORLDS = 4_096
#: the orders of fluents whose rule checks a :class:`Constraints` keeps (it forgets them all beyond)
CHECKS_KEPT = 1_024
#: knowledge by elimination may take this many steps per truth (one trace or one tracker state), plus
#: :data:`STEPS_PER_EVENT` for each of its events: the work stays proportional to the input
STEPS_BASE = 2_000_000
STEPS_PER_EVENT = 2_000


class Budget:
    """Steps that knowledge by elimination may still take (:data:`STEPS_BASE` + per event); spending more
    raises a QueryError naming the limit and the rules being propagated."""

    __slots__ = ("left", "limit", "events")

    def __init__(self, events: int = 0):
        self.events = events
        self.limit = self.left = STEPS_BASE + STEPS_PER_EVENT * max(events, 0)

    def grow(self, events: int) -> None:
        """The trace grew by ``events`` events (a tracker's live truth, which keeps its memos): a new prefix, with
        the whole budget of its length, as the fresh truth of that prefix would have."""
        self.events += events
        self.limit = self.left = STEPS_BASE + STEPS_PER_EVENT * max(self.events, 0)

    def spend(self, n: int, rules: "Constraints", f: tuple) -> None:
        self.left -= n
        if self.left < 0:
            raise QueryError(f"knowledge by elimination would take more than {self.limit:,} steps for this trace "
                             f"(the limit: {STEPS_BASE:,} + {STEPS_PER_EVENT:,} per event, {self.events:,} "
                             f"events) while propagating {rules.rules_of(f)} over the group of {_show(f)}")


def _show(f: tuple) -> str:
    text = "(" + " ".join(map(str, f)) + ")"
    return text if len(text) <= 80 else text[:77] + "..."


def _fl(x) -> tuple:
    if isinstance(x, str):
        return tuple(x.split())
    return tuple(x)


def _is_name(x) -> bool:
    return isinstance(x, str) and bool(x) and x.isprintable() and not any(c.isspace() for c in x)


class Constraints:
    """Parsed constraint declarations (see the module docstring) with set propagation.

    Every declaration is checked when read (kinds, fields, types: a string where a list of values is expected
    is refused, not read letter by letter), and indicator rules may not form a cycle (``colour`` indicating
    ``colour`` would bind each fluent to ever longer ones); a TraceError names the declaration."""

    def __init__(self, decls: Iterable[dict] = ()):
        if not isinstance(decls, (list, tuple)):
            raise TraceError("constraints must be a list of JSON objects (see docs/logic.md, 'Knowledge by elimination')")
        self.decls = []
        for i, d in enumerate(decls):
            if not isinstance(d, dict):
                raise TraceError(f"constraint {i + 1}: expected a JSON object, got {type(d).__name__}")
            self.decls.append(dict(d))
        self._domain_pred: dict[str, tuple] = {}     # predicate -> (values, initial)
        self._domain_fluent: dict[tuple, tuple] = {}  # fluent -> (values, initial)
        self.inverses: list[tuple] = []               # (forward, backward, empty)
        self._outside: dict[str, frozenset] = {}      # forward predicate -> its values that are not places
        self.indicators: list[tuple] = []             # (fluent pred, indicator pred, yes, no)
        self.counts: list[dict] = []
        #: (if predicate, if values, then predicate, then values, iff) of the implies rules
        self.links: list[tuple[str, frozenset, str, frozenset, bool]] = []
        self._rule_of: dict[str, list] = {}           # predicate -> numbers of the declarations that name it
        for i, d in enumerate(self.decls):
            self._add(d, i)
        self._check_indicator_cycles()
        #: fluent -> :meth:`constrained` (the declarations are fixed once read; asked at every conditional update)
        self._constrained: dict[tuple, bool] = {}
        #: order of a group's fluents -> :meth:`_checks` (the exact pass asks for the same orders again and again)
        self._checks_of: dict[tuple, list] = {}

    # --- reading the declarations ----------------------------------------------------------------
    def _add(self, d: dict, i: int) -> None:
        kind = d.get("kind")
        if not isinstance(kind, str) or kind not in KINDS:
            shown = repr(kind) if len(repr(kind)) <= 40 else repr(kind)[:40] + "..."
            raise TraceError(f"constraint {i + 1}: unknown kind {shown}; expected one of {', '.join(KINDS)}")
        where = f"constraint {i + 1} ({kind!r})"
        required, optional = FIELDS[kind]
        for k in d:
            if k != "kind" and k not in required and k not in optional:
                raise TraceError(f"{where}: unknown field {str(k)[:40]!r}; a {kind} takes "
                                 f"{', '.join(required + optional)}")
        for k in required:
            if k not in d:
                raise TraceError(f"{where}: missing field {k!r}")

        def name(k, default=None):
            v = d.get(k, default)
            if not _is_name(v):
                raise TraceError(f"{where}: {k} must be a name (a non-empty string without spaces), got {_repr(v)}")
            return v

        def names(k, *, empty_ok=True):
            v = d.get(k)
            if isinstance(v, str) or not isinstance(v, (list, tuple)):
                raise TraceError(f"{where}: {k} must be a list of values, not {_repr(v)}")
            if not v and not empty_ok:
                raise TraceError(f"{where}: {k} must not be empty")
            for x in v:
                if not _is_name(x):
                    raise TraceError(f"{where}: {k}: every value must be a name (a non-empty string without "
                                     f"spaces), got {_repr(x)}")
            return tuple(v)

        def fluents():
            v = d.get("fluents")
            if isinstance(v, str) or not isinstance(v, (list, tuple)) or not v:
                raise TraceError(f"{where}: fluents must be a non-empty list of fluents like [\"in\", \"apple\"], "
                                 f"not {_repr(v)}")
            out = []
            for x in v:
                f = _fl(x) if isinstance(x, (str, list, tuple)) else None
                if f is None or len(f) < 2 or not all(_is_name(y) for y in f):
                    raise TraceError(f"{where}: fluents: {_repr(x)} is not a fluent (a predicate and its subject, "
                                     f"like [\"in\", \"apple\"])")
                out.append(f)
            return tuple(out)

        if kind == "domain":
            if "values" not in d:
                raise TraceError(f"{where}: missing field 'values'")
            if "predicate" not in d and "fluents" not in d:
                raise TraceError(f"{where}: give a predicate or fluents")
            values = names("values", empty_ok=False)
            initial = names("initial") if d.get("initial") is not None else ()
            initial = initial or values
            if not set(initial) <= set(values):
                raise TraceError(f"{where}: initial values {sorted(set(initial) - set(values))[:5]} are not in values")
            entry = (frozenset(values), frozenset(initial))
            if "predicate" in d:
                self._domain_pred[name("predicate")] = entry
                self._names(d["predicate"], i)
            if "fluents" in d:
                for f in fluents():
                    self._domain_fluent[f] = entry
                    self._names(f[0], i)
        elif kind == "inverse":
            fw, bw = name("forward"), name("backward")
            if fw == bw:
                raise TraceError(f"{where}: forward and backward must be two predicates, not both {fw!r}")
            self.inverses.append((fw, bw, name("empty", "none")))
            self._outside[fw] = frozenset(names("outside")) if d.get("outside") is not None else frozenset()
            self._names(fw, i)
            self._names(bw, i)
        elif kind == "indicator":
            fp, ip = name("fluent"), name("indicator")
            yes, no = name("yes", "yes"), name("no", "no")
            if fp == ip:
                raise TraceError(f"{where}: the indicator predicate must differ from the fluent's ({fp!r}): "
                                 f"(is, x, v) tells whether (colour, x) = v")
            if yes == no:
                raise TraceError(f"{where}: yes and no must be two values, not both {yes!r}")
            self.indicators.append((fp, ip, yes, no))
            self._names(fp, i)
            self._names(ip, i)
        elif kind == "implies":
            sides = []
            for k in ("if", "then"):
                side = d.get(k)
                if not isinstance(side, dict) or set(side) != {"predicate", "values"}:
                    raise TraceError(f"{where}: {k} must be an object {{\"predicate\": ..., \"values\": [...]}}, "
                                     f"not {_repr(side)}")
                p = side["predicate"]
                if not _is_name(p):
                    raise TraceError(f"{where}: {k}: predicate must be a name (a non-empty string without spaces), "
                                     f"got {_repr(p)}")
                vals = side["values"]
                if isinstance(vals, str) or not isinstance(vals, (list, tuple)) or not vals \
                        or not all(_is_name(x) for x in vals):
                    raise TraceError(f"{where}: {k}: values must be a non-empty list of names, not {_repr(vals)}")
                sides.append((p, frozenset(vals)))
            iff = d.get("iff", False)
            if not isinstance(iff, bool):
                raise TraceError(f"{where}: iff must be true or false, got {_repr(iff)}")
            (fp, fv), (tp, tv) = sides
            if fp == tp:
                raise TraceError(f"{where}: if and then must name two predicates, not both {fp!r}")
            self.links.append((fp, fv, tp, tv, iff))
            self._names(fp, i)
            self._names(tp, i)
        else:  # count
            if "predicate" not in d and "fluents" not in d:
                raise TraceError(f"{where}: give a predicate or fluents")
            bounds = {}
            for k in ("at_most", "at_least"):
                v = d.get(k)
                if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v < 0):
                    raise TraceError(f"{where}: {k} must be a whole number of at least 0, got {_repr(v)}")
                bounds[k] = v
            if bounds["at_most"] is None and bounds["at_least"] is None:
                raise TraceError(f"{where}: give at_most or at_least")
            pred = name("predicate") if "predicate" in d else None
            fams = fluents() if "fluents" in d else None
            self.counts.append({"predicate": pred, "fluents": fams, "value": name("value"), **bounds})
            for p in ([pred] if pred else []) + [f[0] for f in fams or ()]:
                self._names(p, i)

    def _names(self, predicate: str, i: int) -> None:
        rules = self._rule_of.setdefault(predicate, [])
        if not rules or rules[-1] != i:
            rules.append(i)

    def _check_indicator_cycles(self) -> None:
        """Refuse indicator rules whose predicates lead back to themselves (colour -> is -> colour): each
        round would bind a fluent to a longer one, without end."""
        succ: dict = {}
        for fp, ip, _, _ in self.indicators:
            succ.setdefault(fp, []).append(ip)
        state: dict = {}
        for start in succ:
            if start in state:
                continue
            stack = [(start, iter(succ.get(start, ())))]
            state[start] = 1
            path = [start]
            while stack:
                node, it = stack[-1]
                nxt = next(it, None)
                if nxt is None:
                    state[node] = 2
                    stack.pop()
                    path.pop()
                elif state.get(nxt) == 1:
                    cycle = path[path.index(nxt):] + [nxt]
                    raise TraceError(f"{self.rules_of(nxt)}: indicator rules form a cycle "
                                     f"({' -> '.join(cycle)}): a fluent would be bound to ever longer ones")
                elif nxt not in state:
                    state[nxt] = 1
                    path.append(nxt)
                    stack.append((nxt, iter(succ.get(nxt, ()))))

    def rules_of(self, f) -> str:
        """The declarations that name ``f``'s predicate (or the predicate ``f``), for error messages."""
        p = f if isinstance(f, str) else f[0]
        nums = self._rule_of.get(p, ())
        shown = ", ".join(f"{n + 1} ({self.decls[n]['kind']!r})" for n in nums[:4])
        if len(nums) > 4:
            shown += f" and {len(nums) - 4} more"
        return f"constraint {shown}" if nums else "the constraints"

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
        try:
            out = self._constrained.get(f)
        except TypeError:  # a fluent given as a list: answered, not kept
            return self._binds(tuple(f))
        if out is None:
            out = self._constrained[f] = self._binds(f)
        return out

    def _binds(self, f: tuple) -> bool:
        p = f[0]
        return (any(p in (a, b) for a, b, _ in self.inverses) or any(p in (a, b) for a, b, _, _ in self.indicators)
                or any(c["predicate"] == p or (c["fluents"] and f in c["fluents"]) for c in self.counts)
                or any(p in (a, b) for a, _, b, _, _ in self.links)
                or f in self._domain_fluent or p in self._domain_pred)

    # --- the fluents bound to one ----------------------------------------------------------------
    def neighbours(self, f: tuple, known) -> set:
        """Fluents one constraint away from ``f`` (``known``: the fluents the trace mentions, or their
        :class:`Known` index)."""
        known = known if isinstance(known, Known) else Known(known)
        out: set[tuple] = set()
        p = f[0]
        for fw, bw, empty in self.inverses:
            if p == fw and len(f) == 2:
                dom = self.domain(f) or ()
                outside = self._outside.get(fw, frozenset())
                out.update((bw, v) for v in dom if v not in outside)
                out.update(g for g in known.of(bw) if g[1] not in outside)
                out.update(known.of(fw))
            elif p == bw and len(f) == 2:
                out.update(known.of(fw))
                dom = self.domain(f) or ()
                out.update((fw, v) for v in dom if v != empty)
        for fp, ip, yes, no in self.indicators:
            if p == fp:
                out.update((ip, *f[1:], v) for v in (self.domain(f) or ()))
                out.update(known.with_prefix(ip, f[1:]))
            elif p == ip and len(f) >= 3:
                out.add((fp, *f[1:-1]))
        for c in self.counts:
            fam = c["fluents"] or known.of(c["predicate"])
            if f in fam or (c["predicate"] == p and not c["fluents"]):
                out.update(fam)
        for a, _, b, _, _ in self.links:
            if p == a:
                out.add((b, *f[1:]))
            elif p == b:
                out.add((a, *f[1:]))
        out.discard(f)
        return out

    def group(self, f: tuple, known, budget: Optional[Budget] = None) -> list:
        """``f`` and every fluent bound to it, transitively. More than :data:`MAX_GROUP` fluents: a QueryError
        naming the rules that bind them (knowledge by elimination would propagate over all of them)."""
        known = known if isinstance(known, Known) else Known(known)
        seen = {f: None}
        todo = [f]
        while todo:
            g = todo.pop()
            near = self.neighbours(g, known)
            if budget is not None:
                budget.spend(len(near) + 1, self, g)
            for h in near:
                if h not in seen:
                    if len(seen) >= MAX_GROUP:
                        raise QueryError(f"{self.rules_of(g)} bind more than {MAX_GROUP:,} fluents to {_show(f)} "
                                         f"(from {_show(g)} to {_show(h)}, ...): knowledge by elimination is "
                                         f"limited to groups of {MAX_GROUP:,} fluents")
                    seen[h] = None
                    todo.append(h)
        return list(seen)

    # --- propagation -----------------------------------------------------------------------------
    def propagate(self, sets: dict, budget: Optional[Budget] = None) -> dict:
        """Narrow ``sets`` (fluent -> set of values not ruled out; a missing fluent or None is "any") to a
        fixpoint of every constraint. Returns a new dict; a fluent may end with an empty set (a contradiction).

        Bounded: the sets may hold at most :data:`MAX_CELLS` values in all and the propagation take at most
        :data:`MAX_STEPS` steps (and what ``budget`` has left), else a QueryError names the limit and rules."""
        first = next(iter(sets), ("?",))
        cells = 0
        for f, v in sets.items():
            if v is None:
                v = self.domain(f)
            cells += len(v) if v is not None else 1
        if cells > MAX_CELLS:
            raise QueryError(f"{self.rules_of(first)} give the group of {_show(first)} {len(sets):,} fluents with "
                             f"{cells:,} possible values in all: knowledge by elimination is limited to "
                             f"{MAX_CELLS:,} (declare smaller domains)")
        s = {f: (set(v) if v is not None else None) for f, v in sets.items()}
        for f in list(s):
            dom = self.domain(f)
            if dom is not None:
                current = s[f]
                s[f] = set(dom) if current is None else current & dom
        ix = _Sets(s)
        steps = cells
        changed = True
        rounds = 0
        while changed and rounds < 64:
            rounds += 1
            changed = False
            work = [0]
            for fw, bw, empty in self.inverses:
                changed |= self._inverse(s, ix, fw, bw, empty, work)
            for fp, ip, yes, no in self.indicators:
                changed |= self._indicator(s, ix, fp, ip, yes, no, work)
            for c in self.counts:
                changed |= self._count(s, ix, c, work)
            for link in self.links:
                changed |= self._link(s, ix, link, work)
            steps += work[0] + len(s)
            if budget is not None:
                budget.spend(work[0] + len(s), self, first)
            if steps > MAX_STEPS:
                raise QueryError(f"propagating {self.rules_of(first)} over the group of {_show(first)} "
                                 f"({len(s):,} fluents) would take more than {MAX_STEPS:,} steps (the limit of "
                                 f"one propagation)")
        worlds = 1
        for v in s.values():
            if v is None or not v:
                return s  # a fluent that may take any value (no domain), or a contradiction already
            worlds *= len(v)
            if worlds > MAX_WORLDS:
                return s
        if budget is not None:
            budget.spend(worlds * len(s), self, first)
        return self._exact(s)

    # --- the exact pass: every assignment of a small group ------------------------------------------
    def _exact(self, s: dict) -> dict:
        """The values of each fluent that some assignment of the sets satisfying every rule gives (at most
        :data:`MAX_WORLDS` assignments, depth first, each rule checked as soon as its fluents are assigned)."""
        order = sorted(s, key=lambda f: (len(s[f]), f))
        key = tuple(order)
        checks = self._checks_of.get(key)
        if checks is None:
            if len(self._checks_of) >= CHECKS_KEPT:
                self._checks_of.clear()
            checks = self._checks_of[key] = self._checks(order)
        values = [sorted(s[f], key=str) for f in order]
        support: dict = {f: set() for f in order}
        assign: dict = {}

        def walk(k: int) -> None:
            if k == len(order):
                for f, v in assign.items():
                    support[f].add(v)
                return
            f = order[k]
            for v in values[k]:
                assign[f] = v
                if all(ok(assign) for ok in checks[k]):
                    walk(k + 1)
            del assign[f]

        walk(0)
        return support

    def _checks(self, order: list) -> list:
        """Per position of ``order``, the rule checks that become decidable once that fluent is assigned (each
        a function of the assignment so far; a rule over fluents absent from the group is checked on those
        present)."""
        pos = {f: k for k, f in enumerate(order)}
        out: list = [[] for _ in order]

        def at(fluents) -> int:
            return max(pos[f] for f in fluents)

        for fw, bw, empty in self.inverses:
            outside = self._outside.get(fw, frozenset())
            objs = [f for f in order if f[0] == fw and len(f) == 2]
            places = [f for f in order if f[0] == bw and len(f) == 2 and f[1] not in outside]
            for o in objs:
                for p in places:
                    out[at((o, p))].append(_inverse_pair(o, p, empty))
            for i, o in enumerate(objs):
                for o2 in objs[i + 1:]:
                    out[at((o, o2))].append(_one_place_each(o, o2, outside))
        for fp, ip, yes, no in self.indicators:
            for g in order:
                f = (fp, *g[1:-1])
                if g[0] == ip and len(g) >= 3 and f in pos:
                    out[at((f, g))].append(_indicates(f, g, yes))
        for c in self.counts:
            fam = [f for f in (c["fluents"] or [g for g in order if g[0] == c["predicate"]]) if f in pos]
            if fam:
                complete = bool(c["fluents"]) and len(fam) == len(c["fluents"])
                out[at(fam)].append(_counts(fam, c["value"], c["at_most"], c["at_least"] if complete else None))
        for a, avals, b, bvals, iff in self.links:
            for f in order:
                g = (b, *f[1:])
                if f[0] == a and g in pos:
                    out[at((f, g))].append(_implies(f, avals, g, bvals, iff))
        return out

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

    def _inverse(self, s: dict, ix: "_Sets", fw: str, bw: str, empty: str, work: list) -> bool:
        objs = [f for f in ix.of(fw) if len(f) == 2]
        outside = self._outside.get(fw, frozenset())
        places = [f for f in ix.of(bw) if len(f) == 2 and f[1] not in outside]
        changed = False
        place_names = {p[1] for p in places}
        # (place name -> the objects, in order, that may be there): a pair of a place and an object that may not
        # be there, nor named by the place, cannot narrow anything (sets only shrink within a round)
        order = {o: k for k, o in enumerate(objs)}
        at: dict = {}
        for o in objs:
            fo = s[o]
            if fo is not None:
                work[0] += len(fo)
                for v in fo:
                    if v in place_names:
                        at.setdefault(v, []).append(o)
        by_name: dict = {}
        for o in objs:
            by_name.setdefault(o[1], []).append(o)
        work[0] += len(objs) + len(places)
        for p in places:
            bp = s[p]
            if bp is None:
                continue
            cands = at.get(p[1], [])
            named = [o for v in bp for o in by_name.get(v, ()) if s[o] is not None]
            if named:
                cands = sorted(set(cands) | set(named), key=order.__getitem__)
            work[0] += 2 * len(cands) + 3 * len(bp)  # (the candidates, the place's set in may and unnamed)
            for o in cands:
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
            may = {o[1] for o in at.get(p[1], ()) if s[o] is not None and p[1] in s[o]}
            unnamed = [v for v in bp if v != empty and (fw, v) not in s]
            changed |= self._narrow(s, p, may | {empty} | set(unnamed))
        for o in objs:
            fo = s[o]
            if fo is None:
                continue
            work[0] += len(fo)
            # o is at a place that may hold it, or somewhere no place fluent covers (e.g. "defused")
            allowed = {v for v in fo if v not in place_names or o[1] in (s[(bw, v)] or {o[1]})}
            changed |= self._narrow(s, o, allowed)
        return changed

    def _indicator(self, s: dict, ix: "_Sets", fp: str, ip: str, yes: str, no: str, work: list) -> bool:
        changed = False
        for f in ix.of(fp):
            cur = s[f]
            if cur is None:
                continue
            gs = ix.with_prefix(ip, f[1:])
            work[0] += len(gs) + 1
            for g in gs:
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

    def _count(self, s: dict, ix: "_Sets", c: dict, work: list) -> bool:
        fam = [f for f in (c["fluents"] or ix.of(c["predicate"])) if f in s and s[f] is not None]
        work[0] += len(fam)
        v = c["value"]
        sure = [f for f in fam if s[f] == {v}]
        maybe = [f for f in fam if v in s[f]]
        changed = False
        # at_least reasons over every member: only when the rule names them and each has a finite set here
        complete = bool(c["fluents"]) and len(fam) == len(c["fluents"])
        if (c["at_most"] is not None and len(sure) > c["at_most"]) or (
                c["at_least"] is not None and complete and len(maybe) < c["at_least"]):
            for f in fam:  # no assignment satisfies the rule: a contradiction
                changed |= bool(s[f])
                s[f] = set()
            return changed
        if c["at_most"] is not None and len(sure) >= c["at_most"]:
            for f in maybe:
                if s[f] != {v}:
                    changed |= self._narrow(s, f, v)
        if c["at_least"] is not None and len(maybe) <= c["at_least"] and complete:
            for f in maybe:
                changed |= self._narrow(s, f, {v})
        return changed


    def _link(self, s: dict, ix: "_Sets", link: tuple, work: list) -> bool:
        """``(a, x) in A`` implies ``(b, x) in B`` (and, with ``iff``, the converse), for each subject ``x`` whose
        two fluents are both in the propagation."""
        a, avals, b, bvals, iff = link
        changed = False
        for f in ix.of(a):
            g = (b, *f[1:])
            if g not in s:
                continue
            work[0] += 1
            changed |= self._imply(s, f, avals, g, bvals)
            if iff:
                changed |= self._imply(s, g, bvals, f, avals)
        return changed

    def _imply(self, s: dict, f: tuple, avals: set, g: tuple, bvals: set) -> bool:
        """One direction of an implication link on the possible sets ``s``: f is one of A, so g is one of B;
        g is none of B, so f is none of A. Whether a set narrowed."""
        changed = False
        fs, gs = s[f], s[g]
        if fs is not None and fs and fs <= avals:
            if gs is None:
                s[g] = set(bvals)
                changed = True
            else:
                changed |= self._narrow(s, g, bvals)
            gs = s[g]
        if gs is not None and not (gs & bvals) and fs is not None:
            changed |= self._narrow(s, f, fs - avals)
        return changed


def _inverse_pair(o: tuple, p: tuple, empty: str):
    def ok(a: dict) -> bool:  # (in, o) = p iff (contents, p) = o
        return (a[o] == p[1]) == (a[p] == o[1])
    return ok


def _one_place_each(o: tuple, o2: tuple, outside: frozenset):
    def ok(a: dict) -> bool:  # two objects are not in one place (what is outside holds any number)
        return a[o] != a[o2] or a[o] in outside
    return ok


def _indicates(f: tuple, g: tuple, yes: str):
    def ok(a: dict) -> bool:  # (is, x, v) = yes iff (colour, x) = v
        return (a[g] == yes) == (a[f] == g[-1])
    return ok


def _counts(fam: list, value: str, at_most: Optional[int], at_least: Optional[int]):
    def ok(a: dict) -> bool:
        n = sum(1 for f in fam if a[f] == value)
        return (at_most is None or n <= at_most) and (at_least is None or n >= at_least)
    return ok


def _implies(f: tuple, avals: frozenset, g: tuple, bvals: frozenset, iff: bool):
    def ok(a: dict) -> bool:
        return (a[f] not in avals or a[g] in bvals) and (not iff or a[g] not in bvals or a[f] in avals)
    return ok


class Known:
    """Fluents by predicate and by (predicate, subject less its last part), in the order given: what the
    neighbour search and the propagation look up instead of scanning every fluent for each one."""

    __slots__ = ("_by_pred", "_prefix")

    def __init__(self, fluents: Iterable[tuple] = ()):
        self._by_pred: dict = {}
        for g in fluents:
            self._by_pred.setdefault(g[0], []).append(g)
        self._prefix: dict = {}

    def of(self, predicate) -> list:
        return self._by_pred.get(predicate, ())

    def with_prefix(self, predicate: str, prefix: tuple) -> list:
        """The fluents ``(predicate, *prefix, v)``, any ``v``."""
        d = self._prefix.get(predicate)
        if d is None:
            d = self._prefix[predicate] = {}
            for g in self.of(predicate):
                d.setdefault(g[1:-1], []).append(g)
        return d.get(prefix, ())


_Sets = Known  # a propagation's fluents, indexed the same way


def _repr(x) -> str:
    r = repr(x)
    return r if len(r) <= 40 else r[:40] + "..."


def constraints_of(trace, given=None) -> Constraints:
    """The constraints in force for ``trace``: ``given`` (a Constraints or a list of dicts), else the trace's
    ``meta["constraints"]``, else none."""
    if isinstance(given, Constraints):
        return given
    if given is None:
        given = (getattr(trace, "meta", None) or {}).get("constraints") or ()
    return Constraints(given)


__all__ = ["Budget", "Constraints", "Known", "constraints_of", "KINDS", "MAX_CELLS", "MAX_GROUP", "MAX_STEPS", "MAX_WORLDS",
           "STEPS_BASE", "STEPS_PER_EVENT"]
