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
