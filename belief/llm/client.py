"""The LLM client: one OpenAI-compatible chat-completions endpoint through the ``openai`` SDK.

:class:`LLMClient` ties the parts together, each in its own module: :mod:`belief.llm.config` (settings:
arguments > environment > config file > defaults), :mod:`belief.llm.retries` (bounded time and retries,
every failure one :class:`LLMError` line), :mod:`belief.llm.structured` (structured-output modes and reading
a reply as a schema), :mod:`belief.llm.replies` (text and usage out of a reply), :mod:`belief.llm.usage`
(token accounting), :mod:`belief.llm.cache` (identical requests answered from memory or a SQLite file) and
:mod:`belief.llm.errors`. The names this module exported before the split are still importable from it.
"""

from __future__ import annotations

import os
import threading
from typing import Any, Callable

import openai
from pydantic import BaseModel

from belief.llm.cache import CACHE_SCHEMA, ResponseCache
from belief.llm.config import (
    ENV_API_KEY, ENV_BASE_URL, ENV_CONFIG, ENV_MODEL, MAX_REPLY_BYTES, LLMConfig, LLMSettings, load_mapping,
)
from belief.llm.errors import (
    LLMCacheError, LLMConfigError, LLMError, LLMOutputError, LLMResponseError, LLMUnavailableError, one_line,
)
from belief.llm.http import bounded_http_client
from belief.llm.replies import Completion, content_and_usage, json_body
from belief.llm.retries import RETRY_STATUSES, bounded_call, call_deadline, error_for, retry_after
from belief.llm.structured import (
    MODES, Schema, Structured, extract_json, read_structured, rejects_structured_output, text_mode_messages,
)
from belief.llm.usage import TokenUsage

#: sent when a local server needs no key (the openai client refuses to start without one)
PLACEHOLDER_KEY = "not-needed"


class _FallBack(Exception):
    """The server rejected the current structured-output mode: try the next."""


