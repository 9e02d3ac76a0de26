"""Planning over an agent's beliefs for ``transport_v0``: a unified-planning problem built from the
belief store, solved by pyperplan or fast-downward through UP, with a greedy fallback.

:func:`build_problem` reads the locations of the batch objects from the agent's zero-order chain in
its :class:`belief.logic.store.BeliefStore` (``alice BELIEVE apple_1 IN kitchen_1``), its own room and what
it holds, and writes a STRIPS problem (typed, positive preconditions only, no conditional effects, so
pyperplan accepts it unchanged): rooms, targets, containers, two hands, three slots per container;
actions ``go``, ``grasp_target``, ``grasp_container`` and ``put``; the goal is ``carried(o)`` for the
batch (and ``c_carried(c)`` for a container to fetch). Delivery (one ``transport to bed`` puts everything
carried on the bed) is appended as ``go to <bedroom>, transport to bed``: a batch never exceeds what
the agent can carry, so a single trip to the bed ends every plan.

Classical engines ignore frame costs (pyperplan has no action costs), so :class:`Planner` prices the
engine's plan with the env's cost model and keeps the greedy plan when it is cheaper (both are
recorded in ``stats``).

:class:`Planner` caches plans by the problem's content (the same beliefs give the same plan without a
planner call) and falls back to :func:`greedy_plan` when the engine fails or is unavailable.
fast-downward's subprocess start (~0.15 s) dominates its cost, so it is opt-in (``engine="fast-downward"``).

Determinism: pyperplan is run through up-pyperplan's problem converter with its grounded operators
sorted by name (:func:`_pyperplan_solve`), so the plan, and every benchmark figure after it, is the same
in every process whatever ``PYTHONHASHSEED`` is.
"""

from __future__ import annotations

import time

from belief.errors import missing_extra

ENGINES = ("pyperplan", "fast-downward", "greedy")
HANDS = ("h1", "h2")
SLOTS = ("s1", "s2", "s3")

_UP = None


def _up():
    """Import unified-planning once, silencing its credits banner; without it (the 'plan' extra), a
    MissingExtraError (:class:`Planner` then falls back to the greedy plan)."""
    global _UP
    if _UP is None:
        try:
            import unified_planning.shortcuts as sc
            from unified_planning.engines import PlanGenerationResultStatus
        except ImportError as e:
            raise (missing_extra(e, "planning with unified-planning") or e) from None

        sc.get_environment().credits_stream = None
        _UP = (sc, PlanGenerationResultStatus)
    return _UP


def _name(x: str) -> str:
    return x.replace("-", "_")


