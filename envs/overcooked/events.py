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
pots and counters out of sight are not seen, so a chef's belief about them can be stale. Every step is
one or more ``action`` events (``tick``) carrying the changed fluents, each seen by the chefs who see the
changed cell before or after (a change two chefs see but who cannot see each other is logged once per
chef, so it does not become common knowledge); a cell coming into sight is an ``observe`` of its fluents.
"""

from __future__ import annotations

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


def setup_events(fluents: dict, positions: dict, fov, source: str = "setup") -> list:
    """The hidden initial state, then what each chef sees of it (jointly under full view)."""
    start = Action(name="setup", effects=tuple(eff(f, v) for f, (v, _) in fluents.items()), visible_to=(),
                   source=source)
    if fov is None:
        return [start, Observe(agents=CHEFS, fluents=tuple(fluents), source=source)]
    out = [start]
    for chef in CHEFS:
        seen = tuple(f for f, (_, where) in fluents.items() if sees(positions[chef], where, fov) or
                     f in (f_at(chef), f_holds(chef)))
        out.append(Observe(agents=(chef,), fluents=seen, source=source))
    return out


def step_events(before: dict, after: dict, pos_before: dict, pos_after: dict, fov, source: str) -> list:
    """The ``tick`` actions of one step: the changed fluents grouped by who saw them change, then what came
    into each chef's sight. ``before``/``after`` are :func:`world_fluents` of the two states."""
    groups: dict[tuple, list] = {}
    for f, (v, where) in after.items():
        old_v, old_where = before[f]
        if v == old_v and where == old_where:
            continue
        watchers = tuple(c for c in CHEFS if f in (f_at(c), f_holds(c)) or
                         sees(pos_before[c], old_where, fov) or sees(pos_after[c], where, fov))
        mutual = fov is None or sees(pos_after["alice"], pos_after["bob"], fov)
        keys = [watchers] if len(watchers) < 2 or mutual else [(c,) for c in watchers]
        for k in keys:
            groups.setdefault(k, []).append(eff(f, v))
    out = [Action(name="tick", effects=tuple(effs), visible_to=k, source=source) for k, effs in groups.items()]
    if fov is not None:
        for chef in CHEFS:
            came = tuple(f for f, (_, where) in after.items() if where is not None and
                         sees(pos_after[chef], where, fov) and not sees(pos_before[chef], where, fov) and
                         f not in (f_at(chef), f_holds(chef)))
            if came:
                out.append(Observe(agents=(chef,), fluents=came, source=source))
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
           "setup_events", "step_events", "intent_event", "announce_event"]
