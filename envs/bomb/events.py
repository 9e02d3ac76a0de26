"""What each agent of the bomb game observes, written as events of the general trace vocabulary.

The ToM truth of every bomb question is the general checker's answer on these events
(:mod:`belief.envs.bomb.tom`); nothing else knows the game's epistemics. Fluents (values are strings):

============================  ==========================================================
``at(agent)``                 ``room_R``: public, every move is seen by everyone
``contents(room_R)``          ``bomb_B`` or ``none`` (bombs not yet defused; one per room)
``in(bomb_B)``                ``room_R`` or ``defused``
``seq(bomb_B)``               remaining sequence ``red,green`` or ``none``
``changed(bomb_B)``           ``yes`` once a phase has been defused, else ``no``
``last_defusal(bomb_B)``      ``turn_K`` of the latest defused phase, or ``never``
``last_defuser(bomb_B)``      who defused that phase, or ``nobody``
============================  ==========================================================

Observation model (the rules of the world, locations, the score and the cutters are public):

* an agent sees the room it is in at the start of its turn and when it arrives there: ``contents`` and
  the bomb's ``in``, witnessed by everyone (locations are public, so teammates know it looked); whoever
  believed a bomb was there and now sees it gone learns that it is defused (a conditional observation);
* an inspection, or a tool that does not match, shows the actor the remaining sequence (private); whoever
  had seen a longer sequence of that bomb learns that it has changed;
* a matching tool changes the bomb; only the actor sees a partial defusal. Teammates see the actor stay
  in the room, so when the actor holds the cutter for the bomb's next phase and the bomb has two or more
  phases left, they see a *possible change* of its sequence (a 1-phase remainder can change only by
  vanishing, which the public score shows; without the cutter nothing can change);
* a full defusal is seen by everyone present, and the public score jump, with the actor's public
  location and one bomb per room, tells everyone that the bomb in that room is gone (and, to whoever
  believed which bomb that was, which bomb);
* messages are broadcast to teammates and delivered at the start of the next round (``announce``, read
  through the trust policy).
"""

from __future__ import annotations

from belief.envs.bomb.world import COLOURS
from belief.truth.trace import Action, Announce, Condition, Content, Effect, Observe, Possible


def room_id(r) -> str:
    return f"room_{r}"


def bomb_id(b) -> str:
    return f"bomb_{b}"


def seq_value(seq) -> str:
    return ",".join(seq) if seq else "none"


def f_at(agent):
    return ("at", agent)


def f_contents(r):
    return ("contents", room_id(r))


def f_in(b):
    return ("in", bomb_id(b))


def f_seq(b):
    return ("seq", bomb_id(b))


def f_changed(b):
    return ("changed", bomb_id(b))


def f_last_defusal(b):
    return ("last_defusal", bomb_id(b))


def f_last_defuser(b):
    return ("last_defuser", bomb_id(b))


def turn_value(k: int) -> str:
    return f"turn_{k}"


def _eff(f, v) -> Effect:
    return Effect(predicate=f[0], subject=f[1:], value=v)


def setup_events(world, source: str) -> list:
    """The initial world (seen by nobody) and the agents' public start locations."""
    effects = []
    for b in world.bombs.values():
        effects += [_eff(f_in(b.id), room_id(b.room)), _eff(f_seq(b.id), seq_value(b.remaining)),
                    _eff(f_changed(b.id), "no"), _eff(f_last_defusal(b.id), "never"),
                    _eff(f_last_defuser(b.id), "nobody")]
    for r in world.map.rooms:
        bomb = world.bomb_in(r)
        effects.append(_eff(f_contents(r), bomb_id(bomb.id) if bomb else "none"))
    agents = tuple(world.agents)
    return [Action(name="setup", effects=tuple(effects), visible_to=(), source=source),
            Action(name="start", effects=tuple(_eff(f_at(a), room_id(world.locations[a])) for a in agents),
                   visible_to=agents, source=source)]


