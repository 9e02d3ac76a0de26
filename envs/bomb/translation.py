"""Rules for the bomb game's observation text, and its registration as the translation env ``bomb``.

:class:`BombRules` turns one observation (both :mod:`belief.envs.bomb.environment`'s wording and the study's) into
facts of the ``bomb`` domain (:mod:`belief.envs.bomb.domain`) for the observing agent: zero-order facts
(where it is, what its room holds, a bomb's remaining sequence after an inspection or a tool, defusals it
saw, where teammates are) and first-order facts for what a co-present teammate saw too. Messages are
returned as data (sender, text), never translated here; :func:`bomb_message_facts` reads the claims a
message states, for a trust policy (:func:`belief.llm.messages.receive_message`).

Messages are data in two ways. :meth:`BombRules.split_messages` takes them out of the text before anything
reads the observation; each message text is a JSON string (:func:`belief.envs.bomb.text.format_messages`
writes them so), so ``Bravo: "x\" Charlie: \"y"`` is one message from bravo, never one from charlie.
And :func:`bomb_grounding` rejects LLM facts the observation does not ground: entities, colours or
defusals it never mentions, and a teammate's beliefs about what it was not in the room to see.

Parsing is linear in the text's length: whitespace runs are collapsed per line and quantifiers that could
retry the same characters are possessive.

Importing this module (which ``import belief.envs`` does) registers the env, so the core's
``belief.llm.translation_envs.get_env("bomb")`` finds it without importing the environment.
"""

from __future__ import annotations

import json
import re
from typing import Optional

from belief.envs.bomb.domain import (BOMB_AGENTS, BOMB_EDGES, BOMB_ROOMS, bomb_domain, bomb_entities,
                                     bomb_static_facts, cutter_name, seq_name)
from belief.envs.bomb.text import parse_message_facts
from belief.logic.formula import Atom, Believes, Fact, Formula, Not
from belief.llm.translation_envs import RuleResult, RuleTranslator, TranslationEnv, register_env

_COL = r"(?:red|green|blue)"
_SEQ_TEXT = rf"((?:\[?+\s*+'?+{_COL}'?+(?:\s*+(?:,|-|and|then|->)\s*+'?+{_COL}'?+)*+\s*+\]?+)|none(?:\s*+\(defused\))?+)"
_R_ROUND = re.compile(r"^(?:your observation is:\s*)?(?:round|total team score|results)\s*:?\s*\d*\s*$", re.I)
_R_AT = re.compile(r"\byou (?:are (?:currently |already )?in|moved to) room\s*(\d+)", re.I)
_R_NOT_ADJ = re.compile(r"can ?not directly move to room\s*(\d+) because it is not adjacent to your current location,"
                        r"\s*room\s*(\d+)", re.I)
_R_NO_BOMB = re.compile(r"there is no bomb in (?:your|the) (?:current )+location,\s*room\s*(\d+)", re.I)
_R_INSPECT = re.compile(r"\byou inspected bomb\s*(\d+)", re.I)
_R_APPLIED = re.compile(r"\byou applied (?:the )?(?:tool )?(" + _COL + r")(?: tool)? to bomb\s*(\d+)", re.I)
_R_CANT_APPLY = re.compile(r"can ?not apply tool (" + _COL + r") to bomb\s*(\d+) because the sequence of this bomb is "
                           + _SEQ_TEXT, re.I)
_R_SEQ = re.compile(r"\b(?:its|this bomb(?:'s)?|the bomb's)\s++(?:has a\s++)?+(?:is (?:active|inactive) and its\s++)?+"
                    r"remaining sequence (?:is|of)\s*+:?+\s*+" + _SEQ_TEXT, re.I)
