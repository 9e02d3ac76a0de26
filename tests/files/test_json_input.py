"""Strict JSON from untrusted files: one BeliefError (of the caller's class) for every hostile input."""

import pytest

from belief.errors import BeliefError, TraceError
from belief.files.json_input import MAX_INT_DIGITS, load_json, read_json_lines, read_text


@pytest.mark.parametrize("text, phrase", [
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ("9" * 5000, "an integer of 5000 digits"),
    ("1" * (MAX_INT_DIGITS + 1), f"an integer of {MAX_INT_DIGITS + 1} digits"),
    ("NaN", "NaN is not valid here"),
    ("-Infinity", "-Infinity is not valid here"),
    ("1e999", "too large for a float"),
    ('{"a": -1e400}', "too large for a float"),
    ("{", "invalid JSON"),
])
def test_hostile_json_is_one_error_of_the_callers_class(text, phrase):
    with pytest.raises(TraceError, match=phrase) as e:
        load_json(text, "f:1: ", TraceError)
    assert str(e.value).startswith("f:1: invalid JSON")


def test_good_json_and_a_byte_order_mark():
    assert load_json('{"a": [1, 2.5, "x", null, true], "b": 1e308}') == {"a": [1, 2.5, "x", None, True], "b": 1e308}
    assert load_json("\ufeff[1]") == [1]
    assert load_json("1" * MAX_INT_DIGITS) == int("1" * MAX_INT_DIGITS)


def test_json_lines_name_the_file_and_line(tmp_path):
    p = tmp_path / "a.jsonl"
    p.write_text("\ufeff{\"a\": 1}\n\n[2]\n", encoding="utf-8")
    assert read_json_lines(p) == [{"a": 1}, [2]]
    p.write_text('{"a": 1}\n{"b": NaN}\n', encoding="utf-8")
    with pytest.raises(BeliefError, match=r"a.jsonl:2: invalid JSON: NaN"):
        read_json_lines(p)
    with pytest.raises(BeliefError, match="no such file"):
        read_text(tmp_path / "missing.jsonl")
    (tmp_path / "bad.txt").write_bytes(b"\xff\xfe")
    with pytest.raises(BeliefError, match="cannot read"):
        read_text(tmp_path / "bad.txt")
