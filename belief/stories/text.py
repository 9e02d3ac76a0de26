"""Plain English for story events, and the rule translator that reads it back.

Every event of a generated story is rendered as exactly one sentence (:func:`render`, several phrasings per
action, picked by the story's seed), and every sentence of that English is read back as exactly one event
(:func:`parse_sentence`, :func:`parse_story`): the property ``parse_story(render_story(events)) == events``
holds for every generated story (tests/stories). Names in the trace use ``_`` where the English has a space
(``green_bucket`` is "the green bucket"); agents are capitalised single words.

The sentences, by event (``{A}`` an agent, ``{o}`` an object, ``{c}`` a container or room)::

    enter      {A} entered the {room}.                  (also "walked into", "came into"; "A and B ...")
    quiet      {A} slipped quietly into the {room}, and nobody looked up.   (enter, quiet: true)
    exit       {A} left the {room}.                     (also "exited", "walked out of")
    statement  The {o} is in the {c} in the {room}.     (also "In the {room}, the {o} is inside the {c}.")
    move       {A} moved the {o} to the {c}.           (also "put the {o} in", "transferred the {o} to")
    opaque     {A} put the {o} inside the {c} and closed the lid.          (move, opaque: true)
    peek       ..., while {C} secretly watched through the window.         (move, secret_observers)
    distracted ..., while {D} was distracted by a phone call.               (move, inattentive)
    tell       {A} privately told {B} that the {o} is in the {c}.          (also "whispered to")
    overhear   ..., and {C} overheard it.                                    (tell, overheard_by)
    announce   {A} announced to everyone present that the {o} is in the {c}.
"""

from __future__ import annotations

import re
from typing import Iterable, Optional

from belief.errors import BeliefError


class StoryTextError(BeliefError):
    """A sentence the story English does not have (the rule translator reads only what the generator writes)."""


def spoken(name: str) -> str:
    """``green_bucket`` -> ``green bucket``."""
    return name.replace("_", " ")


def _name(phrase: str) -> str:
    return "_".join(phrase.split())


def agent_list(agents: Iterable[str]) -> str:
    agents = list(agents)
    if len(agents) == 1:
        return agents[0]
    return ", ".join(agents[:-1]) + " and " + agents[-1]


def _agents(phrase: str) -> tuple:
    parts = re.split(r",\s*|\s+and\s+", phrase.strip())
    return tuple(p for p in parts if p)


# phrasings per event form; the story's random stream picks one (index into the list)
ENTER = ["{A} entered the {room}.", "{A} walked into the {room}.", "{A} came into the {room}."]
QUIET = ["{A} slipped quietly into the {room}, and nobody looked up.",
         "{A} tiptoed into the {room} without anyone looking around."]
EXIT = ["{A} left the {room}.", "{A} exited the {room}.", "{A} walked out of the {room}."]
STATEMENT = ["The {o} is in the {c} in the {room}.", "In the {room}, the {o} is inside the {c}.",
             "The {o} sits in the {c} in the {room}."]
MOVE = ["{A} moved the {o} to the {c}", "{A} put the {o} in the {c}", "{A} transferred the {o} to the {c}"]
OPAQUE = ["{A} put the {o} inside the {c} and closed the lid", "{A} hid the {o} in the {c} and shut it"]
PEEK = [", while {C} secretly watched through the window.", "; unseen by anyone, {C} was peeking in."]
DISTRACTED = [", while {D} was distracted by a phone call.", ", but {D} was daydreaming and missed it."]
TELL = ["{A} privately told {B} that the {o} is in the {c}", "{A} whispered to {B} that the {o} is in the {c}"]
OVERHEAR = [", and {C} overheard it.", "; {C} secretly listened in."]
ANNOUNCE = ["{A} announced to everyone present that the {o} is in the {c}.",
            "{A} told everyone in the room that the {o} is in the {c}."]


def render(event: dict, variant: int = 0) -> str:
    """One sentence for one event (a dict of the trace format); ``variant`` picks the phrasing."""
    k = event["kind"]
    pick = (lambda forms: forms[variant % len(forms)])
    if k == "enter":
        forms = QUIET if event.get("quiet") else ENTER
        return pick(forms).format(A=agent_list(event["agents"]), room=spoken(event["room"]))
    if k == "exit":
        return pick(EXIT).format(A=agent_list(event["agents"]), room=spoken(event["room"]))
    if k == "statement":
        return pick(STATEMENT).format(o=spoken(event["subject"][0]), c=spoken(event["value"]),
                                      room=spoken(event["room"]))
    if k == "move":
        head = pick(OPAQUE if event.get("opaque") else MOVE).format(A=event["agent"], o=spoken(event["object"]),
                                                                     c=spoken(event["to"]))
        if event.get("secret_observers"):
            return head + pick(PEEK).format(C=agent_list(event["secret_observers"]))
        if event.get("inattentive"):
            return head + pick(DISTRACTED).format(D=agent_list(event["inattentive"]))
        return head + "."
    if k in ("tell", "announce"):
        (fact,) = event["content"]
        o, c = spoken(fact["subject"][0]), spoken(fact["value"])
        if k == "announce":
            return pick(ANNOUNCE).format(A=event["sender"], o=o, c=c)
        head = pick(TELL).format(A=event["sender"], B=agent_list(event["recipients"]), o=o, c=c)
        if event.get("overheard_by"):
            return head + pick(OVERHEAR).format(C=agent_list(event["overheard_by"]))
        return head + "."
    raise StoryTextError(f"no English for a {k!r} event")


