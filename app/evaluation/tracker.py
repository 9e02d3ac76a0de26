"""Tracker mode of ``belief eval``: the model translates each sentence of a story into trace events, every
event is checked, and the checker answers the questions from the translated trace.

The checked path, per sentence (:func:`translate_story`): the model's reply must be the :class:`Events`
schema (the client's structured output: JSON schema, JSON mode or JSON in text); each event must become a
valid trace event; every name in it must occur in the sentence (grounding: nothing invented); and the
story so far plus the new events must pass the checker (people act where they are, messages name known
people). A problem is sent back to the model verbatim, for a bounded number of attempts; a sentence still
not translated is reported and left out, never guessed. ``--model rules`` is the rule translator of the
generated English (:func:`belief.stories.text.parse_sentence`), offline.

Scored: event-level precision and recall against the story's gold trace (events compared as canonical
JSON without their index and source fields), and the tracker's answers graded like a model's.
"""

from __future__ import annotations

import json
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Literal, Optional

from pydantic import BaseModel, Field

from belief.app.evaluation.baselines import say
from belief.app.evaluation.datasets import Item
from belief.errors import BeliefError
from belief.grading.questions import check_question, gold_answer
from belief.llm.errors import LLMError, LLMOutputError, one_line
from belief.stories.text import split_sentences, parse_sentence, spoken
from belief.truth.checker import check
from belief.truth.trace import ROOMS_KEY, Trace, parse_event

MAX_ATTEMPTS = 3
_IGNORED = ("t", "source", "source_line", "chapter")


class Event(BaseModel):
    """One trace event as the model writes it (a flat record; unused fields left out)."""

    kind: Literal["enter", "exit", "statement", "move", "tell", "announce"]
    agents: Optional[list[str]] = Field(None, description="enter/exit: who")
    room: Optional[str] = Field(None, description="enter/exit/statement: the room")
    agent: Optional[str] = Field(None, description="move: who moves the object")
    object: Optional[str] = Field(None, description="move/statement/tell/announce: the object")
    to: Optional[str] = Field(None, description="move: the container or room it goes to")
    value: Optional[str] = Field(None, description="statement/tell/announce: the container it is said to be in")
    sender: Optional[str] = Field(None, description="tell/announce: who speaks")
    recipients: Optional[list[str]] = Field(None, description="tell: who is told")
    quiet: Optional[bool] = Field(None, description="enter: slipped in without the others looking around")
    opaque: Optional[bool] = Field(None, description="move: into a closed container")
    secret_observers: Optional[list[str]] = Field(None, description="move: who watched secretly from elsewhere")
    inattentive: Optional[list[str]] = Field(None, description="move: who was present but missed it")
    overheard_by: Optional[list[str]] = Field(None, description="tell: who overheard it secretly")


class Events(BaseModel):
    events: list[Event]


SYSTEM = ("You translate one sentence of a story into trace events (JSON). Kinds: enter (agents, room; quiet: "
          "true when nobody looked up), exit (agents, room), statement (object, value = its container, room), "
          "move (agent, object, to; opaque: true into a closed container; secret_observers: who watched "
          "secretly; inattentive: who missed it), tell (sender, recipients, object, value; overheard_by), "
          "announce (sender, object, value). Names as in the sentence, with _ for spaces (green_bucket). "
          "Use only what the sentence states.")


def _name(text: str) -> str:
    return "_".join(str(text).split())


def to_trace_event(e: Event) -> dict:
    """The trace-format dict of a model's event (TraceError-free validation is the caller's)."""
    k = e.kind
    if k in ("enter", "exit"):
        d = {"kind": k, "agents": [_name(a) for a in e.agents or []], "room": _name(e.room or "")}
        if k == "enter" and e.quiet:
            d["quiet"] = True
        return d
    if k == "statement":
        return {"kind": k, "subject": [_name(e.object or "")], "value": _name(e.value or ""), "room": _name(e.room or "")}
    if k == "move":
        d = {"kind": k, "agent": _name(e.agent or ""), "object": _name(e.object or ""), "to": _name(e.to or "")}
        for f in ("secret_observers", "inattentive"):
            if getattr(e, f):
                d[f] = [_name(a) for a in getattr(e, f)]
        if e.opaque:
            d["opaque"] = True
        return d
    content = [{"subject": [_name(e.object or "")], "value": _name(e.value or "")}]
    if k == "announce":
        return {"kind": k, "sender": _name(e.sender or ""), "content": content}
    d = {"kind": k, "sender": _name(e.sender or ""), "recipients": [_name(a) for a in e.recipients or []],
         "content": content}
    if e.overheard_by:
        d["overheard_by"] = [_name(a) for a in e.overheard_by]
    return d


def _names_in(d: dict) -> list[str]:
    out = []
    for v in d.values():
        if isinstance(v, str) and v not in ("enter", "exit", "statement", "move", "tell", "announce"):
            out.append(v)
        elif isinstance(v, list):
            for x in v:
                out.extend(_names_in(x) if isinstance(x, dict) else [x] if isinstance(x, str) else [])
    return out


def setting(trace) -> dict:
    """The meta a translated story keeps from its gold trace: the declared rooms (the world's setting, stated by
    no sentence), so that a move into a room nobody has entered yet reads in the translation as in the gold."""
    meta = getattr(trace, "meta", None) or {}
    return {k: meta[k] for k in (ROOMS_KEY,) if k in meta}


