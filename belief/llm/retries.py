"""One request under bounds: retried while retrying can help, within a deadline, every failure one LLMError.

Each attempt gets ``timeout`` seconds in total (connect, send and the whole reply, enforced by
:mod:`belief.llm.http`: a server dripping a valid reply byte by byte is cut off). ``max_retries`` retries
connection errors, timeouts, 408/409/429 and 5xx with exponential backoff (0.5 s doubling, jittered, capped
at 8 s), so a call ends within :func:`call_deadline`: ``(max_retries + 1) * timeout`` plus those waits. A
server's ``retry-after``/``retry-after-ms`` is honoured only when it fits in what is left of that deadline;
otherwise the call stops at once. A reply larger than ``max_reply_bytes`` is refused unread. Whatever fails
becomes one :class:`~belief.llm.errors.LLMError` with a one-line message (deeply nested or huge JSON
included); nothing else escapes.
"""

from __future__ import annotations

import email.utils
import json
import math
import random
import time
from typing import Any, Callable

import openai

from belief.llm.config import LLMConfig
from belief.llm.errors import LLMError, LLMOutputError, LLMResponseError, LLMUnavailableError, one_line
from belief.llm.http import ReplyTooLarge, limits
from belief.llm.usage import TokenUsage

RETRY_STATUSES = (408, 409, 429)


def bounded_call(fn: Callable[[], Any], config: LLMConfig, usage: TokenUsage | None = None,
                 passthrough: tuple = ()) -> Any:
    """``fn()`` (one ``openai`` client call) with bounded retries; every failure a one-line LLMError.

    The call as a whole ends within :func:`call_deadline` seconds: a wait (the server's Retry-After) that
    would pass it is not taken. ``passthrough`` exception types are re-raised as they are once the retries
    are spent, with the number of attempts in ``e.attempts`` (the structured-output fallback reads them).
    ``usage``: where the request or the failure is counted (None: not counted).
    """
    total = call_deadline(config)
    deadline = time.monotonic() + total
    attempt = 0

    def failed() -> None:
        if usage is not None:
            usage.count_failure()

    while True:
        attempt += 1
        try:
            with limits(min(config.timeout, deadline - time.monotonic()), config.max_reply_bytes):
                resp = fn()
            break
        except (openai.APITimeoutError, openai.APIConnectionError, openai.APIStatusError) as e:
            if not retryable(e) or attempt > config.max_retries:
                failed()
                if isinstance(e, passthrough):
                    e.attempts = attempt  # for the caller's one-line message
                    raise
                raise error_for(e, config, attempt) from None
            wait, asked = retry_wait(e, attempt)
            if wait >= deadline - time.monotonic():
                failed()
                if asked is not None:
                    raise LLMUnavailableError(
                        f"{status_message(e, config)}; the server asked to retry after {asked:g} s, beyond "
                        f"the call's {total:g} s deadline ({attempt} attempt(s))") from None
                if isinstance(e, passthrough):
                    e.attempts = attempt
                    raise
                raise error_for(e, config, attempt) from None
            time.sleep(wait)
        except ReplyTooLarge as e:
            failed()
            raise LLMOutputError(f"refused a reply from {config.describe()}: {e}") from None
        except passthrough:
            failed()
            raise
        except openai.APIResponseValidationError as e:
            failed()
            raise LLMOutputError(f"malformed response from {config.describe()}: {one_line(e, 160)}") from None
        except openai.OpenAIError as e:
            failed()
            raise LLMError(f"{type(e).__name__}: {one_line(e)}") from None
        except RecursionError:
            failed()
            raise LLMOutputError(f"malformed response from {config.describe()}: JSON nested too deeply") from None
        except (json.JSONDecodeError, ValueError, TypeError, KeyError, AttributeError) as e:
            failed()
            raise LLMOutputError(f"malformed response from {config.describe()}: "
                                 f"{type(e).__name__}: {one_line(e, 160)}") from None
    if usage is not None:
        usage.count_request()
    return resp


