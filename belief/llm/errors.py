"""The LLM boundary's errors, all under :class:`belief.errors.BeliefError`, and how they are worded.

Whatever goes wrong talking to a model ends as one :class:`LLMError` whose ``str()`` is one line: the CLI
prints it as ``error: ...``. :func:`one_line` and :func:`validation_problems` do the wording.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from belief.errors import BeliefError


class LLMError(BeliefError):
    """Anything that went wrong talking to the model. ``str(e)`` is one line."""


class LLMConfigError(LLMError):
    """Missing or invalid configuration (no model, a bad URL, an unreadable config file)."""


class LLMCacheError(LLMError):
    """The response cache file cannot be used (not a cache, damaged, unwritable)."""


class LLMUnavailableError(LLMError):
    """The endpoint could not answer: unreachable, timed out, rate limited or failing (after retries)."""


class LLMResponseError(LLMError):
    """The endpoint refused the request (a non-retryable HTTP error such as 400 or 401)."""

    def __init__(self, message: str, status: int | None = None) -> None:
        self.status = status
        super().__init__(message)


class LLMOutputError(LLMError):
    """The model answered, but not with what was asked (not JSON, schema violations, a refusal)."""

    def __init__(self, message: str, *, raw: str = "", problems: list[str] | None = None,
                 usage: dict[str, Any] | None = None) -> None:
        self.raw = raw
        self.problems = list(problems or [message])
        self.usage = dict(usage or {})  # the tokens the refused reply cost (the endpoint's usage), when known
        super().__init__(message)


def one_line(text: Any, limit: int = 240) -> str:
    """``text`` on one line (whitespace runs become one space), cut to ``limit`` characters."""
    s = " ".join(str(text).split())
    return s if len(s) <= limit else s[: limit - 3] + "..."


def validation_problems(e: ValidationError) -> list[str]:
    """One ``where: what`` line per pydantic error (``reply`` when the error is about the whole value)."""
    out = []
    for err in e.errors():
        loc = ".".join(str(x) for x in err.get("loc", ())) or "reply"
        out.append(f"{loc}: {err.get('msg', 'invalid')}")
    return out


__all__ = ["LLMError", "LLMConfigError", "LLMCacheError", "LLMUnavailableError", "LLMResponseError", "LLMOutputError",
           "one_line", "validation_problems"]
