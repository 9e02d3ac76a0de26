"""Reading what a chat-completions endpoint sent back: the message text and the ``usage`` counts.

Replies come either as the ``openai`` SDK's ChatCompletion or as the decoded JSON body of a raw response
(the structured-output path reads the body itself, so that a body the SDK cannot parse is still read).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from belief.llm.errors import LLMOutputError, one_line


@dataclass
class Completion:
    """A plain chat answer: its text, the endpoint's usage counts, whether it came from the cache."""

    text: str
    usage: dict
    cached: bool = False


def json_body(raw) -> dict:
    """The decoded JSON body of a raw response; a body that is not a chat completion is an output error."""
    try:
        body = json.loads(raw.text)
    except RecursionError:
        raise LLMOutputError("malformed response: the body's JSON is nested too deeply") from None
    except (json.JSONDecodeError, ValueError) as e:
        raise LLMOutputError(f"malformed response: the body is not JSON ({one_line(e, 120)})",
                             raw=one_line(getattr(raw, "text", ""), 200)) from None
    if not isinstance(body, dict) or not isinstance(body.get("choices"), list) or not body["choices"]:
        raise LLMOutputError("malformed response: no choices in the body", raw=one_line(raw.text, 200))
    return body


def content_and_usage(resp) -> tuple[str, dict]:
    """(message text, usage dict) from a ChatCompletion object or its decoded JSON body."""
    if isinstance(resp, dict):
        choice = resp["choices"][0] if resp.get("choices") else {}
        msg = choice.get("message") or {} if isinstance(choice, dict) else {}
        text = msg.get("content") or "" if isinstance(msg, dict) else ""
        usage = resp.get("usage") or {}
        usage = usage if isinstance(usage, dict) else {}
    else:
        choices = getattr(resp, "choices", None)
        if not choices:
            raise LLMOutputError("malformed response: no choices")
        text = choices[0].message.content or ""
        u = getattr(resp, "usage", None)
        usage = u.model_dump() if u is not None and hasattr(u, "model_dump") else {}
    usage = {k: usage.get(k) for k in ("prompt_tokens", "completion_tokens", "total_tokens") if k in usage}
    return text, usage


__all__ = ["Completion", "json_body", "content_and_usage"]
