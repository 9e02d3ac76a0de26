"""Knowledge by elimination against a brute-force reference: possible worlds over the declared rules.

The reference replays the small world of :mod:`rules_world` naively (every update kept with who perceived it,
whom each perceiver believes perceived it, who knows of it, its condition, outcome and formation time), and for
a chain at a time:

* each fluent's *base* set from the chain's own records, by the rules of docs/logic.md ("Possible-value sets":
  its latest-formed record, else the initial values; the possible changes it saw since, or any value after a
  change it knows of but did not see; a look by its last agent that its agents observed or witnessed together
  holds what the chain before that agent can tell; other witnessed looks, its own possible changes and
  changes whose condition it rules out count for nothing), scanning the whole history;
* the possible worlds: every assignment of (place, state) to the two objects, with the places' contents and the
  yes/no hints derived from them, that satisfies the rules (one object per place, gone iff done, at most one
  done) and gives each fluent a value of its base set; the possible set is what they give the fluent;
* knowledge and awareness as docs/logic.md states them (records, elimination, belief of the true value, defeat by
  later-formed beliefs, judged consistent by whether a possible world remains).

Compared with the checker on every chain of orders 1-3, every constrained fluent, at every time: the possible set
and whether the chain knows. The checker searches small groups exactly (``MAX_WORLDS``); here the limit is raised so that every group of this world is searched.
"""

from __future__ import annotations

import random
from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from belief.logic import constraints as rules_module
from belief.truth.checker import check