def room_view_events(world, agent: str, room: int, source: str) -> list:
    """``agent`` sees ``room``: what is there, and (for whoever expected them) which bombs are gone."""
    everyone = tuple(world.agents)
    bomb = world.bomb_in(room)
    fluents = [f_contents(room)] + ([f_in(bomb.id)] if bomb else [])
    out = [Observe(agents=(agent,), fluents=tuple(fluents), witnesses=everyone, source=source)]
    for b in world.bombs.values():
        if b.room == room and b.defused:
            out.append(Observe(agents=(agent,), fluents=(f_in(b.id), f_seq(b.id), f_changed(b.id)),
                               witnesses=everyone, given=Condition(fluent=f_in(b.id), values=(room_id(room),)),
                               source=source))
    return out


def cuttable_sequences(cutters) -> tuple:
    """Every remaining sequence of two or three phases whose next phase one of ``cutters`` cuts (a 1-phase
    remainder changes only by vanishing, which the public score shows)."""
    out = []
    for first in COLOURS:
        if first not in cutters:
            continue
        for second in COLOURS:
            out.append(seq_value((first, second)))
            out.extend(seq_value((first, second, third)) for third in COLOURS)
    return tuple(out)


def possible_change_event(world, agent: str, room: int, source: str, turn: int = 0) -> list:
    """Teammates see ``agent`` stay in ``room``: could it have defused a phase nobody else saw?

    Only what they perceive decides: one possible change per bomb of the game, whatever the room really
    holds, each possible only where the bomb may be in ``room`` with a sequence ``agent`` can cut; if it
    happened, the bomb changed at this turn by ``agent`` (so a teammate that later reads a shorter sequence
    can tell when, by elimination).
    """
    cuttable = cuttable_sequences(world.cutters[agent])
    out = []
    for b in sorted(world.bombs):
        fluents = (f_seq(b), f_last_defusal(b), f_last_defuser(b), f_changed(b))
        out.append(Possible(agent=agent, observers=tuple(world.agents), fluents=fluents,
                            values=(None, turn_value(turn), agent, "yes"),
                            given=(Condition(fluent=f_in(b), values=(room_id(room),)),
                                   Condition(fluent=f_seq(b), values=cuttable)), source=source))
    return out


def all_sequences(max_phases: int = 3) -> list:
    """Every remaining sequence of 1..``max_phases`` phases (as ``seq`` values)."""
    out: list = []
    level: list = [()]
    for _ in range(max_phases):
        level = [s + (c,) for s in level for c in COLOURS]
        out.extend(seq_value(s) for s in level)
    return out


def world_constraints(world, max_turns: int) -> list:
    """The game's rules for knowledge by elimination (docs/logic.md): where bombs can be, one bomb per room, and
    the links between a bomb's fluents (a defused bomb is nowhere, has no remaining sequence, and has changed)."""
    rooms = [room_id(r) for r in world.map.rooms]
    bombs = [bomb_id(b) for b in sorted(world.bombs)]
    phases = max((len(b.sequence) for b in world.bombs.values()), default=3)
    return [
        {"kind": "domain", "predicate": "in", "values": rooms + ["defused"], "initial": rooms},
        {"kind": "domain", "predicate": "contents", "values": bombs + ["none"]},
        {"kind": "inverse", "forward": "in", "backward": "contents", "empty": "none", "outside": ["defused"]},
        {"kind": "domain", "predicate": "seq", "values": ["none"] + all_sequences(phases),
         "initial": all_sequences(phases)},
        {"kind": "domain", "predicate": "changed", "values": ["no", "yes"], "initial": ["no"]},
        {"kind": "implies", "if": {"predicate": "in", "values": ["defused"]},
         "then": {"predicate": "seq", "values": ["none"]}, "iff": True},
        {"kind": "implies", "if": {"predicate": "in", "values": ["defused"]},
         "then": {"predicate": "changed", "values": ["yes"]}},
        {"kind": "domain", "predicate": "last_defusal", "values": ["never"] + [turn_value(k) for k in range(max_turns)]},
        {"kind": "domain", "predicate": "last_defuser", "values": ["nobody"] + list(world.agents)},
    ]


def sequence_seen_events(agent: str, bomb, history: list, source: str) -> list:
    """``agent`` reads the remaining sequence; whoever had seen a longer one learns the bomb changed."""
    longer = tuple(dict.fromkeys(seq_value(s) for s in history if len(s) > len(bomb.remaining)))
    out = []
    if longer:
        out.append(Observe(agents=(agent,), fluents=(f_changed(bomb.id),),
                           given=Condition(fluent=f_seq(bomb.id), values=longer), source=source))
    out.append(Observe(agents=(agent,), fluents=(f_seq(bomb.id),), source=source))
    return out