_R_ACTIVE_SEQ = re.compile(r"this bomb is (active|inactive) and its remaining sequence is\s*+" + _SEQ_TEXT, re.I)
_R_STAGE = re.compile(r"this bomb is a (\d)-stage bomb and its remaining sequence is\s*+" + _SEQ_TEXT, re.I)
_R_DEFUSED = re.compile(r"(?:bomb\s*(\d+) is fully defused|this bomb is defused successfully)", re.I)
_R_VANISH = re.compile(r"you saw bomb\s*(\d+) vanish from room\s*(\d+):\s*(\w+) fully defused it", re.I)
_R_CONTENTS = re.compile(r"^room contents\s*\(room\s*(\d+), your location\)\s*:\s*(.*)$", re.I)
_R_CONTENTS_STUDY = re.compile(r"(?:contents of this room include|in the new room you found)\s*(.*)$", re.I)
_R_TEAM = re.compile(r"^teammate locations\s*:\s*(.*)$", re.I)
_R_TEAM_ONE = re.compile(r"(?:player\s+)?(alpha|bravo|charlie)\s+(?:is\s+)?in\s+room\s*(\d+)", re.I)
_R_SINCE = re.compile(r"^since your last turn\s*:\s*(.*)$", re.I)
_R_MOVED = re.compile(r"(alpha|bravo|charlie) (?:moved from room\s*\d+ to|stayed in) room\s*(\d+)", re.I)
#: sentences that say which room the observer is in: (pattern, the room's group, the group of a room it is
#: not adjacent to or 0)
_WHERE_I_AM = ((_R_AT, 1, 0), (_R_NOT_ADJ, 2, 1), (_R_NO_BOMB, 1, 0))
#: sentences that name the bomb the observer works on: (pattern, the bomb's group, the group of its remaining
#: sequence or 0)
_BOMB_AT_HAND = ((_R_INSPECT, 1, 0), (_R_APPLIED, 2, 0), (_R_CANT_APPLY, 2, 3))
_R_NO_TOOL = re.compile(r"you do not have (?:the )?(" + _COL + r")(?: tool)?", re.I)
_R_TOOLS_HEAD = re.compile(r"your tools\s*+:\s*+", re.I)
# the full stop ending the tools: the first one followed by nothing or by the neighbouring rooms
_R_TOOLS_END = re.compile(r"\.\s*+(?:$|(?=neighbouring rooms\s*+:))", re.I)
_R_NEIGHBOURS = re.compile(r"neighbouring rooms\s*+:\s*+(.*)$", re.I)
_R_BENIGN = re.compile(r"^(?:results\s*:\s*)?(?:none yet.*|nothing happened.*|your action .*could not be understood.*|"
                       r"you are already in room\s*\d+\.?|consider .*|you will need to .*|you can only .*|"
                       r"there is no room\s*\d+.*|the rooms are .*|messages\s*:\s*none\.?)$", re.I)
_R_MSG_HEAD = re.compile(r"^(?:messages|communication messages sent by your teammates)\s*:\s*(.*)$", re.I)
_R_MSG_SENDER = re.compile(r"\s*+(?:player\s++)?+(alpha|bravo|charlie)\s*+:\s*+(?=\")", re.I)
_MSG_SEPARATORS = " \t\r\n.,;"
_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-Z(])")


def _tools_line(line: str) -> Optional[tuple[str, str]]:
    """(tools, neighbouring rooms) of a whole 'Your tools: ... . Neighbouring rooms: ... .' line, or None."""
    head = _R_TOOLS_HEAD.match(line)
    end = _R_TOOLS_END.search(line, head.end()) if head else None
    if end is None:
        return None
    rest = _R_NEIGHBOURS.match(line, end.end())
    return line[head.end():end.start()], (rest.group(1).rstrip().rstrip(".") if rest else "")


def _colours(text: str) -> list[str]:
    if re.match(r"\s*none", text, re.I):
        return []
    return [c.lower() for c in re.findall(_COL, text, re.I)]


