"""What the chefs perceive, written as events of the general trace vocabulary (:mod:`belief.truth.trace`).

Fluents (string values; a cell ``x_y`` is column x, row y of the layout, row 0 at the top):

======================  ==================================================================  ===========
fluent                  values                                                              where
======================  ==================================================================  ===========
``at(chef)``            the chef's cell                                                     the chef
``holds(chef)``         ``nothing``, ``onion``, ``dish``, ``soup``                          the chef
``pot(pot_x_y)``        ``empty``, ``onions_1`` .. ``onions_3`` (not cooking), ``cooking``,  the pot
                        ``ready``
``counter(counter_x_y)`` ``empty``, ``onion``, ``dish``, ``soup``                           the counter
``orders(kitchen)``     the order list, e.g. ``onion_soup`` (public)                        everywhere
``delivered(kitchen)``  soups served so far (public: the score is on the screen)            everywhere
``intent(chef)``        the chef's current subgoal (:data:`SUBGOALS`); only the chef knows   nowhere
                        it, unless it announces it (a ``tell``)
======================  ==================================================================  ===========

Observation model. Full view (``fov=None``, the source's setting): everyone sees every cell, jointly.
Partial view (``fov=k``): a chef sees the cells within k steps (Chebyshev distance) of its own, and itself;
pots and counters out of sight are not seen, so a chef's belief about them can be stale. Sight is symmetric
and the radius is a public rule, so two chefs within k steps of each other see each other and know what the
other sees. Every step is one or more ``action`` events (``tick``) carrying the changed fluents, each seen by
the chefs who see the changed cell before or after (a change two chefs see but who cannot see each other is
logged once per chef, so it does not become common knowledge; the public facts, orders and soups served, are
always seen jointly). Then what the step showed (:func:`sight_events`): while the chefs see each other, a
fluent both see becomes common knowledge between them (one joint ``observe`` when it enters their common
sight), and a fluent only one of them sees is observed by it with the other as *witness* (the other knows it
looked, without seeing the value: "Alice sees Bob next to the counter, so she knows he knows what is on it");
otherwise a cell coming into a chef's sight is an ``observe`` of its fluents by that chef alone.
"""

from __future__ import annotations

from typing import Optional

from belief.truth.trace import Action, Content, Effect, Observe, Tell

CHEFS = ("alice", "bob")
NOTHING = "nothing"
KITCHEN = "kitchen"
#: the subgoals a chef pursues (the belief agent's hypotheses about its partner)
SUBGOALS = ("fetch_onion", "fill_pot", "start_cooking", "fetch_dish", "take_soup", "serve", "pass_item", "wait")


def cell(pos) -> str:
    return f"{pos[0]}_{pos[1]}"


def pos_of(name: str) -> tuple:
    x, y = name.rsplit("_", 2)[-2:]
    return int(x), int(y)


def f_at(chef: str) -> tuple:
    return ("at", chef)


def f_holds(chef: str) -> tuple:
    return ("holds", chef)


def f_pot(pos) -> tuple:
    return ("pot", f"pot_{cell(pos)}")


def f_counter(pos) -> tuple:
    return ("counter", f"counter_{cell(pos)}")


def f_intent(chef: str) -> tuple:
    return ("intent", chef)


F_ORDERS = ("orders", KITCHEN)
F_DELIVERED = ("delivered", KITCHEN)


def pot_value(state, pos) -> str:
    """A pot's contents as one value."""
    if not state.has_object(pos):
        return "empty"
    soup = state.get_object(pos)
    if soup.is_ready:
        return "ready"
    if soup.is_cooking:
        return "cooking"
    return f"onions_{len(soup.ingredients)}"


def held_value(player) -> str:
    return player.get_object().name if player.has_object() else NOTHING


def order_value(mdp) -> str:
    return "+".join(sorted({"_".join(sorted(set(o["ingredients"]))) + "_soup" for o in mdp.start_all_orders}))


def world_fluents(mdp, state, delivered: int) -> dict:
    """Every fluent of the trace with its current value, and the cell it is seen at (None: public)."""
    out = {}
    for chef, p in zip(CHEFS, state.players):
        out[f_at(chef)] = (cell(p.position), p.position)
        out[f_holds(chef)] = (held_value(p), p.position)
    for pos in mdp.get_pot_locations():
        out[f_pot(pos)] = (pot_value(state, pos), pos)
    for pos in mdp.get_counter_locations():
        out[f_counter(pos)] = (state.get_object(pos).name if state.has_object(pos) else "empty", pos)
    out[F_ORDERS] = (order_value(mdp), None)
    out[F_DELIVERED] = (str(delivered), None)
    return out


def sees(viewer_pos, target, fov) -> bool:
    """Does a chef at ``viewer_pos`` see ``target`` (a cell, or None for public facts)?"""
    if fov is None or target is None:
        return True
    return max(abs(viewer_pos[0] - target[0]), abs(viewer_pos[1] - target[1])) <= fov


def eff(fluent: tuple, value: str) -> Effect:
    return Effect(predicate=fluent[0], subject=fluent[1:], value=value)


def _own(chef: str) -> tuple:
    return f_at(chef), f_holds(chef)


