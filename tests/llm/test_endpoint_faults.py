"""LLM endpoint faults (issue 11): bounded time, one LLMError line, nothing written.

Every case uses the real ``openai`` client over HTTP against the loopback FakeOpenAI. Each call runs in a
thread joined with a generous bound, so a regression fails in seconds instead of hanging the suite.
"""
import json
import threading
import time

import pytest
from typer.testing import CliRunner

from belief.app.cli import app
from belief.llm.client import (LLMClient, LLMConfig, LLMError, LLMOutputError, LLMUnavailableError, ResponseCache,
                               extract_json)
from belief.llm.prompts import FactList

MSGS = [{"role": "user", "content": "facts, please"}]
BOUND = 20.0  # seconds: a hang (or a minute-long drip) fails the test instead of the suite


def bounded(fn, seconds: float = BOUND):
    """(result or exception, elapsed seconds) of ``fn()``; fails if it has not returned within ``seconds``."""
    out: dict = {}

    def run():
        t0 = time.monotonic()
        try:
            out["value"] = fn()
        except BaseException as e:  # noqa: BLE001 - handed back to the test
            out["error"] = e
        out["elapsed"] = time.monotonic() - t0

    th = threading.Thread(target=run, daemon=True)
    th.start()
    th.join(seconds)
    assert not th.is_alive(), f"still running after {seconds} s"
    return out.get("error", out.get("value")), out["elapsed"]


def test_a_dripping_server_is_cut_at_the_attempt_deadline(fake, client_for):
    fake.default = {"json": {"facts": []}, "drip": 0.5}  # a valid reply, one byte every 0.5 s
    client = client_for(fake, timeout=1.0, max_retries=1)
    err, elapsed = bounded(lambda: client.structured(MSGS, FactList))
    assert isinstance(err, LLMUnavailableError) and "timed out" in str(err), err
    assert fake.count == 2, "one retry after the first deadline"
    assert elapsed < 6, elapsed  # the whole call is bounded by (max_retries + 1) x timeout = 2 s, plus slack
    assert client.usage.failures == 1 and client.usage.requests == 0


def test_a_drip_that_fits_in_the_deadline_is_answered(fake, client_for):
    fake.push({"content": '{"facts": []}', "drip": 0.0005})
    client = client_for(fake, timeout=10.0, structured="text")
    value, _ = bounded(lambda: client.structured(MSGS, FactList))
    assert not isinstance(value, BaseException), value
    assert value.value.facts == []


def test_retry_after_beyond_the_deadline_is_not_waited_for(fake, client_for):
    fake.default = {"status": 429, "headers": {"Retry-After": "100"}}
    client = client_for(fake, timeout=1.0, max_retries=2)
    err, elapsed = bounded(lambda: client.chat(MSGS))
    assert isinstance(err, LLMUnavailableError), err
    assert "HTTP 429" in str(err) and "retry after 100 s" in str(err) and "\n" not in str(err)
    assert fake.count == 1 and elapsed < 5


def test_a_short_retry_after_is_honoured(fake, client_for):
    fake.push({"retry_after": 0.3}, "hello")
    client = client_for(fake, timeout=5.0, max_retries=1)
    value, elapsed = bounded(lambda: client.chat(MSGS))
    assert not isinstance(value, BaseException), value
    assert value.text == "hello" and fake.count == 2 and elapsed >= 0.3


def test_json_extraction_is_linear_on_adversarial_replies():
    # each took from seconds to minutes with one decode attempt per '{' (a megabyte of '{': ~30 s)
    for text in ("{" * 1_000_000, "[" * 1_000_000, '{"a": ' * 200_000, '{"' * 500_000, '"' * 1_000_000):
        value, _ = bounded(lambda text=text: _extract(text))
        assert isinstance(value, ValueError), value
    value, _ = bounded(lambda: _extract("x {" * 300_000 + '{"ok": 1}'))
    assert value == {"ok": 1}
    value, _ = bounded(lambda: _extract("[" * 100_000 + "]" * 100_000))
    assert isinstance(value, (ValueError, list)), value  # a value json can read, or none: never RecursionError
    assert extract_json('prose [note] {"facts": ["a ] b"]} more {"x": 1}') == {"facts": ["a ] b"]}


