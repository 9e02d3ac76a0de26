from hypothesis import given, strategies as st

from belief.envs.base.tokens import count_tokens, tokenize


def test_known_counts():
    assert tokenize("apple_1 IN kitchen_1") == ["apple", "_", "1", "IN", "kitchen", "_", "1"]
    assert count_tokens("apple_1 IN kitchen_1") == 8
    assert count_tokens("") == 0
    assert count_tokens("   \n\t") == 0
    assert count_tokens("1234567") == 3


@given(st.text())
def test_deterministic_and_nonnegative(s):
    assert count_tokens(s) == count_tokens(s) >= 0


@given(st.text(), st.text())
def test_additive_over_whitespace(a, b):
    assert count_tokens(a + " " + b) == count_tokens(a) + count_tokens(b)