class BombRules(RuleTranslator):
    """Rules for the bomb game's observation text (``bomb_v0`` and the study's wording).

    Zero-order facts for the observer (where it is, what its room holds, a bomb's remaining sequence after
    an inspection or a tool, defusals it saw, where teammates are), plus first-order facts for what a
    co-present teammate saw too (the room's contents). Messages are returned, not translated.
    """

    name = "bomb-rules"

    def __init__(self, agents=BOMB_AGENTS):
        self.agents = tuple(agents)

    def translate(self, text: str, agent: str) -> RuleResult:
        res = RuleResult()
        agent = agent.lower()
        obs, messages = self.split_messages(text or "")
        res.messages = messages
        facts: list[Formula] = []
        here: Optional[str] = None
        present: list[str] = []
        last_bomb: Optional[str] = None

        def me(f: Formula) -> None:
            facts.append(Believes(agent, f))

        lines = [" ".join(ln.split()) for ln in obs.replace("\r", "\n").split("\n") if ln.strip()]
        sentences: list[str] = []
        for ln in lines:
            # whole-line forms first (their content contains full stops)
            if _R_CONTENTS.match(ln) or _R_TEAM.match(ln) or _R_SINCE.match(ln) or _tools_line(ln):
                sentences.append(ln)
            else:
                ln = re.sub(r"^(?:your observation is\s*:\s*)", "", ln, flags=re.I)
                parts = re.split(r"\s*(?=\b(?:Round|Total team score|Results|Room contents)\s*:)", ln)
                for p in parts:
                    sentences.extend(s.strip() for s in _SPLIT.split(p) if s.strip())
        for s in sentences:
            s_clean = s.rstrip()
            body = re.sub(r"^results\s*:\s*", "", s_clean, flags=re.I)
            hit = False
            if _R_ROUND.match(s_clean.rstrip(".")) or re.match(r"^(round|total team score)\s*:\s*\d+\.?$", s_clean, re.I):
                hit = True
            elif _R_BENIGN.match(s_clean) or _R_BENIGN.match(body):
                hit = True
            m = _R_CONTENTS.match(s_clean)
            if m:
                hit = True
                here = f"room_{m.group(1)}"
                me(Atom("at", (agent, here)))
                items = m.group(2).rstrip(".")
                bombs = [f"bomb_{b}" for b in re.findall(r"bomb\s*(\d+)", items, re.I)]
                present = [a.lower() for a in re.findall(r"\b(alpha|bravo|charlie)\b", items, re.I)]
                for b in bombs:
                    me(Atom("in", (b, here)))
                    me(Atom("state", (b, "active")))
                for a in present:
                    me(Atom("at", (a, here)))
                    for b in bombs:
                        facts.append(Believes(agent, Believes(a, Atom("in", (b, here)))))
                    facts.append(Believes(agent, Believes(a, Atom("at", (agent, here)))))
            m = _R_CONTENTS_STUDY.search(body)
            if m and not hit:
                room = here
                m_at = _R_AT.search(body)
                if m_at:
                    room = f"room_{m_at.group(1)}"
                if room is not None:
                    hit = True
                    here = room
                    me(Atom("at", (agent, room)))
                    items = m.group(1)
                    for b in re.findall(r"bomb\s*(\d+)", items, re.I):
                        me(Atom("in", (f"bomb_{b}", room)))
                    for a in re.findall(r"\b(alpha|bravo|charlie)\b", items, re.I):
                        a = a.lower()
                        if a != agent:
                            me(Atom("at", (a, room)))
                            present.append(a)
            m = _R_TEAM.match(s_clean)
            if m:
                hit = True
                for a, r in _R_TEAM_ONE.findall(m.group(1)):
                    me(Atom("at", (a.lower(), f"room_{r}")))
            m = _R_SINCE.match(s_clean)
            if m:
                hit = True
                for a, r in _R_MOVED.findall(m.group(1)):
                    me(Atom("at", (a.lower(), f"room_{r}")))
            tools = _tools_line(s_clean)
            if tools:
                hit = True
                for c in _colours(tools[0]):
                    me(Atom("has", (agent, cutter_name(c))))
                nb = tools[1]
                if here is not None:
                    for r in re.findall(r"room\s*(\d+)", nb, re.I):
                        me(Atom("adjacent", (here, f"room_{r}")))
            if not hit:
                for rx, room, not_adjacent in _WHERE_I_AM:
                    m = rx.search(body)
                    if m:
                        hit = True
                        here = f"room_{m.group(room)}"
                        me(Atom("at", (agent, here)))
                        if not_adjacent:
                            me(Not(Atom("adjacent", (here, f"room_{m.group(not_adjacent)}"))))
                for rx, bomb, sequence in _BOMB_AT_HAND:
                    m = rx.search(body)
                    if m:
                        hit = True
                        last_bomb = f"bomb_{m.group(bomb)}"
                        if sequence:
                            me(Atom("seq", (last_bomb, seq_name(_colours(m.group(sequence))))))
                m = _R_STAGE.search(body) or _R_ACTIVE_SEQ.search(body) or _R_SEQ.search(body)
                if m and last_bomb is not None:
                    hit = True
                    seq = _colours(m.groups()[-1])
                    me(Atom("seq", (last_bomb, seq_name(seq))))
                    me(Atom("state", (last_bomb, "active" if seq else "defused")))
                m = _R_DEFUSED.search(body)
                if m:
                    b = f"bomb_{m.group(1)}" if m.group(1) else last_bomb
                    if b is not None:
                        hit = True
                        me(Atom("seq", (b, "none")))
                        me(Atom("state", (b, "defused")))
                m = _R_VANISH.search(body)
                if m:
                    hit = True
                    b = f"bomb_{m.group(1)}"
                    me(Atom("seq", (b, "none")))
                    me(Atom("state", (b, "defused")))
                m = _R_NO_TOOL.search(body)
                if m:
                    hit = True
                    me(Not(Atom("has", (agent, cutter_name(m.group(1))))))
                m = _R_NEIGHBOURS.search(body)
                if m and here is not None:
                    hit = True
                    for r in re.findall(r"room\s*(\d+)", m.group(1), re.I):
                        me(Atom("adjacent", (here, f"room_{r}")))
            if hit:
                res.covered += 1
            else:
                res.uncovered.append(s_clean)
        # sentences come in time order: a later value of a functional fluent (or a later stance on an atom)
        # supersedes an earlier one ("You inspected Bomb 2 ... Blue." then "You saw Bomb 2 vanish ...")
        dom = bomb_domain()
        latest: dict = {}
        for f in facts:
            fact = Fact(f)
            key = dom.functional_key(fact.atom)
            slot = (fact.chain, key if key is not None else fact.atom)
            latest.pop(slot, None)
            latest[slot] = fact
        res.facts = list(latest.values())
        return res

    def split_messages(self, text: str) -> tuple[str, list[tuple[str, str]]]:
        """(observation text without messages, [(sender, message text)]). Everything after a 'Messages:'
        header up to the closing 'Your tools:' line is message data, whatever it looks like."""
        lines = text.replace("\r", "\n").split("\n")
        out: list[str] = []
        msg_chunks: list[str] = []
        in_msgs = False
        for ln in lines:
            stripped = ln.strip()
            if in_msgs and _R_TOOLS_HEAD.match(stripped):
                in_msgs = False
            if in_msgs:
                msg_chunks.append(ln)
                continue
            m = _R_MSG_HEAD.match(stripped)
            if not m:
                # the study's single-line format: "... Communication messages sent by your teammates: Player a: "x"."
                m2 = re.search(r"communication messages sent by your teammates\s*+:\s*+(.*)$", stripped, re.I)
                if m2:
                    out.append(stripped[: m2.start()])
                    msg_chunks.append(m2.group(1))
                    in_msgs = True
                    continue
                out.append(ln)
                continue
            rest = m.group(1)
            if re.match(r"^none\.?$", rest.strip(), re.I):
                continue
            msg_chunks.append(rest)
            in_msgs = True
        blob = "\n".join(msg_chunks).strip()
        messages = quoted_messages(blob)
        if blob and not messages:
            messages = [("unknown", blob)]
        messages = [(s, t) for s, t in messages if t and t.lower() not in ("none", "")]
        return "\n".join(out), messages