def _extract(text):
    try:
        return extract_json(text)
    except ValueError as e:
        return e


def test_a_huge_reply_is_an_output_error(fake, client_for):
    fake.default = {"huge": 1_000_000}  # a megabyte of '{'
    client = client_for(fake, structured="text")
    err, _ = bounded(lambda: client.structured(MSGS, FactList))
    assert isinstance(err, LLMOutputError), err
    assert fake.count == 1


def test_replies_over_the_size_cap_are_refused_unread(fake, client_for):
    fake.default = {"huge": 300_000}
    client = client_for(fake, max_reply_bytes=100_000, max_retries=2)
    err, _ = bounded(lambda: client.chat(MSGS))
    assert isinstance(err, LLMOutputError) and "100000 bytes" in str(err), err
    assert fake.count == 1, "a reply too large is not asked for again"


@pytest.mark.parametrize("where", ["content", "body"])
def test_deeply_nested_json_is_an_llm_error(fake, client_for, where):
    fake.default = {"nested": 100_000, "where": where}
    for mode in ("json_schema", "json_object", "text"):
        client = client_for(fake, structured=mode)
        err, _ = bounded(lambda client=client: client.structured(MSGS, FactList))
        assert isinstance(err, LLMError) and not isinstance(err, RecursionError), repr(err)
        assert "\n" not in str(err)
    client = client_for(fake)
    value, _ = bounded(lambda: client.chat(MSGS))
    if where == "body":
        assert isinstance(value, LLMOutputError), repr(value)
    else:
        assert value.text.startswith("[[[")


def test_cache_false_means_no_cache(fake, client_for):
    fake.default = "hi"
    client = LLMClient(LLMConfig(base_url=fake.base_url, model="fake", api_key="k", max_retries=0), cache=False)
    assert client.chat(MSGS).text == "hi" and client.chat(MSGS).text == "hi"
    assert fake.count == 2 and client.usage.cache_hits == 0 and client.cache is None
    shared = ResponseCache()
    a = LLMClient(LLMConfig(base_url=fake.base_url, model="fake", api_key="k"), cache=shared)
    a.chat(MSGS)
    assert fake.count == 3 and len(shared) == 1


def test_translate_cli_on_a_dripping_server_ends_with_one_line(monkeypatch):
    for var in ("OPENAI_BASE_URL", "OPENAI_API_KEY", "BELIEF_MODEL", "BELIEF_LLM_CONFIG"):
        monkeypatch.delenv(var, raising=False)
    from belief.testing.llm_server import FakeOpenAI

    with FakeOpenAI(default={"json": {"facts": []}, "drip": 0.5}) as srv:
        r, elapsed = bounded(lambda: CliRunner().invoke(app, [
            "translate", "--agent", "alpha", "--llm", "--base-url", srv.base_url, "--model", "fake",
            "--timeout", "1", "--max-retries", "0", "Bomb 1 is here."]))
    assert r.exit_code == 1 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("error: timed out")
    assert elapsed < 10


@pytest.mark.parametrize("where", ["content", "body"])
def test_run_transport_llm_survives_deeply_nested_replies(fake, where):
    """Before: a RecursionError traceback out of ``run transport --llm``. Now each part falls back."""
    fake.default = {"nested": 100_000, "where": where}
    r, _ = bounded(lambda: CliRunner().invoke(app, [
        "run", "transport", "--episode", "0", "--max-steps", "4", "--llm", "--base-url", fake.base_url,
        "--model", "fake", "--max-retries", "0", "--json"]), seconds=60)
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    assert r.exit_code == 0, r.output
    row = json.loads(r.stdout.strip().splitlines()[-1])
    assert fake.count > 0 and row["llm"]["update"]["fallbacks"] > 0 and row["llm"]["update"]["llm"] == 0
