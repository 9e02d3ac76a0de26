"""Text for ``household_v0``: the observation an LLM agent would read, and the facts a message states.

Message lines of the form ``cupcake_1 IN fridge_1`` (an object, then a receptacle or an agent) are world
facts: the env logs them as the ``tell`` event's content, so the checker's trust policy decides who
believes them. Any other line (a plan, progress, chatter) is free text and reaches the partner only as
text.
"""

from __future__ import annotations

import re

FACT_RE = re.compile(r"^\s*([a-z]+_\d+)\s+IN\s+([A-Za-z]+(?:_\d+)?)\s*\.?\s*$")


def parse_message_facts(text: str, objects, places) -> list:
    """``[(object, place)]`` for every line of ``text`` that is a fact about a known object and place."""
    objects, places = set(objects), set(places)
    out = []
    for line in (text or "").replace(";", "\n").splitlines():
        m = FACT_RE.match(line)
        if m and m.group(1) in objects and m.group(2) in places:
            out.append((m.group(1), m.group(2)))
    return out


def render_view(v: dict, task: str | None = None) -> str:
    """The text observation of one agent (current room only)."""
    out = []
    if task:
        out.append(f"Task: {task}.")
    out.append(f"[step {v['step']}/{v['max_steps']}] You ({v['agent']}) are in the {v['room']}.")
    hands = [o for o in v["hands"] if o]
    out.append(f"You hold: {', '.join(hands) or 'nothing'}.")
    if v["present"]:
        out.append(f"Also here: {', '.join(v['present'])}.")
    for c, state in sorted(v["containers"].items()):
        out.append(f"The {c} is {state}.")
    seen = [f"{o} {'held by' if loc in v['present'] else 'on/in'} {loc}" for o, loc in sorted(v["visible"].items())]
    if seen:
        out.append(f"You see: {'; '.join(seen)}.")
    for sender, text in v["messages"]:
        out.append(f"Message from {sender}: {text}")
    if v["feedback"]:
        out.append(f"Result: {v['feedback']}.")
    return "\n".join(out)


__all__ = ["FACT_RE", "parse_message_facts", "render_view"]
