"""The LLM boundary: one OpenAI-compatible chat-completions client, configured, bounded and accounted.

Configuration (highest precedence first)::

    explicit arguments     LLMClient(model="m", base_url="http://127.0.0.1:8080/v1")  /  --model --base-url
    environment            OPENAI_BASE_URL, OPENAI_API_KEY, BELIEF_MODEL
    a config file          TOML or JSON (``BELIEF_LLM_CONFIG`` or ``config_path=``), validated by pydantic;
                           in TOML the keys may sit at top level or in an ``[llm]`` table
    defaults               timeout 30 s, max_retries 2, temperature 0, structured "auto", in-memory cache

Bounded time: ``timeout`` is a total deadline per attempt (connect, send and the whole reply, enforced by
:mod:`belief.llm.http`: a server dripping a valid reply byte by byte is cut off). ``max_retries`` retries
connection errors, timeouts, 408/409/429 and 5xx with exponential backoff (0.5 s doubling, jittered, capped
at 8 s), so a call ends within :func:`call_deadline`: ``(max_retries + 1) * timeout`` plus those waits. A
server's ``retry-after``/``retry-after-ms`` is honoured only when it fits in what is left of that deadline;
otherwise the call stops at once. A reply larger than ``max_reply_bytes`` is refused unread. Whatever fails
becomes one :class:`LLMError` with a one-line message (deeply nested or huge JSON included); nothing else
escapes.

Structured output: :meth:`LLMClient.structured` calls ``client.chat.completions.parse(response_format=Model)``
(JSON-schema constrained decoding where the server supports it). When the server rejects that
``response_format`` (HTTP 400/404/422, or any error naming response_format: llama.cpp answers 500), the
client falls back to JSON mode (``{"type": "json_object", "schema": ...}``) and then to asking for JSON in
plain text and extracting it (code fences and prose around the object are tolerated); a reply that is
not the schema's JSON is read leniently the same way. A reply that is still not valid raises :class:`LLMOutputError` whose ``problems`` list the exact
schema errors, ready to be sent back to the model.

Token accounting sums the endpoint's ``usage`` field (:class:`TokenUsage`); identical requests (same model,
messages, schema and sampling parameters) are answered from a cache, in memory and optionally in a JSON
file keyed by a SHA-256 of the request.
"""

from __future__ import annotations

import email.utils
import hashlib
import json
import math
import os
import random
import re
import tempfile
import threading
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Mapping, Optional

import openai
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from belief.errors import BeliefError
from belief.llm.http import ReplyTooLarge, bounded_http_client, limits

ENV_BASE_URL = "OPENAI_BASE_URL"
ENV_API_KEY = "OPENAI_API_KEY"
ENV_MODEL = "BELIEF_MODEL"
ENV_CONFIG = "BELIEF_LLM_CONFIG"
#: sent when a local server needs no key (the openai client refuses to start without one)
PLACEHOLDER_KEY = "not-needed"
#: default cap on a reply's size in bytes (a chat answer of a few hundred tokens is a few KB)
MAX_REPLY_BYTES = 2_000_000
RETRY_STATUSES = (408, 409, 429)
CACHE_SCHEMA = "belief.llm-cache/1"


# --- errors ----------------------------------------------------------------------------------------
class LLMError(BeliefError):
    """Anything that went wrong talking to the model. ``str(e)`` is one line."""


class LLMConfigError(LLMError):
    """Missing or invalid configuration (no model, a bad URL, an unreadable config file)."""


class LLMUnavailableError(LLMError):
    """The endpoint could not answer: unreachable, timed out, rate limited or failing (after retries)."""


class LLMResponseError(LLMError):
    """The endpoint refused the request (a non-retryable HTTP error such as 400 or 401)."""

    def __init__(self, message: str, status: int | None = None):
        self.status = status
        super().__init__(message)


class LLMOutputError(LLMError):
    """The model answered, but not with what was asked (not JSON, schema violations, a refusal)."""

    def __init__(self, message: str, *, raw: str = "", problems: list[str] | None = None):
        self.raw = raw
        self.problems = list(problems or [message])
        super().__init__(message)


