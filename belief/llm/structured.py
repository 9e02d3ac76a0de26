"""Structured output: the modes a server may support, and reading a reply as an instance of a schema.

Modes, in the order :meth:`belief.llm.client.LLMClient.structured` tries them with ``structured="auto"``:
``json_schema`` (``response_format`` with the schema: JSON-schema constrained decoding where the server
supports it), ``json_object`` (``{"type": "json_object", "schema": ...}``, which llama.cpp's server turns into
grammar-constrained decoding) and ``text`` (JSON asked for in the prompt, :func:`text_mode_messages`). A
server rejecting a mode (:func:`rejects_structured_output`) moves the client to the next. Replies are read
leniently (:func:`extract_json`: code fences and prose around the object are tolerated); a reply that is
still not the schema's JSON is an :class:`~belief.llm.errors.LLMOutputError` whose ``problems`` list the
exact schema errors, ready to be sent back to the model.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import openai
from pydantic import BaseModel, ValidationError

from belief.llm.config import MAX_REPLY_BYTES
from belief.llm.errors import LLMOutputError, validation_problems
from belief.llm.retries import names_response_format

MODES = ("json_schema", "json_object", "text")
#: a reply's schema
Schema = TypeVar("Schema", bound=BaseModel)


@dataclass
class Structured(Generic[Schema]):
    """A structured answer: the schema's instance, the reply text, usage, cache hit, the mode that produced it."""

    value: Schema
    text: str
    usage: dict
    cached: bool = False
    mode: str = "json_schema"  # or "json_object", "text"


def rejects_structured_output(e: openai.APIStatusError) -> bool:
    """True when an HTTP error means the server does not take this ``response_format`` (400/404/422, or any
    status with a message naming response_format)."""
    return getattr(e, "status_code", None) in (400, 404, 422) or names_response_format(e)


def text_mode_messages(messages: list[dict], schema: type[BaseModel]) -> list[dict]:
    """``messages`` with an instruction to answer with the schema's JSON (added to the system message)."""
    instruction = ("Reply with one JSON object only (no prose, no code fence) that matches this JSON schema:\n"
                   + json.dumps(schema.model_json_schema(), sort_keys=True))
    msgs = list(messages)
    if msgs and msgs[0].get("role") == "system":
        msgs[0] = {**msgs[0], "content": f"{msgs[0]['content']}\n\n{instruction}"}
    else:
        msgs.insert(0, {"role": "system", "content": instruction})
    return msgs


def read_structured(text: str, schema: type[Schema], usage: dict, mode: str,
                    max_chars: int = MAX_REPLY_BYTES) -> Structured[Schema]:
    """The reply ``text`` read as an instance of ``schema``; LLMOutputError with exact ``problems`` if not."""
    try:
        obj = extract_json(text, max_chars)
    except ValueError as e:
        raise LLMOutputError(f"the reply is not JSON: {e}", raw=text,
                             problems=[f"the reply is not JSON ({e}); reply with one JSON object"], usage=usage) from None
    try:
        value = schema.model_validate(obj)
    except RecursionError:
        raise LLMOutputError("the reply is not JSON the schema can read: nested too deeply", raw=text[:200],
                             problems=["the reply is nested too deeply; reply with one flat JSON object"], usage=usage) from None
    except ValidationError as e:
        problems = validation_problems(e)
        raise LLMOutputError("the reply does not match the schema: " + "; ".join(problems), raw=text,
                             problems=problems, usage=usage) from None
    return Structured(value, text, usage, False, mode)


def extract_json(text: str, max_chars: int = MAX_REPLY_BYTES) -> Any:
    """The first JSON value in ``text``: the whole text, a ```json fenced block, or the first balanced {...}
    or [...] that decodes. Linear time: the bracket spans are found in one pass and the decoding work is
    capped at a few times the text's length; text over ``max_chars`` and JSON nested too deeply for the
    decoder are ValueErrors."""
    s = (text or "").strip()
    if not s:
        raise ValueError("the reply is empty")
    if len(s) > max_chars:
        raise ValueError(f"the reply is longer than {max_chars} characters")
    found, value = _decode(s)
    if found:
        return value
    opening = s.find("```")
    if opening >= 0:
        inner = opening + 3
        if s[inner:inner + 4] in ("json", "JSON"):
            inner += 4
        closing = s.find("```", inner)
        if closing >= 0:
            found, value = _decode(s[inner:closing].strip())
            if found:
                return value
    dec = json.JSONDecoder()
    budget = 4 * len(s) + 4096
    for start, end in _bracket_spans(s):
        if end - start + 1 > budget:
            continue
        budget -= end - start + 1
        try:
            return dec.raw_decode(s, start)[0]
        except (json.JSONDecodeError, RecursionError):
            continue
    raise ValueError("no JSON object found in the reply")


def _decode(s: str) -> tuple[bool, Any]:
    try:
        return True, json.loads(s)
    except (json.JSONDecodeError, RecursionError):
        return False, None


_BRACKET_OR_QUOTE = re.compile(r'[{}\[\]"]')
_STRING_REST = re.compile(r'(?:[^"\\]|\\.)*+"', re.S)  # the rest of a JSON string after its opening quote
_MAX_NESTING = 500  # json raises RecursionError well before 1000 levels


def _bracket_spans(s: str) -> list[tuple[int, int]]:
    """Balanced ``{...}``/``[...]`` spans, in order of their opening position, found in one pass (strings
    inside brackets are skipped, honouring backslash escapes; unbalanced openings are dropped, and so are
    openings nested deeper than any JSON decoder reads)."""
    starts: list[int] = []
    ends: list[int] = []
    stack: list[int] = []  # indexes into starts/ends of the open brackets
    skip = 0  # inside a string up to here
    for m in _BRACKET_OR_QUOTE.finditer(s):
        i = m.start()
        if i < skip:
            continue
        ch = s[i]
        if ch == "{" or ch == "[":
            if len(stack) >= _MAX_NESTING:
                stack.clear()
            stack.append(len(starts))
            starts.append(i)
            ends.append(-1)
        elif ch == '"':
            if stack:
                rest = _STRING_REST.match(s, i + 1)
                if rest is None:
                    break  # an unterminated string: nothing after it can close
                skip = rest.end()
        elif stack:
            k = stack.pop()
            if (s[starts[k]] == "{") == (ch == "}"):
                ends[k] = i
            else:
                stack.clear()  # a mismatched bracket: whatever is open cannot be JSON
    return [(a, b) for a, b in zip(starts, ends) if b >= 0]


__all__ = ["MODES", "Structured", "extract_json", "read_structured", "rejects_structured_output",
           "text_mode_messages"]
