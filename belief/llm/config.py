"""The LLM client's settings and where they come from (pydantic-settings).

Sources, highest precedence first (:meth:`LLMConfig.resolve`, the CLI's ``--model``/``--base-url``/... flags)::

    explicit arguments   LLMConfig.resolve(model="m", base_url="http://127.0.0.1:8080/v1"); None = not given
    environment          BELIEF_LLM_<FIELD> for any field below (BELIEF_LLM_MODEL, BELIEF_LLM_BASE_URL,
                         BELIEF_LLM_TIMEOUT, BELIEF_LLM_CACHE_PATH, ...), then the names used before them:
                         OPENAI_BASE_URL, OPENAI_API_KEY, BELIEF_MODEL. Empty variables count as unset.
    a config file        TOML or JSON named by ``config_path=`` (``--config``), else by BELIEF_LLM_CONFIG;
                         in TOML (and JSON) the keys may sit at top level or in an ``[llm]`` table
    defaults             timeout 30 s, max_retries 2, temperature 0, structured "auto", in-memory cache

:class:`LLMConfig` is the set of values the client uses: constructing it directly reads nothing else (what
you pass is what you get). :class:`LLMSettings` is the same fields as a pydantic-settings class whose sources
are the list above; ``LLMSettings()`` reads the process environment like any ``BaseSettings``. Unknown keys
(in a file, in arguments) are errors, so a typo is caught; every problem is one :class:`LLMConfigError` line.
"""

from __future__ import annotations

import os
import re
import tomllib
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Mapping, Optional

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict, SettingsError

from belief.files.json_input import load_json
from belief.llm.errors import LLMConfigError, one_line, validation_problems

#: every field can be set by BELIEF_LLM_<FIELD> (any case)
ENV_PREFIX = "BELIEF_LLM_"
ENV_BASE_URL = "OPENAI_BASE_URL"
ENV_API_KEY = "OPENAI_API_KEY"
ENV_MODEL = "BELIEF_MODEL"
#: the config file to read when no ``config_path`` is given
ENV_CONFIG = "BELIEF_LLM_CONFIG"
#: field -> the environment variable users set before the BELIEF_LLM_ names (below them in precedence)
OLDER_ENV_NAMES = {"base_url": ENV_BASE_URL, "api_key": ENV_API_KEY, "model": ENV_MODEL}
#: default cap on a reply's size in bytes (a chat answer of a few hundred tokens is a few KB)
MAX_REPLY_BYTES = 2_000_000


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
    cache_path: Optional[str] = Field(None, description="SQLite file persisting the response cache across runs "
                                                        "and processes (see belief.llm.cache)")

    @field_validator("base_url")
    @classmethod
    def _url(cls, v: Optional[str]) -> Optional[str]:
        if v is None or v == "":
            return None
        if not re.match(r"https?://[^\s/]+", v):
            raise ValueError(f"base_url must start with http:// or https://, got {v!r}")
        return v.rstrip("/")

    @classmethod
    def load(cls, path) -> "LLMConfig":
        """Read a TOML (``.toml``) or JSON file; the keys may be at top level or under ``[llm]``."""
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
        """Exactly these values (nothing read from the environment); LLMConfigError naming ``source``."""
        try:
            return cls.model_validate(dict(data))
        except ValidationError as e:
            raise LLMConfigError(f"{source}: " + "; ".join(validation_problems(e))) from None

    @classmethod
    def resolve(cls, *, config_path=None, env: Mapping[str, str] | None = None, **explicit) -> "LLMConfig":
        """Explicit (non-None) arguments > environment (``env``, default ``os.environ``) > config file >
        defaults: see the module docstring. The config file is ``config_path``, else ``env[BELIEF_LLM_CONFIG]``."""
        token = _SOURCES.set(_Sources(os.environ if env is None else env, config_path))
        try:
            settings = LLMSettings(**{k: v for k, v in explicit.items() if v is not None})
        except ValidationError as e:
            raise LLMConfigError("LLM configuration: " + "; ".join(validation_problems(e))) from None
        except SettingsError as e:
            raise LLMConfigError(f"LLM configuration: {one_line(e)}") from None
        finally:
            _SOURCES.reset(token)
        return cls.model_validate(settings.model_dump(exclude_unset=True))

    @property
    def configured(self) -> bool:
        """True when there is somewhere to send requests and a model to name."""
        return bool(self.model and (self.base_url or self.api_key))

    def describe(self) -> str:
        return f"model {self.model or '?'} at {self.base_url or 'the OpenAI default endpoint'}"