def one_line(text: Any, limit: int = 240) -> str:
    s = " ".join(str(text).split())
    return s if len(s) <= limit else s[: limit - 3] + "..."


# --- configuration ---------------------------------------------------------------------------------
class LLMConfig(BaseModel):
    """Validated client settings. Unknown keys are errors (a typo in a config file is caught)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    base_url: Optional[str] = Field(None, description="OpenAI-compatible endpoint, e.g. http://127.0.0.1:8080/v1")
    api_key: Optional[str] = Field(None, description="API key; local servers need none")
    model: Optional[str] = Field(None, description="model name as the endpoint knows it")
    timeout: float = Field(30.0, gt=0, le=3600, description="seconds per attempt, in total (connect, send, "
                                                             "the whole reply)")
    max_retries: int = Field(2, ge=0, le=10, description="retries on connection errors, timeouts, 429, 5xx")
    max_reply_bytes: int = Field(MAX_REPLY_BYTES, ge=1024, description="larger replies are refused unread")
    temperature: float = Field(0.0, ge=0, le=2)
    max_tokens: Optional[int] = Field(512, gt=0)
    seed: Optional[int] = None
    structured: Literal["auto", "json_schema", "json_object", "text"] = Field(
        "auto", description="json_schema: response_format with the schema; json_object: JSON mode (+schema, as "
                            "llama.cpp reads it); text: JSON asked for in the prompt; auto: each in turn")
    cache: bool = True
    cache_path: Optional[str] = Field(None, description="JSON file persisting the cache across runs")

    @field_validator("base_url")
    @classmethod
    def _url(cls, v):
        if v is None or v == "":
            return None
        if not re.match(r"https?://[^\s/]+", v):
            raise ValueError(f"base_url must start with http:// or https://, got {v!r}")
        return v.rstrip("/")

    @classmethod
    def load(cls, path) -> "LLMConfig":
        """Read a TOML (``.toml``) or JSON file; TOML keys may be at top level or under ``[llm]``."""
        p = Path(path)
        try:
            text = p.read_text(encoding="utf-8")
        except OSError as e:
            raise LLMConfigError(f"cannot read LLM config {p}: {e.strerror or e}") from None
        except UnicodeDecodeError:
            raise LLMConfigError(f"cannot read LLM config {p}: not UTF-8 text") from None
        return cls.from_mapping(load_mapping(text, p), source=str(p))

    @classmethod
    def from_mapping(cls, data: Mapping, source: str = "config") -> "LLMConfig":
        try:
            return cls.model_validate(dict(data))
        except ValidationError as e:
            raise LLMConfigError(f"{source}: " + "; ".join(_fmt_validation(e))) from None

    @classmethod
    def resolve(cls, *, config_path=None, env: Mapping[str, str] | None = None, **explicit) -> "LLMConfig":
        """Merge defaults < config file < environment < explicit (non-None) arguments."""
        env = os.environ if env is None else env
        data: dict[str, Any] = {}
        path = config_path or env.get(ENV_CONFIG)
        if path:
            data.update(cls.load(path).model_dump(exclude_unset=True))
        for key, var in (("base_url", ENV_BASE_URL), ("api_key", ENV_API_KEY), ("model", ENV_MODEL)):
            if env.get(var):
                data[key] = env[var]
        data.update({k: v for k, v in explicit.items() if v is not None})
        return cls.from_mapping(data, source="LLM configuration")

    @property
    def configured(self) -> bool:
        """True when there is somewhere to send requests and a model to name."""
        return bool(self.model and (self.base_url or self.api_key))

    def describe(self) -> str:
        return f"model {self.model or '?'} at {self.base_url or 'the OpenAI default endpoint'}"


def load_mapping(text: str, p: Path) -> dict:
    """A config file's mapping: TOML when ``p`` ends in .toml, else JSON (an ``[llm]`` table is unwrapped)."""
    if p.suffix.lower() == ".toml":
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            raise LLMConfigError(f"{p}: invalid TOML: {e}") from None
        return data.get("llm", data) if isinstance(data.get("llm"), dict) else data
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise LLMConfigError(f"{p}: invalid JSON at line {e.lineno}, column {e.colno}: {e.msg}") from None
    if not isinstance(data, dict):
        raise LLMConfigError(f"{p}: expected a JSON object")
    return data.get("llm", data) if isinstance(data.get("llm"), dict) else data