def quoted_messages(blob: str) -> list[tuple[str, str]]:
    """[(sender, text)] from ``Bravo: "..." Charlie: "..."``, each text a JSON string literal.

    A sender is only ever read from outside a string. Text that is not a well-formed JSON string (a raw
    line break, a bad escape, no closing quote) belongs, in full, to the sender before it: it can never
    start a message from someone else. Linear: each string is decoded once by ``json``'s scanner.
    """
    out: list[tuple[str, str]] = []
    pos = 0
    while True:
        m = _R_MSG_SENDER.match(blob, pos)
        if m is None:
            return out
        sender = m.group(1).lower()
        try:
            text, pos = json.decoder.scanstring(blob, m.end() + 1)
        except ValueError:
            rest = blob[m.end() + 1:].rstrip().rstrip(".").rstrip()
            out.append((sender, " ".join((rest[:-1] if rest.endswith('"') else rest).split())))
            return out
        out.append((sender, " ".join(text.split())))
        while pos < len(blob) and blob[pos] in _MSG_SEPARATORS:
            pos += 1


def bomb_message_facts(text: str) -> list[str]:
    """Readable relations stated by a bomb-game message, via the env's own message parser."""
    out = []
    for f in parse_message_facts(text):
        kind = f.get("type")
        if kind == "contents":
            out.extend(f"bomb_{b} IN room_{f['room']}" for b in f.get("bombs", []))
        elif kind == "seq":
            out.append(f"seq(bomb_{f['bomb']}, {seq_name(f.get('seq', []))})")
            if f.get("room") is not None:
                out.append(f"bomb_{f['bomb']} IN room_{f['room']}")
        elif kind == "defused":
            out.append(f"state(bomb_{f['bomb']}, defused)")
        elif kind == "located":
            out.append(f"bomb_{f['bomb']} IN room_{f['room']}")
    return out


