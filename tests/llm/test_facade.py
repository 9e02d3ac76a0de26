import subprocess
import sys


def test_the_llm_layer_is_importable_as_belief_llm():
    import belief.envs  # noqa: F401  (environments register their translators when imported)
    import belief.llm as llm
    from belief.llm.client import LLMClient
    from belief.llm.translate import Translator

    assert llm.LLMClient is LLMClient and llm.Translator is Translator
    assert "bomb" in llm.env_names()
    assert all(hasattr(llm, name) for name in llm.__all__)


def test_environments_register_themselves_the_core_does_not_know_them():
    code = ("import belief.llm as llm; assert llm.env_names() == [], llm.env_names(); "
            "import belief.envs.bomb.environment; assert llm.env_names() == ['bomb'], llm.env_names(); "
            "assert llm.get_env('bomb_v0').name == 'bomb'")
    subprocess.run([sys.executable, "-c", code], check=True)


#: what ``belief.llm_client`` (now ``belief.llm.client``) offered before it was split by job
OLD_CLIENT_NAMES = [
    "LLMClient", "LLMConfig", "LLMConfigError", "LLMError", "LLMOutputError", "LLMResponseError", "LLMUnavailableError",
    "TokenUsage", "ResponseCache", "Completion", "Structured", "extract_json", "response_usage", "call_deadline",
    "retry_after", "load_mapping", "one_line", "ENV_BASE_URL", "ENV_API_KEY", "ENV_MODEL", "ENV_CONFIG",
    "PLACEHOLDER_KEY", "MAX_REPLY_BYTES", "RETRY_STATUSES", "CACHE_SCHEMA",
]


def test_the_names_of_the_client_module_before_its_split_are_still_importable():
    import belief.llm.client as client
    import belief.llm_client as old  # the old flat name (belief.old_names)

    assert old is client
    missing = [name for name in OLD_CLIENT_NAMES if not hasattr(client, name)]
    assert missing == []
    from belief.llm.cache import ResponseCache
    from belief.llm.config import LLMConfig
    from belief.llm.errors import LLMError
    assert (client.ResponseCache, client.LLMConfig, client.LLMError) == (ResponseCache, LLMConfig, LLMError)