def _views(fluents: dict, positions: dict, fov) -> tuple[bool, dict, set, dict]:
    """Who sees what in one state: whether the chefs see each other, each chef's located fluents in sight (its
    own place and hand always), those both see while seeing each other (common), and those only one sees
    while the other sees it (witnessed by the other)."""
    a, b = CHEFS
    mutual = fov is None or sees(positions[a], positions[b], fov)
    seen = {c: {f for f, (_, where) in fluents.items() if where is not None and
                (f in _own(c) or sees(positions[c], where, fov))} for c in CHEFS}
    common = seen[a] & seen[b] if mutual else set()
    witnessed = {c: (seen[c] - common if mutual else set()) for c in CHEFS}
    return mutual, seen, common, witnessed


def _in_order(fluents: dict, chosen: set) -> tuple:
    return tuple(f for f in fluents if f in chosen)


def setup_events(fluents: dict, positions: dict, fov, source: str = "setup") -> list:
    """The hidden initial state, then what each chef sees of it (jointly under full view; under a partial view
    the public facts jointly, then :func:`sight_events` from an empty view)."""
    start = Action(name="setup", effects=tuple(eff(f, v) for f, (v, _) in fluents.items()), visible_to=(),
                   source=source)
    if fov is None:
        return [start, Observe(agents=CHEFS, fluents=tuple(fluents), source=source)]
    public = tuple(f for f, (_, where) in fluents.items() if where is None)
    out: list = [start]
    if public:
        out.append(Observe(agents=CHEFS, fluents=public, source=source))
    return out + sight_events(None, fluents, None, positions, fov, set(), source)


def step_events(before: dict, after: dict, pos_before: dict, pos_after: dict, fov, source: str) -> list:
    """The ``tick`` actions of one step: the changed fluents grouped by who saw them change, then what the step
    showed (:func:`sight_events`). ``before``/``after`` are :func:`world_fluents` of the two states."""
    groups: dict[tuple, list] = {}
    changed = set()
    mutual = fov is None or sees(pos_after["alice"], pos_after["bob"], fov)
    for f, (v, where) in after.items():
        old_v, old_where = before[f]
        if v == old_v and where == old_where:
            continue
        changed.add(f)
        watchers = tuple(c for c in CHEFS if f in _own(c) or
                         sees(pos_before[c], old_where, fov) or sees(pos_after[c], where, fov))
        joint = mutual or where is None  # a public fact (the score) is seen by both, jointly
        keys = [watchers] if len(watchers) < 2 or joint else [(c,) for c in watchers]
        for k in keys:
            groups.setdefault(k, []).append(eff(f, v))
    out: list = [Action(name="tick", effects=tuple(effs), visible_to=k, source=source) for k, effs in groups.items()]
    if fov is not None:
        out += sight_events(before, after, pos_before, pos_after, fov, changed, source)
    return out


def sight_events(before: Optional[dict], after: dict, pos_before: Optional[dict], pos_after: dict, fov,
                 changed: set, source: str) -> list:
    """What a step showed each chef under a partial view (``before`` None: the start, nothing seen yet):

    * a joint ``observe`` of the fluents that entered the chefs' common sight (both see them and each other:
      common knowledge between them, until one changes out of the other's sight);
    * per chef, an ``observe`` witnessed by the other of the fluents only it sees while they see each other, and
      that entered its sight, left their common sight or ``changed`` this step (the other knows it looked);
    * per chef, while they do not see each other, an ``observe`` of the fluents that came into its sight."""
    mutual, seen, common, witnessed = _views(after, pos_after, fov)
    if before is None or pos_before is None:
        seen0: dict = {c: set() for c in CHEFS}
        common0: set = set()
        witnessed0: dict = {c: set() for c in CHEFS}
    else:
        _, seen0, common0, witnessed0 = _views(before, pos_before, fov)
    out: list = []
    joint = common - common0
    if joint:
        out.append(Observe(agents=CHEFS, fluents=_in_order(after, joint), source=source))
    for c in CHEFS:
        known = (witnessed0[c] | common0) - changed  # the other already knows it sees these values
        new = witnessed[c] - known
        if new:
            out.append(Observe(agents=(c,), fluents=_in_order(after, new), witnesses=CHEFS, source=source))
    if not mutual:
        for c in CHEFS:
            came = seen[c] - seen0[c] - (set(_own(c)) if before is not None else set())  # its own: at the start
            if came:
                out.append(Observe(agents=(c,), fluents=_in_order(after, came), source=source))
    return out


def intent_event(chef: str, subgoal: str, source: str) -> Action:
    """``chef`` now pursues ``subgoal``: a fact only it knows."""
    return Action(name="intend", agent=chef, effects=(eff(f_intent(chef), subgoal),), visible_to=(chef,),
                  source=source)


def announce_event(chef: str, partner: str, subgoal: str, source: str) -> Tell:
    """``chef`` tells ``partner`` its subgoal."""
    return Tell(sender=chef, recipients=(partner,), content=(Content(predicate="intent", subject=(chef,),
                                                                     value=subgoal),), source=source)


__all__ = ["CHEFS", "NOTHING", "KITCHEN", "SUBGOALS", "F_ORDERS", "F_DELIVERED", "cell", "pos_of", "f_at", "f_holds",
           "f_pot", "f_counter", "f_intent", "pot_value", "held_value", "order_value", "world_fluents", "sees",
           "setup_events", "step_events", "sight_events", "intent_event", "announce_event"]