def build_problem(room: str, holding: list, contents: dict, locations: dict, bedroom: str, batch: list,
                  containers_to_get: list, deliver: bool):
    """A UP problem: collect ``batch`` (plus ``containers_to_get``) and, if ``deliver``, put every target
    carried on the bed. ``locations`` maps each object not held to its believed room."""
    sc, _ = _up()
    Room, Target, Cont = sc.UserType("Room"), sc.UserType("Target"), sc.UserType("Container")
    Hand, Slot = sc.UserType("Hand"), sc.UserType("Slot")
    B = sc.BoolType()
    at = sc.Fluent("at", B, r=Room)
    bed_room = sc.Fluent("bed_room", B, r=Room)
    t_at = sc.Fluent("t_at", B, o=Target, r=Room)
    c_at = sc.Fluent("c_at", B, c=Cont, r=Room)
    free = sc.Fluent("free", B, h=Hand)
    holds_t = sc.Fluent("holds_t", B, o=Target, h=Hand)
    holds_c = sc.Fluent("holds_c", B, c=Cont, h=Hand)
    in_c = sc.Fluent("in_c", B, o=Target, c=Cont)
    slot_free = sc.Fluent("slot_free", B, c=Cont, s=Slot)
    carried = sc.Fluent("carried", B, o=Target)
    c_carried = sc.Fluent("c_carried", B, c=Cont)

    go = sc.InstantaneousAction("go", a=Room, b=Room)
    a, b = go.parameters
    go.add_precondition(at(a))
    go.add_effect(at(a), False)
    go.add_effect(at(b), True)

    def grasp(name, kind, lies_in, holds, carried_flag):
        """Pick up a thing of type `kind` lying in the agent's room with a free hand."""
        action = sc.InstantaneousAction(name, o=kind, r=Room, h=Hand)
        o, r, h = action.parameters
        action.add_precondition(at(r))
        action.add_precondition(lies_in(o, r))
        action.add_precondition(free(h))
        action.add_effect(lies_in(o, r), False)
        action.add_effect(free(h), False)
        action.add_effect(holds(o, h), True)
        action.add_effect(carried_flag(o), True)
        return action

    gt = grasp("grasp_target", Target, t_at, holds_t, carried)
    gc = grasp("grasp_container", Cont, c_at, holds_c, c_carried)

    put = sc.InstantaneousAction("put", o=Target, c=Cont, h=Hand, hc=Hand, s=Slot)
    o, c, h, hc, s = put.parameters
    put.add_precondition(holds_t(o, h))
    put.add_precondition(holds_c(c, hc))
    put.add_precondition(slot_free(c, s))
    put.add_effect(holds_t(o, h), False)
    put.add_effect(free(h), True)
    put.add_effect(in_c(o, c), True)
    put.add_effect(slot_free(c, s), False)

    p = sc.Problem("transport_beliefs")
    for f in (at, bed_room, t_at, c_at, free, holds_t, holds_c, in_c, slot_free, carried, c_carried):
        p.add_fluent(f, default_initial_value=False)
    for act in (go, gt, gc, put):
        p.add_action(act)
    rooms = {room, bedroom} | {locations[x] for x in (*batch, *containers_to_get)}
    R = {x: sc.Object(_name(x), Room) for x in sorted(rooms)}
    held_t = [x for x in holding if x not in contents]
    held_c = [x for x in holding if x in contents]
    in_held = [t for cc in held_c for t in contents[cc]]
    T = {x: sc.Object(_name(x), Target) for x in sorted({*batch, *held_t, *in_held})}
    C = {x: sc.Object(_name(x), Cont) for x in sorted({*held_c, *containers_to_get})}
    H = {x: sc.Object(x, Hand) for x in HANDS}
    S = {x: sc.Object(x, Slot) for x in SLOTS}
    for d in (R, T, C, H, S):
        p.add_objects(d.values())
    p.set_initial_value(at(R[room]), True)
    p.set_initial_value(bed_room(R[bedroom]), True)
    hands = list(HANDS)
    for x in holding:
        hh = H[hands.pop(0)]
        if x in C:
            p.set_initial_value(holds_c(C[x], hh), True)
            p.set_initial_value(c_carried(C[x]), True)
        else:
            p.set_initial_value(holds_t(T[x], hh), True)
            p.set_initial_value(carried(T[x]), True)
    for hname in hands:
        p.set_initial_value(free(H[hname]), True)
    for cc in C:
        used = contents.get(cc, [])
        for t in used:
            p.set_initial_value(in_c(T[t], C[cc]), True)
            p.set_initial_value(carried(T[t]), True)
        for sname in SLOTS[len(used):]:
            p.set_initial_value(slot_free(C[cc], S[sname]), True)
    for x in batch:
        p.set_initial_value(t_at(T[x], R[locations[x]]), True)
    for x in containers_to_get:
        p.set_initial_value(c_at(C[x], R[locations[x]]), True)
    for x in batch:
        p.add_goal(carried(T[x]))
    for x in containers_to_get:
        p.add_goal(c_carried(C[x]))
    names = {_name(k): k for k in (*R, *T, *C)}
    return p, names


def plan_to_actions(plan, names: dict) -> list[str]:
    """UP action instances -> env action names (drop/unload collapse into one 'transport to bed')."""
    out: list[str] = []
    for ai in plan.actions:
        n = ai.action.name
        args = [names.get(str(x), str(x)) for x in ai.actual_parameters]
        if n == "go":
            out.append(f"go to {args[1]}")
        elif n in ("grasp_target", "grasp_container"):
            out.append(f"grasp {args[0]}")
        elif n == "put":
            out.append(f"put {args[0]} into {args[1]}")
        elif n in ("drop", "unload"):
            if not out or out[-1] != "transport to bed":
                out.append("transport to bed")
    return out


def greedy_plan(room: str, holding: list, contents: dict, locations: dict, bedroom: str, batch: list,
                containers_to_get: list, deliver: bool, dist=None) -> list[str]:
    """The fallback: containers first, then batch objects in nearest-neighbour order, then the bed."""
    dist = dist or (lambda x, y: 0.0 if x == y else 1.0)
    out = []
    here = room
    held = list(holding)
    conts = {c: list(v) for c, v in contents.items()}

    def goto(r):
        nonlocal here
        if r != here:
            out.append(f"go to {r}")
            here = r

    for c in containers_to_get:
        goto(locations[c])
        out.append(f"grasp {c}")
        held.append(c)
        conts[c] = []
    todo = list(batch)
    while todo:
        nxt = min(todo, key=lambda x: (dist(here, locations[x]), x))
        todo.remove(nxt)
        free = [c for c in held if c in conts and len(conts[c]) < 3]
        loose = [x for x in held if x not in conts]
        if free and loose:  # make room first
            out.append(f"put {loose[0]} into {free[0]}")
            held.remove(loose[0])
            conts[free[0]].append(loose[0])
        if len(held) >= 2:
            break
        goto(locations[nxt])
        out.append(f"grasp {nxt}")
        held.append(nxt)
        free = [c for c in held if c in conts and len(conts[c]) < 3]
        if free:
            out.append(f"put {nxt} into {free[0]}")
            held.remove(nxt)
            conts[free[0]].append(nxt)
    if deliver:
        goto(bedroom)
        out.append("transport to bed")
    return out


