def test_the_llm_layer_is_importable_as_belief_llm():
    import belief.llm as llm
    from belief.llm_client import LLMClient
    from belief.translate import Translator

    assert llm.LLMClient is LLMClient and llm.Translator is Translator
    assert "bomb" in llm.env_names()
    assert all(hasattr(llm, name) for name in llm.__all__)