def error_for(e: Exception, config: LLMConfig, attempts: int) -> LLMError:
    """The one-line LLMError for a request that failed with ``e`` after ``attempts`` attempts."""
    if isinstance(e, openai.APITimeoutError):
        return LLMUnavailableError(f"timed out: {config.describe()} did not answer within {config.timeout:g} s "
                                   f"({attempts} attempt(s))")
    if isinstance(e, openai.APIConnectionError):
        cause = e.__cause__ or e.__context__ or e
        return LLMUnavailableError(f"cannot reach {config.describe()} ({attempts} attempt(s)): "
                                   f"{one_line(cause, 160)}")
    status = getattr(e, "status_code", None)
    msg = status_message(e, config)
    if status in RETRY_STATUSES or (status or 0) >= 500:
        return LLMUnavailableError(f"{msg} ({attempts} attempt(s))")
    return LLMResponseError(msg, status)


def names_response_format(e: Exception) -> bool:
    """True when an HTTP error's body or message names ``response_format``/``json_schema`` (a server
    rejecting structured output, whatever its status: llama.cpp answers 500)."""
    text = f"{getattr(e, 'body', '') or ''} {getattr(e, 'message', '') or ''}"
    return "response_format" in text or "json_schema" in text


def retryable(e: Exception) -> bool:
    """Connection errors, timeouts, 408/409/429 and 5xx, except a server rejecting ``response_format``."""
    if not isinstance(e, openai.APIStatusError):
        return True
    status = getattr(e, "status_code", None) or 0
    if status not in RETRY_STATUSES and status < 500:
        return False
    return not names_response_format(e)


def backoff(retry: int) -> float:
    """The longest wait before retry number ``retry`` (1-based): 0.5 s doubling, capped at 8 s."""
    return min(0.5 * 2 ** (retry - 1), 8.0)


def call_deadline(config: LLMConfig) -> float:
    """Seconds one call may take, retries included: every attempt's ``timeout`` plus the backoff waits."""
    return config.timeout * (config.max_retries + 1) + sum(backoff(r) for r in range(1, config.max_retries + 1))


def retry_wait(e: Exception, attempt: int) -> tuple[float, float | None]:
    """(seconds to wait before the next attempt, the server's Retry-After when it gave one).

    Exponential backoff (:func:`backoff`, jittered by up to -25 %); a Retry-After (or retry-after-ms)
    header replaces it."""
    response = getattr(e, "response", None)
    asked = retry_after(response.headers) if response is not None else None
    if asked is not None:
        return asked, asked
    return backoff(attempt) * (1 - 0.25 * random.random()), None


def retry_after(headers) -> float | None:
    """Seconds a server asks to wait: ``retry-after-ms``, ``retry-after`` in seconds or as an HTTP date."""
    for name, scale in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is None:
            continue
        try:
            seconds = float(value) / scale
        except ValueError:
            when = email.utils.parsedate_tz(value)
            if when is None:
                continue
            seconds = email.utils.mktime_tz(when) - time.time()
        if math.isnan(seconds):
            continue
        return max(0.0, seconds)
    return None


def status_message(e, config: LLMConfig) -> str:
    """``HTTP <status> from <endpoint>: <the server's message>`` on one line."""
    status = getattr(e, "status_code", "?")
    detail = ""
    body = getattr(e, "body", None)
    if isinstance(body, dict):
        err = body.get("error", body)
        detail = err.get("message", "") if isinstance(err, dict) else str(err)
    detail = detail or getattr(e, "message", "") or str(e)
    return f"HTTP {status} from {config.describe()}: {one_line(detail, 160)}"


__all__ = ["bounded_call", "error_for", "retryable", "names_response_format", "backoff", "call_deadline",
           "retry_wait", "retry_after", "status_message", "RETRY_STATUSES"]
