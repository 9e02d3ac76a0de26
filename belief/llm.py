"""The LLM layer in one import: ``from belief.llm import LLMClient, LLMConfig, Translator``.

The pieces live in their own modules (one job each): :mod:`belief.llm_client` (the ``openai`` client:
configuration, structured output, retries, token accounting, cache), :mod:`belief.translate` (checked
translation of observations and messages into belief facts, all-or-nothing), :mod:`belief.rule_translate`
(the deterministic rule-based translators, the default), :mod:`belief.testing.llm_server` (a scripted
OpenAI-compatible loopback server for tests).
"""

from belief.llm_client import (
    LLMClient, LLMConfig, LLMConfigError, LLMError, LLMOutputError, LLMResponseError, LLMUnavailableError, TokenUsage,
)
from belief.rule_translate import env_names, get_env, register_env
from belief.translate import (
    Translation, TranslationError, Translator, TranslatorConfig, message_claims, receive_message,
)

__all__ = [
    "LLMClient", "LLMConfig", "LLMConfigError", "LLMError", "LLMOutputError", "LLMResponseError",
    "LLMUnavailableError", "TokenUsage", "Translation", "TranslationError", "Translator", "TranslatorConfig",
    "message_claims", "receive_message", "env_names", "get_env", "register_env",
]
