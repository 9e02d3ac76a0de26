"""The openai client against a real loopback server: configuration, structured output, faults, usage, cache."""
import json

import pytest
from pydantic import BaseModel

from belief.errors import BeliefError
from belief.llm.client import (LLMClient, LLMConfig, LLMConfigError, LLMOutputError, LLMResponseError,
                               LLMUnavailableError, ResponseCache)
from belief.testing.llm_server import FakeOpenAI


class Facts(BaseModel):
    facts: list[str]


MSG = [{"role": "user", "content": "translate"}]


def test_structured_output_uses_response_format(fake, client_for):
    fake.push({"json": {"facts": ["alpha BELIEVE bomb_1 IN room_0"]}, "usage": {"prompt_tokens": 11,
                                                                               "completion_tokens": 7}})
    llm = client_for(fake)
    out = llm.structured(MSG, Facts)
    assert out.value.facts == ["alpha BELIEVE bomb_1 IN room_0"]
    assert out.mode == "json_schema"
    rf = fake.requests[0]["response_format"]
    assert rf["type"] == "json_schema" and rf["json_schema"]["schema"]["required"] == ["facts"]
    assert llm.usage.prompt_tokens == 11 and llm.usage.completion_tokens == 7 and llm.usage.total_tokens == 18
    assert fake.count == 1


def test_fallback_to_json_in_text_when_response_format_is_rejected(fake, client_for):
    fake.push({"reject_response_format": True, "content": "x"}, {"reject_response_format": True, "content": "x"},
              "Sure! Here you go:\n```json\n{\"facts\": [\"a IN b\"]}\n```")
    llm = client_for(fake)
    out = llm.structured(MSG, Facts)
    assert out.value.facts == ["a IN b"] and out.mode == "text" and llm.mode == "text"
    assert fake.count == 3
    assert fake.requests[0]["response_format"]["type"] == "json_schema"
    assert fake.requests[1]["response_format"]["type"] == "json_object"
    assert "response_format" not in fake.requests[2]
    assert "JSON schema" in fake.requests[2]["messages"][0]["content"]
    # the client remembers: the next call goes straight to text mode
    fake.push('{"facts": []}')
    llm.structured([{"role": "user", "content": "again"}], Facts)
    assert fake.count == 4 and "response_format" not in fake.requests[3]


def test_llama_cpp_style_500_on_json_schema_moves_to_json_mode(fake, client_for):
    """llama.cpp's server answers a json_schema response_format with HTTP 500 naming response_format."""
    fake.push({"reject_response_format": ["json_schema"], "reject_status": 500, "content": "x"},
              {"reject_response_format": ["json_schema"], "content": '{"facts": ["a IN b"]}'})
    llm = client_for(fake)
    out = llm.structured(MSG, Facts)
    assert out.mode == "json_object" and out.value.facts == ["a IN b"] and fake.count == 2
    rf = fake.requests[1]["response_format"]
    assert rf["type"] == "json_object" and rf["schema"]["required"] == ["facts"]


def test_concurrent_rejections_move_the_mode_once(client_for):
    """Several requests in flight when the server rejects json_schema (llama.cpp's 500): each rejection moves the
    client on from the mode *its* request used, so the client lands on json_object, not text, and no request
    fails as a plain HTTP error (seen with `belief eval --mode tracker --concurrency 4` against llama.cpp)."""
    from concurrent.futures import ThreadPoolExecutor

    def respond(request):
        kind = (request.get("response_format") or {}).get("type")
        if kind == "json_schema":  # slow, so every thread's first request is in flight at once
            return {"delay": 0.5, "status": 500, "body": {"error": {"message": "1 validation error: response_format"
                                                                    ".type: Input should be 'text' or 'json_object'"}}}
        if kind == "json_object":
            return '{"facts": ["a IN b"]}'
        return "prose, not JSON"  # text mode: the client skipped json_object

    with FakeOpenAI(responder=respond) as srv:
        llm = client_for(srv)
        with ThreadPoolExecutor(6) as pool:
            outs = list(pool.map(lambda i: llm.structured([{"role": "user", "content": f"q{i}"}], Facts), range(6)))
        assert llm.mode == "json_object"
        assert all(o.value.facts == ["a IN b"] and o.mode == "json_object" for o in outs)
        kinds = [(r.get("response_format") or {}).get("type") for r in srv.requests]
        assert kinds.count("json_schema") == 6 and kinds.count("json_object") == 6 and None not in kinds


def test_structured_mode_can_be_pinned(fake, client_for):
    fake.push({"reject_response_format": True, "content": "x"})
    with pytest.raises(LLMResponseError, match="HTTP 400"):
        client_for(fake, structured="json_schema").structured(MSG, Facts)
    assert fake.count == 1


def test_server_ignoring_schema_answers_with_prose_json(fake, client_for):
    fake.push('The facts are {"facts": ["x IN y"]} as requested.')
    out = client_for(fake).structured(MSG, Facts)
    assert out.value.facts == ["x IN y"] and out.mode == "text"