def defusal_events(world, agent: str, outcome, turn: int, source: str, params: dict) -> list:
    """A matching tool: the change itself (seen by the actor, or by everyone present when it vanishes)."""
    b = outcome.bomb
    effects = [_eff(f_seq(b), seq_value(outcome.seq_after)), _eff(f_changed(b), "yes"),
               _eff(f_last_defusal(b), turn_value(turn)), _eff(f_last_defuser(b), agent)]
    if not outcome.vanished:
        return [Action(name="apply", agent=agent, room=room_id(outcome.frm), effects=tuple(effects),
                       visible_to=(agent,), params=params, source=source)]
    effects += [_eff(f_in(b), "defused"), _eff(f_contents(outcome.frm), "none")]
    everyone = tuple(world.agents)
    room = room_id(outcome.frm)
    last_phase = tuple(c for c in world.cutters[agent])
    # the public score jump, with the actor's public location, says that the bomb in its room (whichever it
    # was: one possible change per bomb, never the hidden world's) lost its last phase to the actor; those who
    # saw it or knew which bomb it was rule the others out
    vanished = [Possible(agent=agent, observers=everyone,
                         fluents=(f_in(bb), f_seq(bb), f_changed(bb), f_last_defusal(bb), f_last_defuser(bb)),
                         values=("defused", "none", "yes", turn_value(turn), agent),
                         given=(Condition(fluent=f_in(bb), values=(room,)),
                                Condition(fluent=f_seq(bb), values=last_phase)), source=source)
                for bb in sorted(world.bombs)]
    return [
        Action(name="apply", agent=agent, room=room_id(outcome.frm), effects=tuple(effects),
               visible_to=tuple(outcome.present), params=params, source=source),
        # the public score jump: the bomb in the actor's room is gone (whoever knew it was there learns which;
        # drawn before the room is seen empty, so that knowing by elimination where it was still counts) ...
        Observe(agents=everyone, fluents=(f_in(b), f_seq(b), f_changed(b), f_last_defusal(b), f_last_defuser(b),
                                          f_contents(outcome.frm)),
                given=Condition(fluent=f_in(b), values=(room_id(outcome.frm),)), source=source),
        # ... and to the others, a possible change of each bomb that may have been there
        *vanished,
        Observe(agents=everyone, fluents=(f_contents(outcome.frm),), source=source),
    ]


def message_content(facts: list) -> tuple:
    """The claims of a parsed bomb message as checker content (fluent = value)."""
    out = []

    def add(f, v):
        out.append(Content(predicate=f[0], subject=f[1:], value=v))

    for f in facts:
        kind = f.get("type")
        if kind == "contents":
            bombs = sorted(f.get("bombs", []))
            add(f_contents(f["room"]), ",".join(bomb_id(b) for b in bombs) if bombs else "none")
            for b in bombs:
                add(f_in(b), room_id(f["room"]))
        elif kind == "seq":
            seq = [c for c in f.get("seq", []) if c in COLOURS]
            add(f_seq(f["bomb"]), seq_value(seq))
            if f.get("room") is not None:
                add(f_in(f["bomb"]), room_id(f["room"]))
            if not seq:
                add(f_in(f["bomb"]), "defused")
                add(f_changed(f["bomb"]), "yes")
        elif kind == "defused":
            add(f_changed(f["bomb"]), "yes")
        elif kind == "located":
            add(f_in(f["bomb"]), room_id(f["room"]))
    unique = {}
    for c in out:
        unique.setdefault((c.fluent, c.value), c)
    return tuple(unique.values())


def delivery_event(sender: str, audience, facts: list, source: str, as_of: int | None = None):
    """The delivery of a message posted at event ``as_of`` (its claims were formed then)."""
    content = message_content(facts)
    if not content:
        return None
    return Announce(sender=sender, audience=tuple(audience), content=content, source=source, as_of=as_of)


__all__ = ["world_constraints", "all_sequences", "cuttable_sequences", "setup_events", "room_view_events", "possible_change_event", "sequence_seen_events",
           "defusal_events", "delivery_event", "message_content", "f_at", "f_contents", "f_in", "f_seq",
           "f_changed", "f_last_defusal", "f_last_defuser", "room_id", "bomb_id", "seq_value", "turn_value"]