_R_MENTION = re.compile(r"\b(bomb|room)[ _#]?+(\d+)\b")
_R_WORD = re.compile(r"[a-z]+")


def bomb_grounding(text: str, agent: str):
    """The bomb game's grounding check for LLM facts read from ``text`` (an observation, messages removed).

    A fact is grounded when every bomb, room and teammate it names is mentioned in the text, so is every
    colour of a sequence or cutter, a defusal (``none``, ``defused``) only when the text tells of one, and a
    teammate's belief (``agent BELIEVE mate BELIEVE ...``) only when the text shows that teammate in the
    agent's room (the rules' reading of the same text). Returns ``fact -> problem or None``.
    """
    agent = agent.lower()
    flat = " ".join(text.split()).lower()
    mentioned = {f"{kind}_{num}" for kind, num in _R_MENTION.findall(flat)}
    words = set(_R_WORD.findall(flat))
    mentioned |= words & set(BOMB_AGENTS)
    defusal = any(w.startswith("defus") or w.startswith("vanish") for w in words)
    seen = BombRules().translate(text, agent).facts
    here = next((f.atom.args[1] for f in seen if f.chain == (agent,) and f.atom.pred == "at"
                 and f.atom.args[0] == agent), None)
    present = {f.atom.args[0] for f in seen if f.chain == (agent,) and f.atom.pred == "at"
               and f.atom.args[1] == here and here is not None}

    def problem(fact: Fact) -> Optional[str]:
        for name in fact.atom.args:
            if name == agent or name == "active":
                continue
            if name in ("none", "defused"):
                if not defusal:
                    why = f"{name!r} needs a defusal, and the observation tells of none"
                    return why + ": write only what it states"
                continue
            if name.startswith(("bomb_", "room_")) or name in BOMB_AGENTS:
                if name not in mentioned:
                    return f"{name} is not mentioned in the observation: write only what it states"
                continue
            missing = [c for c in name.removesuffix("_cutter").split("_") if c not in words]
            if missing:
                return f"the colour {', '.join(missing)} is not mentioned in the observation: write only what it states"
        if len(fact.chain) == 2 and fact.chain[1] not in present:
            return (f"{fact.chain[1]} is not in {agent}'s room in this observation, so it cannot have seen this "
                    f"(no first-order fact)")
        return None

    return problem


def bomb_env(rooms=BOMB_ROOMS, edges=BOMB_EDGES, bombs=range(1, 6), **_) -> TranslationEnv:
    """The ``bomb`` TranslationEnv (the study's map by default): registered as ``get_env("bomb")``."""
    return TranslationEnv(
        name="bomb", domain=bomb_domain(), entities=bomb_entities(rooms, bombs),
        static_facts=bomb_static_facts(rooms, edges), rules=BombRules(), agents=BOMB_AGENTS,
        closed_predicates=("adjacent", "has"), message_facts=bomb_message_facts, grounding=bomb_grounding,
        description=("Three agents (alpha, bravo, charlie) defuse bombs in rooms room_0, room_3, room_5, room_6, "
                     "room_8. Each bomb is IN one room and has a remaining colour sequence, e.g. "
                     "seq(bomb_3, red_green); a fully defused bomb has seq(bomb_3, none) and state(bomb_3, defused). "
                     "Cutters: has(alpha, red_cutter), has(alpha, green_cutter), has(bravo, green_cutter), has(bravo, blue_cutter), "
                     "has(charlie, blue_cutter), has(charlie, red_cutter)."))


def bomb_env_from_trace_meta(meta: dict) -> TranslationEnv:
    """The bomb TranslationEnv matching one bomb_v0 episode (its map, bombs and cutters)."""
    gmap = meta.get("map") or {}
    rooms = tuple(gmap.get("rooms", BOMB_ROOMS))
    edges = tuple(tuple(e) for e in gmap.get("edges", BOMB_EDGES))
    bombs = sorted(int(b) for b in (meta.get("bombs") or {str(i): None for i in range(1, 6)}))
    env = bomb_env(rooms, edges, bombs)
    cutters = meta.get("cutters")
    if cutters:
        env.static_facts = bomb_static_facts(rooms, edges, {a: tuple(c) for a, c in cutters.items()})
    return env


register_env("bomb", bomb_env)

__all__ = ["BombRules", "bomb_env", "bomb_env_from_trace_meta", "bomb_grounding", "bomb_message_facts",
           "quoted_messages"]