def _fmt_validation(e: ValidationError) -> list[str]:
    out = []
    for err in e.errors():
        loc = ".".join(str(x) for x in err.get("loc", ())) or "reply"
        out.append(f"{loc}: {err.get('msg', 'invalid')}")
    return out


# --- accounting and cache --------------------------------------------------------------------------
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
        if usage is None:
            return
        get = usage.get if isinstance(usage, dict) else (lambda k, d=None: getattr(usage, k, d))
        p, c = int(get("prompt_tokens", 0) or 0), int(get("completion_tokens", 0) or 0)
        t = int(get("total_tokens", 0) or 0) or p + c
        with self._lock:
            self.prompt_tokens += p
            self.completion_tokens += c
            self.total_tokens += t

    def to_json(self) -> dict:
        return {"prompt_tokens": self.prompt_tokens, "completion_tokens": self.completion_tokens,
                "total_tokens": self.total_tokens, "requests": self.requests, "cache_hits": self.cache_hits,
                "failures": self.failures}


class ResponseCache:
    """Answers of identical requests: in memory, optionally persisted to a JSON file (atomic writes)."""

    def __init__(self, path: str | os.PathLike | None = None):
        self.path = Path(path) if path else None
        self._entries: dict[str, dict] = {}
        self._lock = threading.Lock()
        if self.path is not None and self.path.exists():
            try:
                data = json.loads(self.path.read_text(encoding="utf-8"))
                if isinstance(data, dict) and data.get("schema") == CACHE_SCHEMA:
                    self._entries.update(data.get("entries", {}))
            except (OSError, UnicodeDecodeError, json.JSONDecodeError):
                pass  # a damaged cache file is ignored and rewritten

    @staticmethod
    def key(payload: Mapping) -> str:
        blob = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
        return hashlib.sha256(blob.encode("utf-8")).hexdigest()

    def get(self, key: str) -> dict | None:
        with self._lock:
            return self._entries.get(key)

    def put(self, key: str, value: dict) -> None:
        with self._lock:
            self._entries[key] = value
            if self.path is not None:
                self._write()

    def _write(self):
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".llm-cache-", dir=str(self.path.parent))
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump({"schema": CACHE_SCHEMA, "entries": self._entries}, f, indent=0, sort_keys=True)
        os.replace(tmp, self.path)

    def __len__(self):
        return len(self._entries)


# --- results ---------------------------------------------------------------------------------------
@dataclass
class Completion:
    text: str
    usage: dict
    cached: bool = False


@dataclass
class Structured:
    value: BaseModel
    text: str
    usage: dict
    cached: bool = False
    mode: str = "json_schema"  # or "text"


