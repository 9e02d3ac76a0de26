"""Fixtures for the LLM tests: a real OpenAI-compatible HTTP server on 127.0.0.1 (scripted replies)."""
import pytest

from belief.testing.llm_server import FakeOpenAI


@pytest.fixture
def fake():
    """A started FakeOpenAI; push replies with fake.push(...); fake.count is the number of requests seen."""
    with FakeOpenAI() as srv:
        yield srv


@pytest.fixture
def client_for():
    """Build an LLMClient against a fake server (no env leakage)."""
    from belief.llm.client import LLMClient, LLMConfig

    def make(srv, **kw):
        # generous by default: a loaded CI machine must not turn expected answers into timeouts;
        # tests of timeouts pass a short one explicitly
        cfg = dict(base_url=srv.base_url, model="fake", api_key="test", timeout=10.0, max_retries=0)
        cfg.update(kw)
        return LLMClient(LLMConfig(**cfg))

    return make


@pytest.fixture
def alpha_reads():
    """``alpha_reads(text) -> (translation, {fact strings})``: the bomb world's rule translation of one
    observation for alpha."""
    import belief.envs  # noqa: F401  (registers the "bomb" translation env)
    from belief.llm.translate import Translator
    from belief.llm.translation_envs import get_env

    def read(text: str):
        out = Translator(get_env("bomb")).translate(text, "alpha")
        return out, {str(f) for f in out.facts}

    return read