@dataclass(frozen=True)
class _Sources:
    environ: Mapping[str, str]
    config_path: Any = None


#: what :meth:`LLMConfig.resolve` asks :class:`LLMSettings` to read (unset: the process environment)
_SOURCES: ContextVar[_Sources | None] = ContextVar("belief_llm_settings_sources", default=None)


class LLMSettings(BaseSettings, LLMConfig):
    """:class:`LLMConfig`'s fields read from arguments > environment > config file > defaults."""

    model_config = SettingsConfigDict(env_prefix=ENV_PREFIX, env_ignore_empty=True, extra="forbid", frozen=True)

    @classmethod
    def settings_customise_sources(cls, settings_cls, init_settings, env_settings, dotenv_settings,
                                   file_secret_settings) -> tuple[PydanticBaseSettingsSource, ...]:
        sources = _SOURCES.get() or _Sources(os.environ)
        if sources.environ is not os.environ:  # resolve(env=...): read that mapping instead of the process's
            env_settings.env_vars = {k.lower(): v for k, v in sources.environ.items() if v != ""}
        path = sources.config_path or sources.environ.get(ENV_CONFIG) or None
        return (init_settings, env_settings, OlderEnvNames(settings_cls, sources.environ),
                ConfigFileSource(settings_cls, path))


class OlderEnvNames(PydanticBaseSettingsSource):
    """OPENAI_BASE_URL, OPENAI_API_KEY and BELIEF_MODEL: below the BELIEF_LLM_ names, above the file."""

    def __init__(self, settings_cls: type[BaseSettings], environ: Mapping[str, str]) -> None:
        super().__init__(settings_cls)
        self.environ = environ

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:  # all in __call__
        return None, field_name, False

    def __call__(self) -> dict[str, Any]:
        return {name: self.environ[var] for name, var in OLDER_ENV_NAMES.items() if self.environ.get(var)}


class ConfigFileSource(PydanticBaseSettingsSource):
    """The keys a TOML/JSON config file sets, validated on their own first so errors name the file."""

    def __init__(self, settings_cls: type[BaseSettings], path: str | Path | None) -> None:
        super().__init__(settings_cls)
        self.path = path

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:  # all in __call__
        return None, field_name, False

    def __call__(self) -> dict[str, Any]:
        return LLMConfig.load(self.path).model_dump(exclude_unset=True) if self.path else {}


def load_mapping(text: str, p: Path) -> dict:
    """A config file's mapping: TOML when ``p`` ends in .toml, else JSON (an ``[llm]`` table is unwrapped)."""
    if p.suffix.lower() == ".toml":
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            raise LLMConfigError(f"{p}: invalid TOML: {e}") from None
    else:
        data = load_json(text, f"{p}: ", LLMConfigError)
        if not isinstance(data, dict):
            raise LLMConfigError(f"{p}: expected a JSON object")
    return data.get("llm", data) if isinstance(data.get("llm"), dict) else data


__all__ = ["LLMConfig", "LLMSettings", "load_mapping", "ENV_PREFIX", "ENV_BASE_URL", "ENV_API_KEY", "ENV_MODEL",
           "ENV_CONFIG", "OLDER_ENV_NAMES", "MAX_REPLY_BYTES"]
