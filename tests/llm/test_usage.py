"""Token accounting: usage from dicts or SDK objects, counters safe under threads."""
import threading
from types import SimpleNamespace

from belief.llm.usage import TokenUsage


def test_usage_sums_dicts_and_objects_and_fills_a_missing_total():
    u = TokenUsage()
    u.add({"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5})
    u.add(SimpleNamespace(prompt_tokens=1, completion_tokens=4, total_tokens=None))
    u.add(None)
    u.add({})
    assert (u.prompt_tokens, u.completion_tokens, u.total_tokens) == (4, 6, 10)


def test_counters_under_threads():
    u = TokenUsage()

    def work():
        for _ in range(1000):
            u.count_request()
            u.count_cache_hit()
            u.add({"prompt_tokens": 1, "completion_tokens": 1})
        u.count_failure()

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert u.to_json() == {"prompt_tokens": 4000, "completion_tokens": 4000, "total_tokens": 8000,
                           "requests": 4000, "cache_hits": 4000, "failures": 4}
