"""The LLM errors: one family under BeliefError, one-line wording."""
import pytest
from pydantic import BaseModel, ValidationError

from belief.errors import BeliefError
from belief.llm import errors
from belief.llm.errors import LLMError, LLMOutputError, one_line, validation_problems


def test_every_llm_error_is_a_belief_error():
    kinds = [getattr(errors, n) for n in errors.__all__ if n.endswith("Error")]
    assert len(kinds) == 6 and all(issubclass(k, LLMError) and issubclass(k, BeliefError) for k in kinds)


def test_one_line_and_problems():
    assert one_line("a\n  b\tc") == "a b c"
    assert one_line("x" * 300, 10) == "xxxxxxx..."

    class M(BaseModel):
        n: int

    with pytest.raises(ValidationError) as ei:
        M.model_validate({"n": "x"})
    assert validation_problems(ei.value) == ["n: Input should be a valid integer, unable to parse string as an integer"]
    assert LLMOutputError("bad").problems == ["bad"]