class LLMClient:
    """Chat completions against one OpenAI-compatible endpoint, with bounded retries, a cache and usage.

    >>> llm = LLMClient(base_url="http://127.0.0.1:8080/v1", model="smollm2")   # doctest: +SKIP
    >>> llm.structured([{"role": "user", "content": "..."}], FactList).value     # doctest: +SKIP
    """

    def __init__(self, config: LLMConfig | None = None, *, client: openai.OpenAI | None = None,
                 cache: ResponseCache | bool | None = None, config_path: str | os.PathLike[str] | None = None,
                 **overrides: Any) -> None:
        """``config``: the settings (None: :meth:`LLMConfig.resolve` with ``config_path`` and ``overrides``;
        given: ``overrides`` replace its values). ``cache``: a :class:`ResponseCache` to share, False for
        none, None to follow ``config.cache``/``config.cache_path``. ``client``: an ``openai.OpenAI`` to use."""
        if config is None:
            config = LLMConfig.resolve(config_path=config_path, **overrides)
        elif overrides:
            config = LLMConfig.from_mapping({**config.model_dump(), **{k: v for k, v in overrides.items()
                                                                       if v is not None}})
        if not config.model:
            raise LLMConfigError(f"no model configured: pass --model / model=, set {ENV_MODEL}, "
                                 f"or put model in the config file")
        self.config = config
        self.usage = TokenUsage()
        if cache is None or cache is True:
            cache = ResponseCache(config.cache_path) if config.cache or cache is True else None
        self.cache: ResponseCache | None = None if cache is False else cache
        self._mode_index = 0 if config.structured == "auto" else MODES.index(config.structured)
        self._mode_lock = threading.Lock()  # requests in flight on several threads move the mode once, not twice
        if client is None:  # retries are ours (bounded by the call's deadline), not the SDK's
            client = openai.OpenAI(base_url=config.base_url, api_key=config.api_key or PLACEHOLDER_KEY,
                                   timeout=config.timeout, max_retries=0,
                                   http_client=bounded_http_client(config.timeout))
        # the SDK's client; Any: its stubs type messages as TypedDicts, ours are the plain dicts of belief.llm.prompts
        self._client: Any = client

    @classmethod
    def from_env(cls, **overrides: Any) -> "LLMClient":
        return cls(None, **overrides)

    # --- plain text --------------------------------------------------------------------------------
    def chat(self, messages: list[dict], *, max_tokens: int | None = None,
             temperature: float | None = None) -> Completion:
        """One chat completion; returns its text (from the cache for an identical earlier request)."""
        params = self._params(max_tokens, temperature)
        key = self._key(messages, None, params)
        hit = self._cache_get(key)
        if hit is not None:
            return Completion(hit["text"], hit.get("usage", {}), cached=True)
        resp = self._call(lambda: self._client.chat.completions.create(
            model=self.config.model, messages=messages, **params))
        text, usage = content_and_usage(resp)
        self.usage.add(usage)
        self._cache_put(key, {"text": text, "usage": usage})
        return Completion(text, usage)

    # --- structured --------------------------------------------------------------------------------
    def structured(self, messages: list[dict], schema: type[Schema], *, max_tokens: int | None = None,
                   temperature: float | None = None) -> Structured[Schema]:
        """An instance of ``schema`` from the model, by structured output or JSON-in-text fallback.

        Modes (:mod:`belief.llm.structured`), tried in this order with ``structured="auto"`` (a server that
        rejects one moves the client, for good, to the next): ``json_schema``
        (``chat.completions.parse(response_format=schema)``), ``json_object`` and ``text``. Raises
        :class:`LLMOutputError` (with ``raw`` and exact ``problems``) when the reply is not valid.
        """
        params = self._params(max_tokens, temperature)
        key = self._key(messages, schema, params)
        hit = self._cache_get(key)
        if hit is not None:
            return Structured(schema.model_validate(hit["value"]), hit["text"], hit.get("usage", {}), True,
                              hit.get("mode", self.mode))
        while True:
            index = self._mode_index
            mode = MODES[index]
            try:
                if mode == "json_schema":
                    out = self._structured_schema(messages, schema, params, index)
                else:
                    out = self._structured_text(messages, schema, params, json_object=mode == "json_object",
                                                index=index)
                break
            except _FallBack:
                with self._mode_lock:  # move on from the mode this request used, once for all threads
                    if self._mode_index == index:
                        self._mode_index = index + 1
        self._cache_put(key, {"value": out.value.model_dump(mode="json"), "text": out.text, "usage": out.usage,
                              "mode": out.mode})
        return out

    @property
    def mode(self) -> str:
        """The structured-output mode the client currently uses."""
        return MODES[self._mode_index]

    def _unsupported(self, fn: Callable[[], Any], index: int) -> Any:
        """Run a structured call in mode ``MODES[index]``; a server that rejects its response_format raises
        _FallBack (auto mode): judged by the mode the request used, not the one another thread has moved to."""
        try:
            return self._call(fn, passthrough=(openai.APIStatusError,))
        except openai.APIStatusError as e:
            if (rejects_structured_output(e) and self.config.structured == "auto"
                    and index < len(MODES) - 1):
                raise _FallBack() from None
            raise error_for(e, self.config, getattr(e, "attempts", 1)) from None

    def _structured_schema(self, messages: list[dict], schema: type[Schema], params: dict, index: int
                           ) -> Structured[Schema]:
        raw = self._unsupported(lambda: self._client.chat.completions.with_raw_response.parse(
            model=self.config.model, messages=messages, response_format=schema, **params), index)
        body = json_body(raw)
        text, usage = content_and_usage(body)
        self.usage.add(usage)
        try:
            completion = raw.parse()
            message = completion.choices[0].message
            if getattr(message, "refusal", None):
                raise LLMOutputError(f"the model refused: {one_line(message.refusal)}", raw=text, usage=usage)
            parsed = message.parsed
            if parsed is None:
                raise ValueError("no parsed content")
            return Structured(parsed, text, usage, False, "json_schema")
        except LLMOutputError:
            raise
        except Exception:  # noqa: BLE001 - the server ignored the schema: read the text leniently
            return read_structured(text, schema, usage, mode="text", max_chars=self.config.max_reply_bytes)

    def _structured_text(self, messages: list[dict], schema: type[Schema], params: dict, json_object: bool = False,
                         index: int | None = None) -> Structured[Schema]:
        msgs = text_mode_messages(messages, schema)
        extra = ({"response_format": {"type": "json_object", "schema": schema.model_json_schema()}}
                 if json_object else {})
        fn = (lambda: self._client.chat.completions.create(model=self.config.model, messages=msgs, **params, **extra))
        resp = self._unsupported(fn, MODES.index("json_object") if index is None else index) if json_object \
            else self._call(fn)
        text, usage = content_and_usage(resp)
        self.usage.add(usage)
        return read_structured(text, schema, usage, mode="json_object" if json_object else "text",
                               max_chars=self.config.max_reply_bytes)

    # --- plumbing ----------------------------------------------------------------------------------
    def _params(self, max_tokens, temperature) -> dict:
        p: dict[str, Any] = {"temperature": self.config.temperature if temperature is None else temperature}
        mt = max_tokens or self.config.max_tokens
        if mt:
            p["max_tokens"] = mt
        if self.config.seed is not None:
            p["seed"] = self.config.seed
        return p

    def _key(self, messages: list[dict], schema: type[BaseModel] | None, params: dict) -> str | None:
        if self.cache is None:
            return None
        return ResponseCache.key({"model": self.config.model, "base_url": self.config.base_url,
                                  "messages": messages, "params": params,
                                  "schema": schema.model_json_schema() if schema is not None else None})

    def _cache_get(self, key: str | None) -> dict | None:
        if key is None or self.cache is None:
            return None
        hit = self.cache.get(key)
        if hit is not None:
            self.usage.count_cache_hit()
        return hit

    def _cache_put(self, key: str | None, value: dict) -> None:
        if key is not None and self.cache is not None:
            self.cache.put(key, value)

    def ping(self) -> None:
        """One ``GET /models`` under the same bounds: LLMUnavailableError when the endpoint cannot be reached,
        LLMResponseError on 401/403; any other HTTP answer counts as reachable (some servers list no models)."""
        try:
            bounded_call(lambda: self._client.models.list(), self.config, passthrough=(openai.APIStatusError,))
        except openai.APIStatusError as e:
            if getattr(e, "status_code", None) in (401, 403):
                raise LLMResponseError(f"HTTP {e.status_code} from {self.config.describe()}: the API key was refused",
                                       e.status_code) from None

    def _call(self, fn: Callable[[], Any], passthrough: tuple[type[Exception], ...] = ()) -> Any:
        """``fn()`` under :func:`belief.llm.retries.bounded_call`, counted in :attr:`usage`."""
        return bounded_call(fn, self.config, self.usage, passthrough)


def response_usage(client: LLMClient | None) -> dict:
    return client.usage.to_json() if client is not None else {}


__all__ = ["LLMClient", "LLMConfig", "LLMSettings", "LLMError", "LLMConfigError", "LLMCacheError",
           "LLMUnavailableError", "LLMResponseError", "LLMOutputError", "TokenUsage", "ResponseCache", "Completion",
           "Structured", "extract_json", "response_usage", "ENV_BASE_URL", "ENV_API_KEY", "ENV_MODEL", "ENV_CONFIG",
           # kept importable from here, where they lived before the split
           "CACHE_SCHEMA", "MAX_REPLY_BYTES", "PLACEHOLDER_KEY", "RETRY_STATUSES", "call_deadline", "load_mapping",
           "one_line", "retry_after"]