def _sibling(name: str):
    """A module beside this one (the suite imports in importlib mode: no sibling imports by name)."""
    import importlib.util
    from pathlib import Path

    spec = importlib.util.spec_from_file_location(f"_truth_{name}", Path(__file__).with_name(f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


W = _sibling("rules_world")
UNSURE = "<unsure>"
DOMAIN = {"in": W.PLACES + [W.GONE], "contents": W.OBJECTS + ["none"], "state": W.STATES, "is": ["yes", "no"]}
INITIAL = {"in": W.PLACES, "state": ["new"]}


def domain(f) -> frozenset:
    return frozenset(DOMAIN[f[0]])


def initial(f) -> frozenset:
    return frozenset(INITIAL.get(f[0], DOMAIN[f[0]]))


class U:
    """One update of one fluent, naively."""

    def __init__(self, t, e, f, value, how, change, mask, perceivers, views, default, wit, excl, cond, outcome,
                 formed):
        self.t, self.e, self.f, self.value, self.how, self.change = t, e, f, value, how, change
        self.mask, self.P, self.views, self.O, self.W = mask, perceivers, views, default, wit
        self.excl, self.cond, self.outcome, self.formed = excl, cond, outcome, formed
        self.Wt: set = set()  # the event's witnesses (an observe's)

    def follows(self, c) -> bool:
        return all(c[k + 1] in self.views.get(c[k], self.O) for k in range(len(c) - 1))

    def aware(self, c) -> bool:
        """Does it make ``c`` aware that its last agent saw the value? Witnessing is joint: the first agent knows of
        it, each next one is in the previous one's view or a witness (``Wt``), and the last one is in the view of
        the last but one (it saw the value); every agent may be reached or witnessed it."""
        if c[0] not in self.W or not set(c[1:-1]) <= self.mask | self.Wt or c[-1] not in self.mask:
            return False
        for k in range(len(c) - 1):
            view = self.views.get(c[k], self.O)
            if c[k + 1] not in (view | self.Wt if k < len(c) - 2 else view):
                return False
        return True

    def static(self, c) -> bool:
        """Reached, before its condition: every agent may be reached, the first perceived it, each next one is in
        the previous one's view, and it is not the chain's own possible change or message."""
        return set(c) <= self.mask and c[0] in self.P and self.follows(c) and c != (self.excl,)


class Reference:
    def __init__(self, trace, agents):
        self.trace = trace
        self.agents = list(agents)
        self.updates: dict = {f: [] for f in W.FLUENTS}
        self.real: dict = {}
        self.real_hist: dict = {f: [] for f in W.FLUENTS}
        self._base: dict = {}
        self._possible: dict = {}
        self._cond: dict = {}
        for e, ev in enumerate(trace):
            self._step(e, ev)

    # --- the replay ---------------------------------------------------------------------------------------------
    def _model(self, ev, observers: set, group=None) -> tuple:
        """(mask, perceivers, views, default) of an update whose default observers are ``observers``."""
        secret = set(getattr(ev, "secret_observers", None) or ()) | set(getattr(ev, "overheard_by", None) or ())
        inatt = set(ev.inattentive or ())
        pas = ev.perceived_as or {}
        if not secret and not pas and not observers & inatt:
            mask = set(group) if group is not None else set(observers)
            return mask, mask, {}, set(mask)
        perceivers = (observers - inatt) | secret
        views = {s: observers | {s} for s in secret}
        views.update({a: set(v) | {a} for a, v in pas.items()})
        reach = perceivers | observers | set().union(*views.values()) if views else perceivers | observers
        mask = (set(group) & reach) if group is not None else reach
        return mask, perceivers, views, observers

    def _set_real(self, f, v, t, reveal=False) -> bool:
        known = f in self.real
        change = (v != self.real[f]) if known else not reveal
        self.real[f] = v
        self.real_hist[f].append((t, v))
        return change

    def _add(self, t, e, f, value, how, change, model, wit=(), excl=None, cond=None, outcome=None, formed=None):
        mask, perceivers, views, default = model
        w = set(wit) | (mask & perceivers)
        if not w:
            return
        u = U(t, e, f, value, how, change, mask, perceivers, views, default, w, excl, cond, outcome,
              t if formed is None else formed)
        u.Wt = set(wit)
        self.updates[f].append(u)

    def _step(self, e, ev):
        t = e
        k = ev.kind
        if k == "action":
            observers = set(ev.visible_to or ())
            model = self._model(ev, observers)
            for eff in ev.effects:
                f = tuple(eff.fluent)
                ch = self._set_real(f, eff.value, t)
                self._add(t, e, f, eff.value, "seen", ch, model)
        elif k == "observe":
            model = self._model(ev, set(ev.agents))
            cond = ("obs", tuple(ev.given.fluent), frozenset(ev.given.values)) if ev.given else None
            for i, fl in enumerate(ev.fluents):
                f = tuple(fl)
                if ev.values is not None and ev.values[i] is not None:
                    ch = self._set_real(f, ev.values[i], t, reveal=True)
                    v = ev.values[i]
                else:
                    ch, v = False, self.real[f]
                self._add(t, e, f, v, "seen", ch, model, wit=ev.witnesses or (), cond=cond)
        elif k == "possible":
            model = self._model(ev, set(ev.observers))
            cond = ("may", tuple((tuple(c.fluent), frozenset(c.values)) for c in ev.given)) if ev.given else None
            for i, fl in enumerate(ev.fluents):
                out = ev.values[i] if ev.values is not None else None
                self._add(t, e, tuple(fl), UNSURE, "possible", True, model, excl=ev.agent, cond=cond, outcome=out)
        elif k in ("tell", "announce"):
            s = ev.sender
            listeners = [r for r in (ev.recipients if k == "tell" else ev.audience) if r != s]
            hidden = [h for h in (*(ev.secret_observers or ()), *(ev.overheard_by or ())) if h != s and h not in listeners]
            group = {s, *listeners, *hidden}
            model = self._model(ev, {s, *listeners}, group)
            formed = ev.as_of if ev.as_of is not None and ev.as_of < t else t
            for c in ev.content:
                self._add(t, e, tuple(c.fluent), c.value, "told", False, model, excl=s, formed=formed)

    # --- what a chain holds --------------------------------------------------------------------------------------
    def reaches(self, c, u) -> bool:
        return u.static(c) and (u.cond is None or self.cond_ok(c, u))

    def latest(self, c, f, t):
        """The latest update of ``f`` that reached ``c`` at or before ``t`` (the chain's belief)."""
        for u in reversed(self.updates[f]):
            if u.t <= t and self.reaches(c, u):
                return u
        return None

    def cond_ok(self, c, u) -> bool:
        key = (c, id(u))
        if key not in self._cond:
            before = u.t - 1
            if u.cond[0] == "obs":
                _, g, values = u.cond
                ok = self.sure_held(c, g, values, before)
                if not ok and before >= 0:
                    s = self.possible(c, g, before)
                    ok = bool(s) and s <= values
            else:
                ok = all(self.may_hold(c, g, values, before) for g, values in u.cond[1])
            self._cond[key] = ok
        return self._cond[key]

    def sure_held(self, c, g, values, before) -> bool:
        while before >= 0:
            u = self.latest(c, g, before)
            if u is None:
                return False
            if u.value == UNSURE:
                before = u.t - 1
                continue
            return u.value is not None and u.value in values
        return False

    def may_hold(self, c, g, values, before) -> bool:
        u = self.latest(c, g, before) if before >= 0 else None
        if u is not None and isinstance(u.value, str) and u.value != UNSURE:
            return u.value in values
        if before >= 0:
            s = self.possible(c, g, before)
            return bool(s & values)
        return True

    # --- possible sets ---------------------------------------------------------------------------------------------
    def witnessed(self, c, u) -> bool:
        if len(c) < 2 or u.value == UNSURE or set(c[1:]) == {u.excl}:
            return False
        return u.aware(c) and (u.cond is None or self.cond_ok(c, u))

    def base(self, c, g, t):
        key = (c, g, t)
        if key in self._base:
            return self._base[key]
        best_key, best = None, None
        window, unseen = [], []
        for u in reversed([u for u in self.updates[g] if u.t <= t]):
            if best_key is not None and u.t < best_key:
                break
            if not self.reaches(c, u):
                if c == (u.excl,):
                    continue
                if u.change and c[0] in u.W and (u.cond is None or self.cond_ok(c, u)):
                    unseen.append(u.t)
                elif self.witnessed(c, u) and (best_key is None or u.t > best_key):
                    # the last agent saw the real value: the chain holds what the chain before it can tell
                    best_key, best = u.t, self.possible(c[:-1], g, u.t)
                continue
            if u.value == UNSURE:
                window.append(u)
                continue
            if best_key is None or u.formed > best_key:
                best_key, best = u.formed, frozenset((u.value,))
        if best_key is not None:
            if any(x > best_key for x in unseen):
                out = domain(g)
            else:
                window = [u for u in window if u.t > best_key]
                out = self._after(c, g, t, best, window)
        else:
            out = domain(g) if unseen else self._after(c, g, t, initial(g), window)
        self._base[key] = out
        return out

    def _after(self, c, g, t, start, window):
        if not window:
            return start
        if any(u.outcome is None for u in window):
            return domain(g)
        happened = self.happened(c, g, window, t)
        outs = {u.outcome for u in window if happened is None or u.t >= happened}
        if happened is None:
            outs |= start
        return frozenset(outs)

    def happened(self, c, g, window, t):
        """The documented rule: the chain saw another fluent of the same possible changes take a new value, with
        only those changes in between (their earliest then surely happened)."""
        events = {u.e for u in window}
        fluents = set()
        for e in events:
            fluents.update(tuple(f) for f in self.trace[e].fluents)
        best = None
        for h in fluents:
            if h == g:
                continue
            later, between = None, []
            for u in reversed([u for u in self.updates[h] if u.t <= t]):
                if not self.reaches(c, u):
                    continue
                if u.value == UNSURE:
                    if u.e not in events:
                        if later is not None:
                            break
                        continue
                    if later is not None:
                        between.append(u.t)
                    continue
                if u.how == "told":
                    break
                if later is None:
                    later = (u.value, u.t)
                    continue
                if u.value != later[0] and between:
                    best = min(between) if best is None else max(best, min(between))
                break
        return best

    def possible(self, c, f, t):
        key = (c, t)
        if key not in self._possible:
            sets = {g: self.base(c, g, t) & domain(g) for g in W.FLUENTS}
            worlds = _worlds(sets)
            if not worlds:
                self._possible[key] = sets  # the chain's records contradict the rules: no elimination
            else:
                self._possible[key] = {g: frozenset(w[g] for w in worlds) for g in W.FLUENTS}
        return self._possible[key][f]

    # --- knowledge -------------------------------------------------------------------------------------------------
    def reality(self, f, t):
        out = None
        for tt, v in self.real_hist[f]:
            if tt <= t:
                out = v
        return out

    def direct(self, c, f, t) -> bool:
        if len(c) == 1:
            u = self.latest(c, f, t)
            return u is not None and u.value != UNSURE and u.value == self.reality(f, t)
        if not self.knows(c[1:], f, t):
            return False
        rest = set(c[1:])
        for u in reversed([u for u in self.updates[f] if u.t <= t and c[0] in u.W]):
            if rest == {u.excl} and u.value == UNSURE:
                continue
            spoke = u.how == "told" and self.reality(f, u.t) == u.value
            seen = u.aware(c) and (rest != {u.excl} or spoke)
            if seen and (u.cond is None or self.cond_ok(c, u)):
                return u.value != UNSURE
            if u.change and (u.cond is None or self.cond_ok(c, u)):
                return False
        return False

    def looked_since(self, c, f, since, t) -> bool:
        rest = set(c[1:])
        for u in self.updates[f]:
            if since < u.t <= t and u.value != UNSURE and u.how != "told" and rest != {u.excl} and u.aware(c) \
                    and (u.cond is None or self.cond_ok(c, u)):
                return True
        return False

    def believes_otherwise(self, c, f, t) -> bool:
        u = self.latest(c, f, t)
        if u is None or u.value == UNSURE or u.value == self.reality(f, t):
            return False
        return len(c) == 1 or not self.looked_since(c, f, u.t, t)

    def held_formed(self, c, g, t):
        u = self.latest(c, g, t)
        return None if u is None else (u.formed, u.value)

    def defeated(self, c, f, t) -> bool:
        held = {g: self.held_formed(c, g, t) for g in W.FLUENTS}
        p = held[f]
        since = p[0] if p is not None else -1
        batches: dict = {}
        for g, q in held.items():
            if q is not None and isinstance(q[1], str) and q[1] != UNSURE:
                batches.setdefault(q[0], {})[g] = q[1]
        if not any(k > since for k in batches):
            return False
        kept, sets = [], {}
        for when in sorted(batches, reverse=True):
            trial = {**sets, **{g: frozenset((v,)) for g, v in batches[when].items()}}
            if _worlds(trial):
                sets = trial
                kept.append((when, batches[when]))
        later = [b for when, b in kept if when > since]
        if not later:
            return False
        sets = {}
        for b in later:
            sets.update((g, frozenset((v,))) for g, v in b.items())
        sets[f] = frozenset((self.reality(f, t),))
        return not _worlds(sets)

    def knows(self, c, f, t) -> bool:
        if len(c) == 1:
            s = self.possible(c, f, t)
            u = self.latest(c, f, t)
            told_early = u is not None and u.formed != u.t
            kw = (len(s) == 1 and next(iter(s)) == self.reality(f, t)) or (self.direct(c, f, t) and not told_early)
        else:
            s = self.possible(c, f, t)
            kw = self.direct(c, f, t) or (len(s) == 1 and next(iter(s)) == self.reality(f, t)
                                          and self.knows(c[1:], f, t))
        return kw and not self.believes_otherwise(c, f, t) and not self.defeated(c, f, t)


def _worlds(sets: dict) -> list:
    """Every assignment of the world's fluents that satisfies the rules and gives each fluent of ``sets`` a value
    of its set (a fluent absent from ``sets``: any value)."""
    out = []
    for i1, i2, s1, s2 in product(DOMAIN["in"], DOMAIN["in"], DOMAIN["state"], DOMAIN["state"]):
        if i1 == i2 != W.GONE:
            continue  # one object per place
        if (i1 == W.GONE) != (s1 == "done") or (i2 == W.GONE) != (s2 == "done"):
            continue  # gone iff done
        if s1 == s2 == "done":
            continue  # at most one done
        a = {("in", "o1"): i1, ("in", "o2"): i2, ("state", "o1"): s1, ("state", "o2"): s2}
        for p in W.PLACES:
            a[("contents", p)] = "o1" if i1 == p else "o2" if i2 == p else "none"
        for o, i in (("o1", i1), ("o2", i2)):
            for v in W.PLACES + [W.GONE]:
                a[("is", o, v)] = "yes" if i == v else "no"
        if all(s is None or a[f] in s for f, s in sets.items()):
            out.append(a)
    return out


def compare(trace, n_agents: int, cells: list) -> None:
    saved, rules_module.MAX_WORLDS = rules_module.MAX_WORLDS, 10 ** 6
    try:
        _compare(trace, n_agents, cells)
    finally:
        rules_module.MAX_WORLDS = saved


def _compare(trace, n_agents: int, cells: list) -> None:
    agents = W.AGENTS[:n_agents]
    truth = check(trace)
    ref = Reference(trace, agents)
    for t in range(len(trace)):
        for c in W.chains(agents, 3):  # (with three agents: (A, B, C), joint witnessing at order 3)
            for f in W.FLUENTS:
                want = ref.possible(c, f, t)
                got = truth.possible(c, f, at=t)
                assert got == want, (f"t={t} chain={c} fluent={f}: checker {got}, reference {want}\n"
                                     + "\n".join(f"{e.t}: {e.describe()}" for e in trace))
                k_want, k_got = ref.knows(c, f, t), truth.knows_chain(c, f, at=t)
                assert k_got == k_want, (f"t={t} chain={c} fluent={f}: knows {k_got}, reference {k_want}\n"
                                         + "\n".join(f"{e.t}: {e.describe()}" for e in trace))
                cells[0] += 2


@settings(max_examples=25)
@given(steps=W.steps_st, n_agents=st.integers(2, 3))
def test_elimination_matches_the_possible_worlds_reference(steps, n_agents):
    compare(W.build(n_agents, steps), n_agents, [0])


def test_elimination_matches_the_reference_on_100k_cells():
    """Seeded random traces of the rules world, every perception field: at least 100,000 cells (a chain's
    possible set or knowledge of a fluent at a time), none different from the reference."""
    rng = random.Random(28)
    cells = [0]
    traces = 0
    while cells[0] < 100_000:
        n_agents = rng.choice([2, 3])
        steps = [(rng.randrange(W.N_OPS), rng.randrange(8), rng.randrange(8), rng.randrange(256), rng.randrange(256))
                 for _ in range(rng.randint(6, 18))]
        compare(W.build(n_agents, steps), n_agents, cells)
        traces += 1
    print(f"elimination vs possible worlds: {cells[0]} cells on {traces} traces, 0 mismatches")