# --- the rule translator ----------------------------------------------------------------------------
_AG = r"(?P<{}>[A-Z][a-z]+(?:(?:, | and )[A-Z][a-z]+)*)"
_NP = r"(?P<{}>[a-z]+(?: [a-z]+)*?)"


def _pattern(form: str, tail: bool = False) -> re.Pattern:
    rx = re.escape(form.rstrip(".") if tail else form)
    for key, sub in (("A", _AG.format("A")), ("B", _AG.format("B")), ("C", _AG.format("C")), ("D", _AG.format("D")),
                     ("room", _NP.format("room")), ("o", _NP.format("o")), ("c", _NP.format("c"))):
        rx = rx.replace(re.escape("{" + key + "}"), sub)
    return re.compile(rx)


def _compile(forms, tail=False):
    return [_pattern(f, tail) for f in forms]


_FORMS = {"enter": _compile(ENTER), "quiet": _compile(QUIET), "exit": _compile(EXIT), "statement": _compile(STATEMENT),
          "move": _compile(MOVE, True), "opaque": _compile(OPAQUE, True), "peek": _compile(PEEK),
          "distracted": _compile(DISTRACTED), "tell": _compile(TELL, True), "overhear": _compile(OVERHEAR),
          "announce": _compile(ANNOUNCE)}


def _full(kind: str, s: str) -> Optional[re.Match]:
    for rx in _FORMS[kind]:
        m = rx.fullmatch(s)
        if m:
            return m
    return None


def _head_tail(kinds: tuple, tails: tuple, s: str) -> Optional[tuple[str, re.Match, Optional[str]]]:
    """A sentence made of a head form (move, tell) and a tail form (peek, overhear) or a full stop."""
    for kind in kinds:
        for head in _FORMS[kind]:
            for tail, rx in [(None, re.compile(re.escape(".")))] + [(t, r) for t in tails for r in _FORMS[t]]:
                m = re.fullmatch(head.pattern + rx.pattern, s)
                if m:
                    return kind, m, tail
    return None


def parse_sentence(sentence: str) -> dict:
    """The event one sentence of story English states (a dict of the trace format); StoryTextError when the
    sentence is not one the generator writes."""
    s = " ".join(sentence.split())
    m = _full("quiet", s)
    if m:
        return {"kind": "enter", "agents": list(_agents(m["A"])), "room": _name(m["room"]), "quiet": True}
    m = _full("enter", s)
    if m:
        return {"kind": "enter", "agents": list(_agents(m["A"])), "room": _name(m["room"])}
    m = _full("exit", s)
    if m:
        return {"kind": "exit", "agents": list(_agents(m["A"])), "room": _name(m["room"])}
    m = _full("statement", s)
    if m:
        return {"kind": "statement", "subject": [_name(m["o"])], "value": _name(m["c"]), "room": _name(m["room"])}
    m = _full("announce", s)
    if m:
        return {"kind": "announce", "sender": m["A"], "content": [{"subject": [_name(m["o"])],
                                                                   "value": _name(m["c"])}]}
    found = _head_tail(("opaque", "move"), ("peek", "distracted"), s)
    if found:
        kind, h, tail = found
        ev = {"kind": "move", "agent": h["A"], "object": _name(h["o"]), "to": _name(h["c"])}
        if kind == "opaque":
            ev["opaque"] = True
        if tail == "peek":
            ev["secret_observers"] = list(_agents(h["C"]))
        elif tail == "distracted":
            ev["inattentive"] = list(_agents(h["D"]))
        return ev
    found = _head_tail(("tell",), ("overhear",), s)
    if found:
        _, h, tail = found
        ev = {"kind": "tell", "sender": h["A"], "recipients": list(_agents(h["B"])),
              "content": [{"subject": [_name(h["o"])], "value": _name(h["c"])}]}
        if tail:
            ev["overheard_by"] = list(_agents(h["C"]))
        return ev
    raise StoryTextError(f"not a sentence of the story English: {sentence!r}")


def split_sentences(text: str) -> list[str]:
    """The sentences of a story text (one per line, or run together after full stops)."""
    return [s.strip() for s in re.findall(r"[^.]+\.", text) if s.strip()]


def parse_story(text: str) -> list[dict]:
    """Every event of a story text, in order (one per sentence)."""
    return [parse_sentence(s) for s in split_sentences(text)]


def question_text(kind: str, chain: tuple, obj: str) -> str:
    """The English of a question: reality, a belief chain of any order, or "does A know"."""
    o = spoken(obj)
    if kind == "knows":
        return f"Does {chain[0]} know where the {o} is?"
    if not chain:
        return f"Where is the {o} really?"
    return f"Where does {chain[0]} think " + "".join(f"{a} thinks " for a in chain[1:]) + f"the {o} is?"


__all__ = ["render", "parse_sentence", "parse_story", "split_sentences", "question_text", "spoken", "agent_list",
           "StoryTextError"]