# --- the client ------------------------------------------------------------------------------------
class LLMClient:
    """Chat completions against one OpenAI-compatible endpoint, with bounded retries, a cache and usage.

    >>> llm = LLMClient(base_url="http://127.0.0.1:8080/v1", model="smollm2")   # doctest: +SKIP
    >>> llm.structured([{"role": "user", "content": "..."}], FactList).value     # doctest: +SKIP
    """

    def __init__(self, config: LLMConfig | None = None, *, client=None,
                 cache: ResponseCache | bool | None = None, config_path=None, **overrides):
        """``cache``: a :class:`ResponseCache` to share, False for none, None to follow ``config.cache``."""
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
        self._mode_index = 0 if config.structured == "auto" else _MODES.index(config.structured)
        if client is None:  # retries are ours (bounded by the call's deadline), not the SDK's
            client = openai.OpenAI(base_url=config.base_url, api_key=config.api_key or PLACEHOLDER_KEY,
                                   timeout=config.timeout, max_retries=0,
                                   http_client=bounded_http_client(config.timeout))
        self._client = client

    @classmethod
    def from_env(cls, **overrides) -> "LLMClient":
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
        text, usage = _content_and_usage(resp)
        self.usage.add(usage)
        self._cache_put(key, {"text": text, "usage": usage})
        return Completion(text, usage)

    # --- structured --------------------------------------------------------------------------------
    def structured(self, messages: list[dict], schema: type[BaseModel], *, max_tokens: int | None = None,
                   temperature: float | None = None) -> Structured:
        """An instance of ``schema`` from the model, by structured output or JSON-in-text fallback.

        Modes, tried in this order with ``structured="auto"`` (a server that rejects one moves the client,
        for good, to the next): ``json_schema`` (``chat.completions.parse(response_format=schema)``),
        ``json_object`` (``response_format={"type": "json_object", "schema": ...}``, which llama.cpp's server
        turns into grammar-constrained decoding) and ``text`` (JSON asked for in the prompt, extracted from
        the reply). Raises :class:`LLMOutputError` (with ``raw`` and exact ``problems``) when the reply is
        not valid.
        """
        params = self._params(max_tokens, temperature)
        key = self._key(messages, schema, params)
        hit = self._cache_get(key)
        if hit is not None:
            return Structured(schema.model_validate(hit["value"]), hit["text"], hit.get("usage", {}), True,
                              hit.get("mode", self.mode))
        while True:
            mode = self.mode
            try:
                if mode == "json_schema":
                    out = self._structured_schema(messages, schema, params)
                else:
                    out = self._structured_text(messages, schema, params, json_object=mode == "json_object")
                break
            except _FallBack:
                self._mode_index += 1
        self._cache_put(key, {"value": out.value.model_dump(mode="json"), "text": out.text, "usage": out.usage,
                              "mode": out.mode})
        return out

    @property
    def mode(self) -> str:
        """The structured-output mode the client currently uses."""
        return _MODES[self._mode_index]

    def _unsupported(self, fn):
        """Run a structured call; a server that rejects its response_format raises _FallBack (auto mode)."""
        try:
            return self._call(fn, passthrough=(openai.APIStatusError,))
        except openai.APIStatusError as e:
            status = getattr(e, "status_code", None)
            text = str(getattr(e, "body", "") or "") + " " + str(getattr(e, "message", "") or "")
            rejected = status in (400, 404, 422) or "response_format" in text or "json_schema" in text
            if rejected and self.config.structured == "auto" and self._mode_index < len(_MODES) - 1:
                raise _FallBack() from None
            raise self._error(e, getattr(e, "attempts", 1)) from None

    def _structured_schema(self, messages, schema, params) -> Structured:
        raw = self._unsupported(lambda: self._client.chat.completions.with_raw_response.parse(
            model=self.config.model, messages=messages, response_format=schema, **params))
        body = _json_body(raw)
        text, usage = _content_and_usage(body)
        self.usage.add(usage)
        try:
            completion = raw.parse()
            message = completion.choices[0].message
            if getattr(message, "refusal", None):
                raise LLMOutputError(f"the model refused: {one_line(message.refusal)}", raw=text)
            parsed = message.parsed
            if parsed is None:
                raise ValueError("no parsed content")
            return Structured(parsed, text, usage, False, "json_schema")
        except LLMOutputError:
            raise
        except Exception:  # noqa: BLE001 - the server ignored the schema: read the text leniently
            return _validate_text(text, schema, usage, mode="text", max_chars=self.config.max_reply_bytes)

    def _structured_text(self, messages, schema, params, json_object: bool = False) -> Structured:
        json_schema = schema.model_json_schema()
        instruction = ("Reply with one JSON object only (no prose, no code fence) that matches this JSON schema:\n"
                       + json.dumps(json_schema, sort_keys=True))
        msgs = list(messages)
        if msgs and msgs[0].get("role") == "system":
            msgs[0] = {**msgs[0], "content": f"{msgs[0]['content']}\n\n{instruction}"}
        else:
            msgs.insert(0, {"role": "system", "content": instruction})
        extra = {"response_format": {"type": "json_object", "schema": json_schema}} if json_object else {}
        fn = (lambda: self._client.chat.completions.create(model=self.config.model, messages=msgs, **params, **extra))
        resp = self._unsupported(fn) if json_object else self._call(fn)
        text, usage = _content_and_usage(resp)
        self.usage.add(usage)
        return _validate_text(text, schema, usage, mode="json_object" if json_object else "text",
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

    def _key(self, messages, schema, params) -> str | None:
        if self.cache is None:
            return None
        return ResponseCache.key({"model": self.config.model, "base_url": self.config.base_url,
                                  "messages": messages, "params": params,
                                  "schema": schema.model_json_schema() if schema is not None else None})

    def _cache_get(self, key):
        if key is None or self.cache is None:
            return None
        hit = self.cache.get(key)
        if hit is not None:
            with self.usage._lock:
                self.usage.cache_hits += 1
        return hit

    def _cache_put(self, key, value):
        if key is not None and self.cache is not None:
            self.cache.put(key, value)

    def ping(self) -> None:
        """One ``GET /models`` under the same bounds: LLMUnavailableError when the endpoint cannot be reached,
        LLMResponseError on 401/403; any other HTTP answer counts as reachable (some servers list no models)."""
        try:
            self._call(lambda: self._client.models.list(), passthrough=(openai.APIStatusError,), account=False)
        except openai.APIStatusError as e:
            if getattr(e, "status_code", None) in (401, 403):
                raise LLMResponseError(f"HTTP {e.status_code} from {self.config.describe()}: the API key was refused",
                                       e.status_code) from None

    def _call(self, fn, passthrough: tuple = (), account: bool = True):
        """Run one client call with bounded retries; map every failure to a one-line LLMError.

        Each attempt gets ``timeout`` seconds in total (:func:`belief.llm.http.limits`); the call as a whole
        ends within :func:`call_deadline` seconds: a wait (the server's Retry-After) that would pass it is
        not taken. ``passthrough`` exception types are re-raised as they are once the retries are spent (the
        structured-output fallback reads them). ``account``: count the call in :attr:`usage`.
        """
        cfg = self.config
        total = call_deadline(cfg)
        deadline = time.monotonic() + total
        attempt = 0
        while True:
            attempt += 1
            try:
                with limits(min(cfg.timeout, deadline - time.monotonic()), cfg.max_reply_bytes):
                    resp = fn()
                break
            except (openai.APITimeoutError, openai.APIConnectionError, openai.APIStatusError) as e:
                if not _retryable(e) or attempt > cfg.max_retries:
                    self._fail(account)
                    if isinstance(e, passthrough):
                        e.attempts = attempt  # for the caller's one-line message
                        raise
                    raise self._error(e, attempt) from None
                wait, asked = _retry_wait(e, attempt)
                if wait >= deadline - time.monotonic():
                    self._fail(account)
                    if asked is not None:
                        raise LLMUnavailableError(
                            f"{_status_message(e, cfg)}; the server asked to retry after {asked:g} s, beyond "
                            f"the call's {total:g} s deadline ({attempt} attempt(s))") from None
                    if isinstance(e, passthrough):
                        e.attempts = attempt
                        raise
                    raise self._error(e, attempt) from None
                time.sleep(wait)
            except ReplyTooLarge as e:
                self._fail(account)
                raise LLMOutputError(f"refused a reply from {cfg.describe()}: {e}") from None
            except passthrough:
                self._fail(account)
                raise
            except openai.APIResponseValidationError as e:
                self._fail(account)
                raise LLMOutputError(f"malformed response from {cfg.describe()}: {one_line(e, 160)}") from None
            except openai.OpenAIError as e:
                self._fail(account)
                raise LLMError(f"{type(e).__name__}: {one_line(e)}") from None
            except RecursionError:
                self._fail(account)
                raise LLMOutputError(f"malformed response from {cfg.describe()}: JSON nested too deeply") from None
            except (json.JSONDecodeError, ValueError, TypeError, KeyError, AttributeError) as e:
                self._fail(account)
                raise LLMOutputError(f"malformed response from {cfg.describe()}: "
                                     f"{type(e).__name__}: {one_line(e, 160)}") from None
        if account:
            with self.usage._lock:
                self.usage.requests += 1
        return resp

    def _error(self, e: Exception, attempts: int) -> LLMError:
        """The one-line LLMError for a failed request after ``attempts`` attempts."""
        cfg = self.config
        if isinstance(e, openai.APITimeoutError):
            return LLMUnavailableError(f"timed out: {cfg.describe()} did not answer within {cfg.timeout:g} s "
                                       f"({attempts} attempt(s))")
        if isinstance(e, openai.APIConnectionError):
            cause = e.__cause__ or e.__context__ or e
            return LLMUnavailableError(f"cannot reach {cfg.describe()} ({attempts} attempt(s)): "
                                       f"{one_line(cause, 160)}")
        status = getattr(e, "status_code", None)
        msg = _status_message(e, cfg)
        if status in RETRY_STATUSES or (status or 0) >= 500:
            return LLMUnavailableError(f"{msg} ({attempts} attempt(s))")
        return LLMResponseError(msg, status)

    def _fail(self, account: bool = True):
        if account:
            with self.usage._lock:
                self.usage.failures += 1


class _FallBack(Exception):
    pass


def _retryable(e: Exception) -> bool:
    """Connection errors, timeouts, 408/409/429 and 5xx, except a server rejecting ``response_format``."""
    if not isinstance(e, openai.APIStatusError):
        return True
    status = getattr(e, "status_code", None) or 0
    if status not in RETRY_STATUSES and status < 500:
        return False
    text = f"{getattr(e, 'body', '') or ''} {getattr(e, 'message', '') or ''}"
    return "response_format" not in text and "json_schema" not in text


def _backoff(retry: int) -> float:
    """The longest wait before retry number ``retry`` (1-based): 0.5 s doubling, capped at 8 s."""
    return min(0.5 * 2 ** (retry - 1), 8.0)


def call_deadline(config: LLMConfig) -> float:
    """Seconds one call may take, retries included: every attempt's ``timeout`` plus the backoff waits."""
    return config.timeout * (config.max_retries + 1) + sum(_backoff(r) for r in range(1, config.max_retries + 1))


def _retry_wait(e: Exception, attempt: int) -> tuple[float, float | None]:
    """(seconds to wait before the next attempt, the server's Retry-After when it gave one).

    Exponential backoff (:func:`_backoff`, jittered by up to -25 %); a Retry-After (or retry-after-ms)
    header replaces it."""
    response = getattr(e, "response", None)
    asked = retry_after(response.headers) if response is not None else None
    if asked is not None:
        return asked, asked
    return _backoff(attempt) * (1 - 0.25 * random.random()), None


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


_MODES = ("json_schema", "json_object", "text")


def _status_message(e, config: LLMConfig) -> str:
    status = getattr(e, "status_code", "?")
    detail = ""
    body = getattr(e, "body", None)
    if isinstance(body, dict):
        err = body.get("error", body)
        detail = err.get("message", "") if isinstance(err, dict) else str(err)
    detail = detail or getattr(e, "message", "") or str(e)
    return f"HTTP {status} from {config.describe()}: {one_line(detail, 160)}"


def _json_body(raw) -> dict:
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


def _content_and_usage(resp) -> tuple[str, dict]:
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


def _validate_text(text: str, schema: type[BaseModel], usage: dict, mode: str,
                   max_chars: int = MAX_REPLY_BYTES) -> Structured:
    try:
        obj = extract_json(text, max_chars)
    except ValueError as e:
        raise LLMOutputError(f"the reply is not JSON: {e}", raw=text,
                             problems=[f"the reply is not JSON ({e}); reply with one JSON object"]) from None
    try:
        value = schema.model_validate(obj)
    except RecursionError:
        raise LLMOutputError("the reply is not JSON the schema can read: nested too deeply", raw=text[:200],
                             problems=["the reply is nested too deeply; reply with one flat JSON object"]) from None
    except ValidationError as e:
        problems = _fmt_validation(e)
        raise LLMOutputError("the reply does not match the schema: " + "; ".join(problems), raw=text,
                             problems=problems) from None
    return Structured(value, text, usage, False, mode)


def response_usage(client: LLMClient | None) -> dict:
    return client.usage.to_json() if client is not None else {}


__all__ = ["LLMClient", "LLMConfig", "LLMError", "LLMConfigError", "LLMUnavailableError", "LLMResponseError",
           "LLMOutputError", "TokenUsage", "ResponseCache", "Completion", "Structured", "extract_json",
           "ENV_BASE_URL", "ENV_API_KEY", "ENV_MODEL", "ENV_CONFIG"]
