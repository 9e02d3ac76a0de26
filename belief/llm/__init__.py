"""The LLM layer in one import: ``from belief.llm import LLMClient, LLMConfig, Translator``.

The pieces live in their own modules (one job each): :mod:`belief.llm.client` (the ``openai`` client, tying
the next ones together), :mod:`belief.llm.config` (settings: arguments > environment > config file >
defaults, pydantic-settings), :mod:`belief.llm.errors` (the LLMError family), :mod:`belief.llm.retries`
(bounded time and retries), :mod:`belief.llm.structured` (structured-output modes, reading a reply as a
schema), :mod:`belief.llm.replies` (text and usage out of a reply), :mod:`belief.llm.usage` (token
accounting), :mod:`belief.llm.cache` (the response cache, in memory or SQLite), :mod:`belief.llm.http` (a
total deadline per attempt and a reply size cap under the ``openai`` client), :mod:`belief.llm.translate` (checked
translation of observations into belief facts, all-or-nothing), :mod:`belief.llm.messages` (messages through
a trust policy), :mod:`belief.llm.translation_envs` (environments and their deterministic rule translators, the
default, by name), :mod:`belief.llm.prompts` (the LLM prompts), :mod:`belief.llm.translator_config` (a
translator declared in a file), :mod:`belief.testing.llm_server` (a scripted OpenAI-compatible loopback
server for tests).
"""

from belief.llm.cache import ResponseCache
from belief.llm.client import LLMClient
from belief.llm.config import LLMConfig, LLMSettings
from belief.llm.errors import (
    LLMCacheError, LLMConfigError, LLMError, LLMOutputError, LLMResponseError, LLMUnavailableError,
)
from belief.llm.usage import TokenUsage
from belief.llm.messages import Reception, message_claims, receive_message
from belief.llm.translate import Translation, TranslationError, Translator
from belief.llm.translator_config import TranslatorConfig
from belief.llm.translation_envs import TranslationEnv, env_names, get_env, register_env

__all__ = [
    "LLMClient", "LLMConfig", "LLMSettings", "LLMConfigError", "LLMCacheError", "LLMError", "LLMOutputError",
    "LLMResponseError", "LLMUnavailableError", "TokenUsage", "ResponseCache", "Translation", "TranslationError",
    "Translator", "TranslatorConfig",
    "Reception", "message_claims", "receive_message", "TranslationEnv", "env_names", "get_env", "register_env",
]
