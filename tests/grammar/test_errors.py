"""Syntax errors: exact line and column, a caret line, the expectation in words, never a lark traceback."""

from pathlib import Path

import pytest

from belief import BeliefError, BeliefSyntaxError
from belief.grammar import parse_document, parse_fact, parse_readable_document
from belief.logic.scenario import read_document

CASES = [line.split("\t") for line in (Path(__file__).resolve().parents[1] / "fixtures" / "grammar" / "errors.txt")
         .read_text().splitlines() if line and not line.startswith("#")]


@pytest.mark.parametrize("text,line,column,message", CASES, ids=[c[0] for c in CASES])
def test_error_position_and_message(text, line, column, message):
    text = text.replace("\\n", "\n")
    with pytest.raises(BeliefSyntaxError) as e:
        parse_readable_document(text)
    err = e.value
    assert (err.line, err.column) == (int(line), int(column))
    assert message in err.message
    rendered = str(err)
    assert rendered.splitlines()[-1].strip() == "^"
    assert rendered.splitlines()[-1].index("^") - 4 == err.column - 1


def test_every_bad_line_is_reported():
    with pytest.raises(BeliefSyntaxError) as e:
        parse_readable_document("a IN b\nc BELIEVE d\nx IN y\nfoo bar\n")
    assert [(x.line, x.column) for x in e.value.all_errors] == [(2, 12), (4, 5)]
    assert "and 1 more error" in e.value.message


def test_source_name_is_shown():
    with pytest.raises(BeliefSyntaxError) as e:
        parse_document("a IN", source="facts.bel")
    assert str(e.value).startswith("facts.bel:1:5:")


@pytest.mark.parametrize("text", ["", "   ", "(", ")", "(believes", "(in a", "((in a b))", "(prob 2 (in a b))",
                                  "(not (believes a (in b c)))", "@", "? ?", "a IN b @ @", "\x00", "(not x)",
                                  "(define (domain d) (:functional nope))", "believes(a)", "a BELIEVE not(b)"])
def test_bad_input_raises_only_belief_errors(text):
    """Syntax errors from the grammar, declaration errors (an unknown :functional predicate) when the
    declarations become typed values."""
    with pytest.raises(BeliefError):
        read_document(text) if text.strip().startswith("(") else parse_fact(text)


def test_a_formula_deeper_than_the_limit_is_a_syntax_error_at_the_offending_operator():
    from belief.logic.formula import MAX_DEPTH

    chain = [f"a{i % 2}" for i in range(MAX_DEPTH + 5)]
    line = " BELIEVE ".join(chain) + " BELIEVE x IN y"
    with pytest.raises(BeliefSyntaxError) as e:
        parse_readable_document("a IN b\n" + line + "\n", source="f")
    err = e.value
    assert (err.line, "deeper than 256" in err.message) == (2, True)
    assert line[err.column - 1:].startswith("BELIEVE") and line[:err.column - 1].count("BELIEVE") == MAX_DEPTH
    sexpr = "".join(f"(believes {a} " for a in chain) + "(in x y)" + ")" * len(chain)
    with pytest.raises(BeliefSyntaxError) as e:
        parse_document("; deep\n" + sexpr)
    assert e.value.line == 2 and sexpr[e.value.column - 1:].startswith(f"(believes {chain[MAX_DEPTH]}")
    assert sexpr[:e.value.column - 1].count("(believes") == MAX_DEPTH


def test_an_error_in_a_huge_line_shows_a_window_around_the_column():
    with pytest.raises(BeliefSyntaxError) as e:
        parse_fact("a IN b " + "x" * 1_000_000)
    text = str(e.value)
    assert len(text) < 400 and "..." in text
    shown, caret = text.splitlines()[1:3]
    assert caret.index("^") < len(shown) and shown[caret.index("^"):].startswith("x")
