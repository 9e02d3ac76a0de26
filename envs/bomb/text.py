"""Text interface of the bomb game: free-text actions and messages in, grounded actions and facts out.

An LLM (or a person) answers each turn with an action and, optionally, a message::

    Move to Room 5
    Message: Room 3 has Bomb 2, its sequence is red, green.

:func:`parse_action` grounds the action into the env's Discrete action index (or reports why it
cannot); :meth:`TextInterface.step` sends it to the env, which answers invalid actions with the
study's error feedback ("You can not directly move to Room 8 because it is not adjacent to your
current location, Room 3. Consider taking a detour ...").

:func:`parse_message_facts` reads the facts a message states (room contents, a bomb's remaining
sequence, a defused bomb or phase); the env records them in the global trace, where the ToM
checker treats them as believed by every teammate (:mod:`belief.envs.bomb.tom`). The ``fmt_*``
helpers write facts in a form this parser reads back exactly. :func:`format_messages` writes the
messages line of an observation with every text quoted as a JSON string, so no message can speak as
another agent or leave the line (:meth:`belief.envs.bomb.translation.BombRules.split_messages` reads it back).

Every parser here runs in linear time on any input (a 10 KB message once took 37 s): whitespace runs
are collapsed first, quantifiers are possessive where backtracking could repeat, and the action
patterns look for their keyword once and then for its argument once.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from belief.envs.bomb.world import COLOURS, action_table, bomb_name, room_name, unrecognised_feedback

_MSG_SPLIT = re.compile(r"(?is)(?:^|\n|[.;]\s*+|\s)(?:message|msg|say|send message|tell (?:the )?team)"
                        r"\s*+[:\-]\s*+(.*)$")
_MOVE_WORD = re.compile(r"(?i)\b(?:move|go|walk|head|navigate|proceed|travel|return|enter)\b")
_INSPECT_WORD = re.compile(r"(?i)\b(?:inspect|examine|check|look\s++at|investigate)\b")
_APPLY_WORD = re.compile(r"(?i)\b(?:apply|use|cut|defuse)\b")
_ROOM_ARG = re.compile(r"(?i)\broom\s*+#?+\s*+(\d+)")
_BOMB_ARG = re.compile(r"(?i)\bbomb\s*+#?+\s*+(\d+)")
_COLOUR_ARG = re.compile(r"(?i)\b(red|green|blue)\b")


@dataclass
class ParsedAction:
    """A grounded action: `action` is the Discrete index (None when unparseable); `error` says why not."""

    action: int | None
    message: str = ""
    error: str | None = None
    kind: str | None = None
    bomb: int | None = None
    text: str = ""


def format_messages(messages) -> str:
    """The observation's messages line: ``Messages: Bravo: "..." Charlie: "..."`` (or ``Messages: none.``).

    Each text has its whitespace collapsed and is written as a JSON string (quotes and backslashes
    escaped), so a message containing ``" Charlie: "`` or a line break stays inside its own quotes."""
    if not messages:
        return "Messages: none."
    return "Messages: " + " ".join(
        f"{m['sender'].capitalize()}: {json.dumps(' '.join(str(m['text']).split()), ensure_ascii=False)}"
        for m in messages)


def split_message(text: str) -> tuple[str, str]:
    """(action part, message part) of a free-text turn."""
    text = (text or "").strip()
    m = _MSG_SPLIT.search(text)
    if not m:
        return text, ""
    msg = m.group(1).strip().strip('"').strip()
    return text[:m.start()].strip(), msg


def parse_action(text: str, rooms) -> ParsedAction:
    """Ground a free-text action ("Move to Room 5", "Inspect Bomb", "Apply Red Tool") plus message."""
    action_part, message = split_message(text)
    table = action_table(rooms)
    index = {entry: i for i, entry in enumerate(table)}
    s = re.sub(r"(?i)^\s*(?:action|my action|i will|i'll|next action)\s*[:\-]?\s*", "", action_part)
    first = s.strip().splitlines()[0] if s.strip() else ""
    candidates = []
    for kind, found in (("move", _find_move(first)), ("apply", _find_apply(first)), ("inspect", _find_inspect(first))):
        if found is not None:
            candidates.append((found[0], kind, found[1:]))
    if not candidates:
        return ParsedAction(None, message, unrecognised_feedback(first or None), text=first)
    _, kind, args = min(candidates, key=lambda c: c[0])
    if kind == "move":
        room = int(args[0])
        if room not in rooms:
            listed = ", ".join(str(r) for r in rooms[:-1]) + f" and {rooms[-1]}"
            return ParsedAction(None, message, f"There is no {room_name(room)}. The rooms are Room {listed}.",
                                kind="move", text=first)
        return ParsedAction(index[("move", room)], message, kind="move", text=first)
    if kind == "inspect":
        bomb = int(args[0]) if args[0] else None
        return ParsedAction(index[("inspect", None)], message, kind="inspect", bomb=bomb, text=first)
    colour = args[0].lower()
    bomb = int(args[1]) if args[1] else None
    return ParsedAction(index[("apply", colour)], message, kind="apply", bomb=bomb, text=first)


# Each action is a keyword followed, on the same line, by its argument. Only the first keyword can match
# (a later keyword sees a suffix of the same line), so each is one search for the keyword and one for the
# argument: linear, where a single lazy regex retried the scan from every repeated keyword.
def _after(word: re.Pattern, line: str):
    m = word.search(line)
    return (m.start(), m.end()) if m else None


def _find_move(line: str):
    """(start, room) of 'move/go/... room N', or None."""
    at = _after(_MOVE_WORD, line)
    room = _ROOM_ARG.search(line, at[1]) if at else None
    return (at[0], room.group(1)) if room else None


def _find_inspect(line: str):
    """(start, bomb or None) of 'inspect/examine/... [bomb N]', or None."""
    at = _after(_INSPECT_WORD, line)
    if at is None:
        return None
    bomb = _BOMB_ARG.search(line, at[1])
    return at[0], bomb.group(1) if bomb else None


def _find_apply(line: str):
    """(start, colour, bomb or None) of 'apply/use/cut/defuse ... red|green|blue [... bomb N]', or None."""
    at = _after(_APPLY_WORD, line)
    colour = _COLOUR_ARG.search(line, at[1]) if at else None
    if colour is None:
        return None
    bomb = _BOMB_ARG.search(line, colour.end())
    return at[0], colour.group(1), bomb.group(1) if bomb else None


class TextInterface:
    """Drives a :class:`belief.envs.bomb.environment.raw_env` with free text for the current agent."""

    def __init__(self, env):
        self.env = env.unwrapped if hasattr(env, "unwrapped") else env

    def encode(self, text: str) -> ParsedAction:
        env = self.env
        parsed = parse_action(text, env.world.map.rooms)
        agent = env.agent_selection
        if parsed.action is not None and parsed.bomb is not None:
            here = env.world.locations[agent]
            bomb = env.world.bomb_in(here)
            if bomb is None or bomb.id != parsed.bomb:
                parsed.error = (f"{bomb_name(parsed.bomb)} is not in your current location, {room_name(here)}. "
                                f"You can only act on a bomb in the room you are in.")
                parsed.action = None
        return parsed

    def step(self, text: str) -> ParsedAction:
        """Parse `text`, post its message, step the env; the feedback lands in the next observation."""
        env = self.env
        parsed = self.encode(text)
        env.say(parsed.message)
        if parsed.action is None:
            env.set_invalid_reason(parsed.error, parsed.text)
            env.step(len(env.world.actions) - 1)
        else:
            env.step(parsed.action)
        return parsed


# --- messages: facts ---------------------------------------------------------------------------
# Possessive quantifiers (*+, ?+, ++) never give back what they matched, so no pattern can retry the same
# characters in many ways; together with collapsed whitespace every search below is linear.
_COL = r"(?:red|green|blue)"
_SEQ = rf"({_COL}(?:\s*+(?:,|and|then|->|>|;)?+\s*+{_COL})*+)"
_CONTAINS = re.compile(r"(?i)\broom\s*+#?+\s*+(\d+)\s*+(?:contains|has|holds|:)\s*+"
                       r"((?:bomb\s*+#?+\s*+\d+(?:\s*+(?:,|and)\s*+)?+)++)")
_EMPTY = re.compile(r"(?i)\broom\s*+#?+\s*+(\d+)\s*+(?:is empty|has no bombs?|contains no bombs?|is clear|: no bombs?)")
_SEQ_RE = re.compile(rf"(?i)\bbomb\s*+#?+\s*+(\d+)(?:\s*+\(?+\s*+in\s++room\s*+(\d+)\s*+\)?+)?+\s*+[,:]?+\s*+"
                     rf"(?:(?:its|whose)\s++)?+(?:remaining\s++)?+"
                     rf"(?:sequence|phases?|colou?rs?)\s*+(?:is|are|:)?+\s*+{_SEQ}")
_DEFUSED = re.compile(r"(?i)\bbomb\s*+#?+\s*+(\d+)\s*+(?:\(?+\s*+in\s++room\s*+\d+\s*+\)?+\s*+)?+"
                      r"(?:is|has been|was)\s++(?:now\s++)?+(?:fully\s++|completely\s++)?+defused")
_PHASE = re.compile(r"(?i)\bdefused\s++(?:a|one|the\s++\w++|its\s++\w++)\s++phase\s++(?:of|on)\s++bomb\s*+#?+\s*+(\d+)")
_LOCATED = re.compile(r"(?i)\bbomb\s*+#?+\s*+(\d+)\s++(?:is\s++)?+in\s++room\s*+(\d+)")


def parse_message_facts(text: str) -> list[dict]:
    """Facts stated by a message, in order, de-duplicated. Types: contents, seq, defused, located."""
    text = " ".join((text or "").split())
    facts: list[dict] = []
    for m in _CONTAINS.finditer(text):
        bombs = sorted({int(x) for x in re.findall(r"(?i)bomb\s*#?\s*(\d+)", m.group(2))})
        facts.append({"type": "contents", "room": int(m.group(1)), "bombs": bombs})
    for m in _EMPTY.finditer(text):
        facts.append({"type": "contents", "room": int(m.group(1)), "bombs": []})
    for m in _SEQ_RE.finditer(text):
        seq = [c.lower() for c in re.findall(rf"(?i){_COL}", m.group(3))]
        f = {"type": "seq", "bomb": int(m.group(1)), "seq": seq}
        if m.group(2):
            f["room"] = int(m.group(2))
        facts.append(f)
    for m in _DEFUSED.finditer(text):
        facts.append({"type": "seq", "bomb": int(m.group(1)), "seq": []})
        facts.append({"type": "defused", "bomb": int(m.group(1))})
    for m in _PHASE.finditer(text):
        facts.append({"type": "defused", "bomb": int(m.group(1))})
    for m in _LOCATED.finditer(text):
        facts.append({"type": "located", "bomb": int(m.group(1)), "room": int(m.group(2))})
    out, seen = [], set()
    for f in facts:
        key = tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in f.items()))
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out


def fmt_contents(room: int, bombs) -> str:
    bombs = sorted(bombs)
    if not bombs:
        return f"{room_name(room)} is empty."
    return f"{room_name(room)} contains " + " and ".join(bomb_name(b) for b in bombs) + "."


def fmt_seq(bomb: int, seq, room: int | None = None) -> str:
    if not seq:
        return f"{bomb_name(bomb)} is defused."
    where = f" (in {room_name(room)})" if room is not None else ""
    return f"{bomb_name(bomb)}{where} remaining sequence: " + ", ".join(seq) + "."


def fmt_defused_phase(bomb: int) -> str:
    return f"I defused a phase of {bomb_name(bomb)}."


__all__ = ["ParsedAction", "TextInterface", "format_messages", "parse_action", "split_message", "parse_message_facts",
           "fmt_contents", "fmt_seq", "fmt_defused_phase", "COLOURS"]