def problems_of(sentence: str, events: list[dict], prefix: list[dict], meta: Optional[dict] = None) -> list[str]:
    """Why these events are not a checked translation of the sentence (empty: they are); ``meta``: the
    story's :func:`setting`."""
    if not events:
        return ["no event: every sentence of the story states one"]
    out = []
    words = " ".join(re.findall(r"[a-z0-9]+", sentence.lower()))
    for d in events:
        try:
            parse_event(d)
        except BeliefError as e:
            out.append(f"{json.dumps(d, sort_keys=True)}: {one_line(e)}")
            continue
        for name in _names_in(d):
            if f" {spoken(name).lower()} " not in f" {words} ":
                out.append(f"{name!r} does not occur in the sentence")
    if not out:
        try:
            check(Trace(prefix + events, meta=meta))
        except BeliefError as e:
            out.append(f"the story so far does not allow it: {one_line(e)}")
    return out


@dataclass
class StoryTranslation:
    episode: str
    events: list = field(default_factory=list)       # trace-format dicts, in order
    untranslated: list = field(default_factory=list)  # (sentence number, sentence, last problems)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    error: Optional[str] = None
    latency_s: list = field(default_factory=list)     # seconds per translation request, refused ones included

    def to_json(self) -> dict:
        return {"key": f"story:{self.episode}", "events": self.events,
                "untranslated": [list(u) for u in self.untranslated], "prompt_tokens": self.prompt_tokens,
                "completion_tokens": self.completion_tokens, "error": self.error,
                "latency_s": [round(x, 4) for x in self.latency_s]}

    @classmethod
    def from_json(cls, d: dict) -> "StoryTranslation":
        return cls(d["key"].split(":", 1)[1], list(d["events"]), [tuple(u) for u in d["untranslated"]],
                   int(d.get("prompt_tokens") or 0), int(d.get("completion_tokens") or 0), d.get("error"),
                   [float(x) for x in d.get("latency_s") or ()])


Translate = Callable[[str, list, list], tuple[list, int, int]]  # (sentence, prefix, problems) -> events, tokens


def rules_translator(sentence: str, prefix: list, problems: list) -> tuple[list, int, int]:
    """The rule translator of the generated English (no model)."""
    try:
        return [parse_sentence(sentence)], 0, 0
    except BeliefError:
        return [], 0, 0


def llm_translator(client) -> Translate:
    def translate(sentence: str, prefix: list, problems: list) -> tuple[list, int, int]:
        story = "\n".join(json.dumps(e, sort_keys=True) for e in prefix) or "(nothing yet)"
        user = f"Events so far:\n{story}\n\nSentence: {sentence}\nThe events this sentence states:"
        if problems:
            user += "\n\nYour last answer was refused:\n- " + "\n- ".join(problems) + "\nCorrect it."
        got = client.structured([{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}], Events)
        usage = got.usage or {}
        return ([to_trace_event(e) for e in got.value.events], int(usage.get("prompt_tokens") or 0),
                int(usage.get("completion_tokens") or 0))

    return translate


def translate_story(episode: str, text: str, translate: Translate, max_attempts: int = MAX_ATTEMPTS,
                    meta: Optional[dict] = None) -> StoryTranslation:
    """Every sentence through the checked path; untranslatable ones are reported, never guessed. ``meta``: the
    story's :func:`setting`."""
    out = StoryTranslation(episode)
    for n, sentence in enumerate(split_sentences(text), 1):
        problems: list = []
        for _ in range(max_attempts):
            start = time.perf_counter()
            try:
                events, p, c = translate(sentence, out.events, problems)
            except LLMOutputError as e:  # a refused reply still cost its tokens
                out.prompt_tokens += int(e.usage.get("prompt_tokens") or 0)
                out.completion_tokens += int(e.usage.get("completion_tokens") or 0)
                problems = list(e.problems)[:5]
                continue
            except LLMError as e:
                out.error = one_line(e)
                out.untranslated.append((n, sentence, [f"request failed: {one_line(e)}"]))
                break
            finally:  # every request is timed, refused and failed ones too
                out.latency_s.append(time.perf_counter() - start)
            out.prompt_tokens += p
            out.completion_tokens += c
            problems = problems_of(sentence, events, out.events, meta)
            if not problems:
                out.events.extend(events)
                break
        else:
            out.untranslated.append((n, sentence, problems))
    return out


def canonical(events) -> Counter:
    """Events as a multiset of canonical JSON (index and source fields left out)."""
    out: Counter = Counter()
    for e in events:
        d = e if isinstance(e, dict) else e.model_dump(mode="json", exclude_none=True)
        try:
            d = parse_event({k: v for k, v in d.items() if k not in _IGNORED}).model_dump(mode="json",
                                                                                          exclude_none=True)
        except BeliefError:
            pass
        out[json.dumps({k: v for k, v in d.items() if k not in _IGNORED}, sort_keys=True)] += 1
    return out


def event_scores(pairs) -> dict:
    """Precision and recall of translated events against gold events over (translated, gold) pairs."""
    tp = fp = fn = 0
    for got, gold in pairs:
        a, b = canonical(got), canonical(gold)
        common = sum((a & b).values())
        tp += common
        fp += sum(a.values()) - common
        fn += sum(b.values()) - common
    return {"events_gold": tp + fn, "events_translated": tp + fp, "matched": tp,
            "precision": tp / (tp + fp) if tp + fp else None, "recall": tp / (tp + fn) if tp + fn else None}


def tracker_answer(item: Item, translation: StoryTranslation) -> str:
    """The tracker's answer to one question from the translated trace (what the checker says there)."""
    try:
        truth = check(Trace(translation.events, meta=setting(item.trace)))
        check_question(truth, item.question)
        return say(item, gold_answer(truth, item.question))
    except BeliefError:
        return say(item, None)  # the question's people or object never made it into the translation


__all__ = ["Event", "Events", "setting", "translate_story", "rules_translator", "llm_translator", "tracker_answer",
           "event_scores", "canonical", "problems_of", "to_trace_event", "StoryTranslation", "MAX_ATTEMPTS"]
