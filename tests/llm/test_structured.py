"""Reading replies as a schema: JSON found in prose or fences, exact problems, the text-mode instruction."""
import json

import pytest
from pydantic import BaseModel

from belief.llm.errors import LLMOutputError
from belief.llm.structured import extract_json, read_structured, text_mode_messages


class Facts(BaseModel):
    facts: list[str]


def test_extract_json_variants():
    assert extract_json('{"a": 1}') == {"a": 1}
    assert extract_json('text ```json\n{"a": 2}\n``` more') == {"a": 2}
    assert extract_json('prefix {"a": 3} suffix {"b": 4}') == {"a": 3}
    assert extract_json('[1, {"b": "}"}]') == [1, {"b": "}"}]
    for text in ("nothing here", "", "   ", "{unbalanced"):
        with pytest.raises(ValueError):
            extract_json(text)
    with pytest.raises(ValueError, match="longer than 10"):
        extract_json('{"a": "' + "x" * 20 + '"}', max_chars=10)


def test_read_structured_gives_the_instance_or_the_exact_problems():
    out = read_structured('Here: {"facts": ["a IN b"]}', Facts, {"total_tokens": 3}, mode="text")
    assert out.value == Facts(facts=["a IN b"]) and out.mode == "text" and out.usage == {"total_tokens": 3}
    with pytest.raises(LLMOutputError) as ei:
        read_structured('{"facts": [1, "x"], "extra": 1}', Facts, {}, mode="text")
    assert ei.value.problems == ["facts.0: Input should be a valid string"]
    with pytest.raises(LLMOutputError, match="not JSON") as ei:
        read_structured("no json", Facts, {}, mode="text")
    assert "reply with one JSON object" in ei.value.problems[0] and ei.value.raw == "no json"


def test_text_mode_adds_the_schema_to_the_system_message_without_changing_the_input():
    schema = json.dumps(Facts.model_json_schema(), sort_keys=True)
    user = [{"role": "user", "content": "u"}]
    msgs = text_mode_messages(user, Facts)
    assert msgs[0]["role"] == "system" and schema in msgs[0]["content"] and msgs[1:] == user and len(user) == 1
    system = [{"role": "system", "content": "be brief"}, *user]
    msgs = text_mode_messages(system, Facts)
    assert msgs[0]["content"].startswith("be brief\n\n") and schema in msgs[0]["content"] and len(msgs) == 2
    assert system[0]["content"] == "be brief"
