"""The retry policy's arithmetic: backoff, the call's deadline, Retry-After in its three forms."""
import email.utils
import time

import pytest

from belief.llm.config import LLMConfig
from belief.llm.retries import backoff, call_deadline, retry_after


def test_backoff_doubles_from_half_a_second_up_to_eight():
    assert [backoff(r) for r in range(1, 7)] == [0.5, 1.0, 2.0, 4.0, 8.0, 8.0]


def test_the_call_deadline_counts_every_attempt_and_wait():
    assert call_deadline(LLMConfig(timeout=2, max_retries=0)) == 2
    assert call_deadline(LLMConfig(timeout=2, max_retries=3)) == 2 * 4 + 0.5 + 1 + 2


@pytest.mark.parametrize("headers,seconds", [
    ({"retry-after-ms": "250"}, 0.25),
    ({"retry-after": "3"}, 3.0),
    ({"retry-after-ms": "100", "retry-after": "9"}, 0.1),
    ({"retry-after": "-5"}, 0.0),
    ({"retry-after": "nan"}, None),
    ({"retry-after": "soon"}, None),
    ({}, None),
])
def test_retry_after(headers, seconds):
    assert retry_after(headers) == seconds


def test_retry_after_as_an_http_date():
    when = email.utils.formatdate(time.time() + 60, usegmt=True)
    assert 55 <= retry_after({"retry-after": when}) <= 61
