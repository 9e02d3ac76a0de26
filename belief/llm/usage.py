"""Token accounting: the endpoint's ``usage`` fields summed, plus request, cache-hit and failure counters.

One :class:`TokenUsage` per client, safe to update from several threads.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any


@dataclass
class TokenUsage:
    """Token counts summed from the endpoint's ``usage`` field, plus request and cache counters."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    total_tokens: int = 0
    requests: int = 0  # requests that got an answer (cache hits excluded)
    cache_hits: int = 0
    failures: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def add(self, usage: Any) -> None:
        """Add one reply's ``usage`` (a dict or the SDK's object; None adds nothing)."""
        if usage is None:
            return
        get = usage.get if isinstance(usage, dict) else (lambda k, d=None: getattr(usage, k, d))
        p, c = int(get("prompt_tokens", 0) or 0), int(get("completion_tokens", 0) or 0)
        t = int(get("total_tokens", 0) or 0) or p + c
        with self._lock:
            self.prompt_tokens += p
            self.completion_tokens += c
            self.total_tokens += t

    def count_request(self) -> None:
        with self._lock:
            self.requests += 1

    def count_failure(self) -> None:
        with self._lock:
            self.failures += 1

    def count_cache_hit(self) -> None:
        with self._lock:
            self.cache_hits += 1

    def to_json(self) -> dict[str, int]:
        return {"prompt_tokens": self.prompt_tokens, "completion_tokens": self.completion_tokens,
                "total_tokens": self.total_tokens, "requests": self.requests, "cache_hits": self.cache_hits,
                "failures": self.failures}


__all__ = ["TokenUsage"]