@pytest.mark.parametrize("reply,needle", [
    ({"raw": "{not json", "status": 200}, "not JSON"),
    ({"raw": json.dumps({"object": "chat.completion", "choices": []})}, "no choices"),
    ("this is not json at all", "not JSON"),
    ({"json": {"facts": "alpha BELIEVE x"}}, "facts: Input should be a valid list"),
    ({"json": {"fact": ["a IN b"]}}, "facts: Field required"),
    ({"refusal": "I cannot help with that"}, "refused"),
])
def test_malformed_and_schema_violating_replies_raise_output_errors(fake, client_for, reply, needle):
    fake.push(reply)
    llm = client_for(fake)
    with pytest.raises(LLMOutputError) as ei:
        llm.structured(MSG, Facts)
    assert needle in str(ei.value) or any(needle in p for p in ei.value.problems)
    assert "\n" not in str(ei.value)
    assert fake.count == 1  # output errors are not retried by the client (the translator decides)


def test_429_is_retried_with_backoff_then_recovers(fake, client_for):
    fake.push({"status": 429, "headers": {"retry-after-ms": "20"}},
              {"status": 429, "headers": {"retry-after-ms": "20"}},
              '{"facts": ["ok IN here"]}')
    llm = client_for(fake, max_retries=2)
    assert llm.structured(MSG, Facts).value.facts == ["ok IN here"]
    assert fake.count == 3


def test_500_exhausts_bounded_retries_with_one_line_error(fake, client_for):
    fake.push(*[{"status": 500, "headers": {"retry-after-ms": "10"}}] * 5)
    llm = client_for(fake, max_retries=2)
    with pytest.raises(LLMUnavailableError) as ei:
        llm.chat(MSG)
    assert fake.count == 3  # 1 + max_retries, no more
    assert "HTTP 500" in str(ei.value) and "\n" not in str(ei.value)
    assert llm.usage.failures == 1


def test_rate_limit_exhausted(fake, client_for):
    fake.push(*[{"status": 429, "headers": {"retry-after-ms": "10"}}] * 3)
    with pytest.raises(LLMUnavailableError, match="HTTP 429"):
        client_for(fake, max_retries=1).chat(MSG)
    assert fake.count == 2


def test_timeouts_are_bounded(fake, client_for):
    fake.push({"delay": 3, "content": "late"}, {"delay": 3, "content": "late"}, {"delay": 3, "content": "late"})
    llm = client_for(fake, timeout=0.3, max_retries=1)
    with pytest.raises(LLMUnavailableError, match="timed out"):
        llm.chat(MSG)
    assert fake.count == 2


def test_timeout_then_recovery(fake, client_for):
    # the second reply must beat the timeout even on a loaded machine: keep the timeout well above a reply's time
    fake.push({"delay": 6, "content": "late"}, "on time")
    assert client_for(fake, timeout=2.0, max_retries=1).chat(MSG).text == "on time"
    assert fake.count == 2


def test_non_retryable_http_error(fake, client_for):
    fake.push({"status": 401, "body": {"error": {"message": "bad key"}}})
    with pytest.raises(LLMResponseError, match="HTTP 401.*bad key") as ei:
        client_for(fake, max_retries=3).chat(MSG)
    assert ei.value.status == 401 and fake.count == 1


def test_unreachable_endpoint():
    srv = FakeOpenAI()  # bound, never started: then closed, so the port refuses connections
    url = srv.base_url
    srv._server.server_close()
    llm = LLMClient(LLMConfig(base_url=url, model="m", timeout=0.5, max_retries=1))
    with pytest.raises(LLMUnavailableError, match="cannot reach|timed out") as ei:
        llm.chat(MSG)
    assert isinstance(ei.value, BeliefError)


def test_cache_answers_identical_requests(fake, client_for, tmp_path):
    path = tmp_path / "cache.sqlite"
    fake.push('{"facts": ["a IN b"]}', "hello")
    llm = client_for(fake, cache_path=str(path))
    a = llm.structured(MSG, Facts)
    b = llm.structured(MSG, Facts)
    assert a.value == b.value and b.cached and fake.count == 1
    assert llm.usage.cache_hits == 1 and llm.usage.requests == 1
    llm.chat(MSG)
    assert fake.count == 2  # a plain chat is a different request (no schema)
    # persisted: a new client with the same file makes no request
    llm2 = client_for(fake, cache_path=str(path))
    assert llm2.structured(MSG, Facts).cached and llm2.chat(MSG).text == "hello"
    assert fake.count == 2
    assert len(ResponseCache(path)) == 2


def test_cache_can_be_disabled(fake, client_for):
    fake.push("one", "two")
    llm = client_for(fake, cache=False)
    assert llm.chat(MSG).text == "one" and llm.chat(MSG).text == "two"


def test_failed_replies_are_not_cached(fake, client_for):
    fake.push("garbage", '{"facts": ["a IN b"]}')
    llm = client_for(fake)
    with pytest.raises(LLMOutputError):
        llm.structured(MSG, Facts)
    assert llm.structured(MSG, Facts).value.facts == ["a IN b"]


def test_missing_model_is_a_config_error():
    with pytest.raises(LLMConfigError, match="no model"):
        LLMClient(LLMConfig(base_url="http://127.0.0.1:9/v1"))


def test_concurrent_requests_count_usage(fake, client_for):
    import threading

    fake.responder = lambda req: {"content": "ok", "usage": {"prompt_tokens": 2, "completion_tokens": 1}}
    llm = client_for(fake, cache=False)
    threads = [threading.Thread(target=llm.chat, args=([{"role": "user", "content": str(i)}],)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert llm.usage.requests == 8 and llm.usage.total_tokens == 24 and fake.count == 8