class Planner:
    """Plans over beliefs with a UP engine, a cache, and the greedy fallback. Counts calls and time."""

    def __init__(self, engine: str = "pyperplan"):
        if engine not in ENGINES:
            raise ValueError(f"unknown planner engine {engine!r}; expected one of {ENGINES}")
        self.engine = engine
        self.cache: dict = {}
        self.stats = {"calls": 0, "cache_hits": 0, "fallbacks": 0, "seconds": 0.0, "greedy_cheaper": 0,
                      "engine_used": 0}

    def plan(self, room, holding, contents, locations, bedroom, batch, containers_to_get, deliver,
             dist=None, price=None) -> list[str]:
        """A plan (env action names). ``dist(a, b)`` orders the greedy plan; ``price(actions, room)``
        (frames) chooses between the engine's plan and the greedy one."""
        key = (room, tuple(holding), tuple(sorted((c, tuple(v)) for c, v in contents.items())),
               tuple(sorted((x, locations[x]) for x in (*batch, *containers_to_get))), bedroom,
               tuple(sorted(batch)), tuple(containers_to_get), deliver)
        hit = self.cache.get(key)
        if hit is not None:
            self.stats["cache_hits"] += 1
            return list(hit)
        args = (room, list(holding), contents, locations, bedroom, list(batch), list(containers_to_get), deliver)
        acts = None
        if self.engine != "greedy":
            t0 = time.perf_counter()
            try:
                acts = solve(*args, engine=self.engine)
            except Exception:  # an engine failure must not stop the agent
                acts = None
            self.stats["calls"] += 1
            self.stats["seconds"] += time.perf_counter() - t0
        greedy = greedy_plan(*args, dist=dist)
        if acts is None:
            if self.engine != "greedy":
                self.stats["fallbacks"] += 1
            acts = greedy
        elif price is not None and price(greedy, room) < price(acts, room):
            self.stats["greedy_cheaper"] += 1
            acts = greedy
        else:
            self.stats["engine_used"] += 1
        if len(self.cache) > 512:
            self.cache.clear()
        self.cache[key] = tuple(acts)
        return list(acts)


def solve(room, holding, contents, locations, bedroom, batch, containers_to_get, deliver,
          engine: str = "pyperplan") -> list[str] | None:
    """Solve the belief-built problem with a real UP engine; None when it finds no plan."""
    sc, Status = _up()
    problem, names = build_problem(room, holding, contents, locations, bedroom, batch, containers_to_get, deliver)
    if engine == "pyperplan":
        plan = _pyperplan_solve(problem)
        if plan is None:
            return None
    else:
        with sc.OneshotPlanner(name=engine) as planner:
            res = planner.solve(problem)
        if res.status not in (Status.SOLVED_SATISFICING, Status.SOLVED_OPTIMALLY) or res.plan is None:
            return None
        plan = res.plan
    acts = plan_to_actions(plan, names)
    return acts + _delivery(acts, room, bedroom) if deliver else acts


def _pyperplan_solve(problem):
    """pyperplan through up-pyperplan's converter (its default search and heuristic: weighted A* with
    h_add), with the grounded operators sorted by name before the search: pyperplan grounds each
    parameter's objects from a ``set`` of strings, so its operator order (the successor order of the
    search, hence which of several equally good plans it returns) would otherwise follow the process's
    string-hash seed (``PYTHONHASHSEED``). None when there is no plan."""
    try:
        import unified_planning.plans as up_plans
        from pyperplan.planner import _ground, _search
        from up_pyperplan.engine import EngineImpl
    except ImportError as e:
        raise (missing_extra(e, "the pyperplan engine") or e) from None

    eng = EngineImpl()
    eng.pyp_types = {}
    task = _ground(eng._convert_problem(eng._convert_domain(problem), problem))
    task.operators.sort(key=lambda op: op.name)
    heuristic = None if eng._heuristic is None else eng._heuristic(task)
    solution = _search(task, eng._search, heuristic)
    if solution is None:
        return None
    return up_plans.SequentialPlan([eng._convert_string_to_action_instance(op.name, problem) for op in solution])


def _delivery(acts: list, room: str, bedroom: str) -> list:
    here = room
    for a in acts:
        if a.startswith("go to "):
            here = a[6:]
    return (["go to " + bedroom] if here != bedroom else []) + ["transport to bed"]


__all__ = ["ENGINES", "Planner", "build_problem", "greedy_plan", "plan_to_actions", "solve"]
