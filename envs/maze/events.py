"""What the maze players observe, written as events of the general trace vocabulary.

Fluents (string values):

=====================  ==============================================================
``at(X)``              the room of player or adversary X (``outside`` once escaped)
``door(door_K)``       ``open`` / ``closed``
``status(X)``          ``active``, ``escaped`` or ``caught`` (CollabEscape; public)
``repairs(generator)`` ``0`` .. the repairs needed (CollabEscape; seen in the generator's room)
``gate(exit)``         ``closed`` / ``open`` (CollabEscape; public: the gate is heard opening)
=====================  ==============================================================

Observation model (``Maze.full_view``, the source games' default: every player sees every room, door and
player, and every move and press). Otherwise: the layout and the doors' initial states are public (``layout``); where everyone
starts is seen by nobody (``setup``); a player sees its own room (the states of its doors, who is in it or
behind one of its open doors), jointly with everyone in the room. A move is seen by the mover and by every
player who sees the room it leaves or enters; a button press by the presser and by the players in the two rooms of its door. Messages are
``tell`` events from a player to its partner.

A player always knows where it is, and the rules say so to everyone: at the start and after each of its moves
it looks at its own room (``self_look_event``: it sees ``at(itself)``, every player witnesses that it looked, not
the room), so "Does Bob know where Bob is?" is answered yes from anyone's record, and awareness of it holds at
every order (joint witnessing). Only the player's own room is witnessed: what else it sees depends on where it
is and what is there, which its partner may not know.
"""

from __future__ import annotations

from belief.truth.trace import Action, Content, Effect, Observe, Tell


def f_at(x: str) -> tuple:
    return ("at", x)


def f_door(door: str) -> tuple:
    return ("door", door)


def door_value(is_open: bool) -> str:
    return "open" if is_open else "closed"


def eff(fluent: tuple, value) -> Effect:
    return Effect(predicate=fluent[0], subject=fluent[1:], value=None if value is None else str(value))


def present(maze, room: str, players) -> tuple:
    return tuple(p for p in players if maze.pos.get(p) == room)


def seeing(maze, room: str, players) -> set:
    """The players who see ``room``: those in it or behind one of its open doors."""
    return {p for p in players if maze.pos.get(p) in maze.visible_rooms(room)}


def room_view(maze, room: str, entities) -> tuple:
    """The fluents a player in ``room`` sees: who of ``entities`` is there or behind an open door, and the
    room's doors."""
    rooms = maze.visible_rooms(room)
    doors = sorted(maze.doors) if maze.full_view else maze.room_doors(room)
    return tuple(f_at(e) for e in entities if maze.pos.get(e) in rooms) + tuple(f_door(d) for d in doors)


def view_event(maze, room: str, players, entities, source: str, extra=()):
    """Everyone of ``players`` in ``room`` looks around together (None when nobody is there)."""
    who = tuple(players) if maze.full_view else present(maze, room, players)  # full view: everyone, jointly
    if not who:
        return None
    fluents = room_view(maze, room, entities) + tuple(extra)
    return Observe(agents=who, fluents=fluents, source=source)  # values: the current real ones


def setup_events(maze, players, entities, source: str) -> list:
    """The public layout with the doors' initial states, then the secret starting rooms."""
    layout = Action(name="layout", effects=tuple(eff(f_door(d), door_value(o)) for d, o in maze.open.items()),
                    visible_to=tuple(players), source=source,
                    params={"doors": {d: list(p) for d, p in maze.doors.items()}, "buttons": dict(maze.buttons)})
    start = Action(name="setup", effects=tuple(eff(f_at(e), maze.pos[e]) for e in entities), visible_to=(),
                   source=source)
    return [layout, start]


def self_look_event(player: str, players, source: str):
    """``player`` sees where it is; every one of ``players`` witnesses the look (the rules are public: a player
    always knows its own room), without seeing the room."""
    return Observe(agents=(player,), fluents=(f_at(player),), witnesses=tuple(players), source=source)


def move_event(maze, mover: str, before: str, after: str, players, source: str, *, as_agent: bool = True):
    """``mover`` goes from ``before`` to ``after``: seen by the mover (if a player) and by everyone who sees
    either room (``maze`` is the state after the move)."""
    seen = seeing(maze, before, players) | seeing(maze, after, players)
    if mover in players:
        seen.add(mover)
    return Action(name="move", agent=mover if as_agent else None, params={"who": mover, "from": before, "to": after},
                  effects=(eff(f_at(mover), after),), visible_to=tuple(p for p in players if p in seen), source=source)


def press_event(maze, agent: str, door: str, players, source: str):
    """``agent`` pressed the button of ``door`` (already toggled in ``maze``)."""
    a, b = maze.doors[door]
    seen = {agent} | set(present(maze, a, players)) | set(present(maze, b, players))
    if maze.full_view:
        seen |= set(players)
    return Action(name="press", agent=agent, params={"door": door, "open": maze.open[door]},
                  effects=(eff(f_door(door), door_value(maze.open[door])),),
                  visible_to=tuple(p for p in players if p in seen), source=source)


def tell_event(sender: str, recipient: str, facts: dict, source: str):
    """A message: ``facts`` maps fluent tuples to the values the sender states."""
    content = tuple(Content(predicate=f[0], subject=tuple(f[1:]), value=v) for f, v in facts.items())
    return Tell(sender=sender, recipients=(recipient,), content=content, source=source)


def public_event(name: str, players, effects: dict, source: str, params=None):
    """An event everyone perceives (a capture, a gate opening, a player caught or escaping)."""
    return Action(name=name, effects=tuple(eff(f, v) for f, v in effects.items()), visible_to=tuple(players),
                  params=dict(params or {}), source=source)


__all__ = ["f_at", "f_door", "door_value", "eff", "present", "seeing", "room_view", "view_event", "setup_events",
           "self_look_event", "move_event", "press_event", "tell_event", "public_event"]
