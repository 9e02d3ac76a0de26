"""The LLM layer in one import: ``from belief.llm import LLMClient, LLMConfig, Translator``.

The pieces live in their own modules (one job each): :mod:`belief.llm_client` (the ``openai`` client:
configuration, structured output, bounded retries, token accounting, cache), :mod:`belief.llm_http` (a total
deadline per attempt and a reply size cap under the ``openai`` client), :mod:`belief.translate` (checked
translation of observations into belief facts, all-or-nothing), :mod:`belief.messages` (messages through
a trust policy), :mod:`belief.translate_env` (environments and their deterministic rule translators, the
default, by name), :mod:`belief.translate_prompts` (the LLM prompts), :mod:`belief.translate_config` (a
translator declared in a file), :mod:`belief.testing.llm_server` (a scripted OpenAI-compatible loopback
server for tests).
"""

from belief.llm_client import (
    LLMClient, LLMConfig, LLMConfigError, LLMError, LLMOutputError, LLMResponseError, LLMUnavailableError, TokenUsage,
)
from belief.messages import Reception, message_claims, receive_message
from belief.translate import Translation, TranslationError, Translator
from belief.translate_config import TranslatorConfig
from belief.translate_env import TranslationEnv, env_names, get_env, register_env

__all__ = [
    "LLMClient", "LLMConfig", "LLMConfigError", "LLMError", "LLMOutputError", "LLMResponseError",
    "LLMUnavailableError", "TokenUsage", "Translation", "TranslationError", "Translator", "TranslatorConfig",
    "Reception", "message_claims", "receive_message", "TranslationEnv", "env_names", "get_env", "register_env",
]
