"""The hand-written fast paths (``ReadableLines``, ``SexprFacts``) against lark: on generated valid input they
take the input and give the facts lark gives; on mutated and fuzzed input every entry point gives the same
facts or the same error (class, message, line, column, every line's error) with or without them."""

from __future__ import annotations

import contextlib
from typing import Any, Callable, Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from belief import BeliefError
from belief.app.bench.parse import generate_fact_lines
from belief.grammar import (parse_document, parse_fact, parse_query, parse_readable_document, parse_sexpr_document,
                            to_readable, to_sexpr)
from belief.grammar import parser as grammar_parser
from belief.grammar.parser import _readable_lines, _sexpr_facts
from belief.testing import strategies as bst

ENTRY_POINTS: list[Callable[[str], Any]] = [parse_readable_document, parse_sexpr_document, parse_document, parse_fact,
                                            parse_query]


@contextlib.contextmanager
def lark_only() -> Iterator[None]:
    grammar_parser.FAST_PATHS = False
    try:
        yield
    finally:
        grammar_parser.FAST_PATHS = True


def outcome(parse: Callable[[str], Any], text: str) -> tuple:
    """('ok', result) or ('error', class, rendered message with position and caret, line, column, all errors)."""
    try:
        return ("ok", parse(text))
    except BeliefError as e:
        every = [(type(x).__name__, str(x), x.line, x.column) for x in getattr(e, "all_errors", [])]
        return ("error", type(e).__name__, str(e), getattr(e, "line", None), getattr(e, "column", None), every)


def assert_same_as_lark(text: str, entry_points: list[Callable[[str], Any]] = ENTRY_POINTS) -> None:
    for parse in entry_points:
        fast = outcome(parse, text)
        with lark_only():
            reference = outcome(parse, text)
        assert fast == reference, (parse.__name__, text)


# --- valid input: generated facts of depth 0-4 in both forms, laid out in every way the grammar allows -----------

_SPACES = st.sampled_from([" ", " ", " ", "  ", "\t", " \f", "\r "])
_FACTS = st.lists(bst.facts(allow_variables=True, max_depth=4), min_size=1, max_size=6)


def _relayout(text: str, data: st.DataObject, spaces: st.SearchStrategy[str]) -> str:
    return "".join(data.draw(spaces) if c == " " else c for c in text)


@settings(max_examples=300, deadline=None)
@given(_FACTS, st.data())
def test_generated_readable_documents_take_the_fast_path_and_equal_lark(facts, data):
    lines = []
    for f in facts:
        lines.append(data.draw(st.sampled_from(["", " ", "\t"])) + _relayout(to_readable(f), data, _SPACES)
                     + data.draw(st.sampled_from(["", " ", "\r", " # note", "#x"])))
        lines.extend(data.draw(st.lists(st.sampled_from(["", "  ", "# comment", "\t# c"]), max_size=2)))
    text = "\n".join(lines)
    fast = _readable_lines().parse(text, "document")
    with lark_only():
        reference = parse_readable_document(text)
    assert fast == reference == facts
    assert parse_readable_document(text) == facts
    for f in facts:
        assert _readable_lines().parse(to_readable(f), "fact") == f == parse_fact(to_readable(f))


@settings(max_examples=300, deadline=None)
@given(_FACTS, st.data())
def test_generated_sexpr_documents_take_the_fast_path_and_equal_lark(facts, data):
    text = data.draw(st.sampled_from(["", "\n", " "])).join(to_sexpr(f) for f in facts)
    text = _relayout(text, data, st.sampled_from([" ", "  ", "\n", "\t", "\r\n  ", "\f"]))
    fast = _sexpr_facts().parse(text)
    with lark_only():
        reference = parse_sexpr_document(text)
    assert fast == reference == facts
    assert parse_sexpr_document(text) == facts


# readable lines written token by token: entity tags, variables, BELIEVES, odd numbers, calls, comments
_NAME = st.sampled_from(["alice", "Bob", "apple", "box_1", "k-2", "7", "INSIDE", "NOTE", "IN_box", "BELIEVER"])
_TERM = st.one_of(_NAME, _NAME.map(lambda s: "?" + s),
                  st.sampled_from(["<apple>", "<wine glass> (3)", "<a>(12)", "<b-1>\t( 7 )", "<x y>"]))
_NUMBER = st.sampled_from(["0", "1", "0.5", ".25", "1e-3", "0.999", "00.10", "2", "1.5", "1e400", "5.", "1E0"])
_ATOM = st.one_of(
    st.tuples(_TERM, st.sampled_from(["IN", "AT", "HOLD", "CONTAIN", "EXPLORED"]), _TERM).map(" ".join),
    st.tuples(st.one_of(_NAME, st.sampled_from(["not", "prob", "?p", "<t>"])), st.lists(_TERM, max_size=3),
              st.sampled_from(["", " "]), st.sampled_from([", ", ",", " , "])).map(
        lambda t: f"{t[0]}{t[2]}({t[3].join(t[1])})"))
_LITERAL = st.one_of(_ATOM, _ATOM.map("NOT ".__add__),
                     st.tuples(_TERM, st.sampled_from(["UNSURE ", "UNSURE NOT "]), _ATOM).map(
                         lambda t: f"{t[0]} {t[1]}{t[2]}"))
_LINE = st.tuples(st.lists(st.tuples(_TERM, st.sampled_from(["BELIEVE", "BELIEVES"])).map(" ".join), max_size=4),
                  _LITERAL, st.one_of(st.just(""), _NUMBER.map(" @ ".__add__), _NUMBER.map("@".__add__)),
                  st.sampled_from(["", " # c", "#c"])).map(lambda t: "".join(a + " " for a in t[0]) + t[1] + t[2] + t[3])


@settings(max_examples=400, deadline=None)
@given(st.lists(_LINE, min_size=1, max_size=4), st.data())
def test_token_written_readable_lines_equal_lark(lines, data):
    text = _relayout("\n".join(lines), data, _SPACES)
    assert_same_as_lark(text, [parse_readable_document, parse_document])
    assert_same_as_lark(lines[0], [parse_fact])


# --- invalid input: mutations of valid text, and token soup --------------------------------------------------

_INSERTS = ["(", ")", " ", "\n", "\t", "@", "#", "<", ">", "?", ",", ".", "-", ";", '"', "\\", "\u2028", "\v", "\x1c",
            "\xa0", "α", "NOT ", " BELIEVE ", " UNSURE ", " IN ", "prob ", "believes ", "not ", "unsure ", "(define ",
            "0.5", "1e9", "2", "9", "x", "_"]


@st.composite
def _mutated(draw: st.DrawFn, source: st.SearchStrategy[str]) -> str:
    text = draw(source)
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(text)))
        j = draw(st.integers(i, min(len(text), i + 4)))
        op = draw(st.sampled_from(["delete", "insert", "replace", "duplicate"]))
        if op == "delete":
            text = text[:i] + text[j:]
        elif op == "insert":
            text = text[:i] + draw(st.sampled_from(_INSERTS)) + text[i:]
        elif op == "replace":
            text = text[:i] + draw(st.sampled_from(_INSERTS)) + text[j:]
        else:
            text = text[:j] + text[i:j] + text[j:]
    return text


_READABLE_TEXT = st.one_of(st.lists(_LINE, min_size=1, max_size=3).map("\n".join),
                           _FACTS.map(lambda fs: "\n".join(map(to_readable, fs))))
_SEXPR_TEXT = _FACTS.map(lambda fs: "\n".join(map(to_sexpr, fs)))


@settings(max_examples=500, deadline=None)
@given(_mutated(_READABLE_TEXT))
def test_mutated_readable_text_gives_what_lark_gives(text):
    assert_same_as_lark(text)


@settings(max_examples=500, deadline=None)
@given(_mutated(_SEXPR_TEXT))
def test_mutated_sexpr_text_gives_what_lark_gives(text):
    assert_same_as_lark(text)


_SOUP = st.sampled_from(["(", ")", "(", ")", "believes", "not", "unsure", "prob", "0.5", "1", "in", "a", "?x", "-a",
                         "define", "IN", "x-1", "1.5", ";c\n", '"a IN b"', "\n", "(prob", "(in a b)", "?", "a?b"])


@settings(max_examples=400, deadline=None)
@given(st.lists(_SOUP, max_size=20), st.sampled_from([" ", "", "\n"]))
def test_sexpr_token_soup_gives_what_lark_gives(tokens, sep):
    assert_same_as_lark(sep.join(tokens), [parse_sexpr_document, parse_document, parse_fact])


def test_the_fast_paths_take_the_benchmark_shapes():
    """The shapes ``belief bench parse`` generates all take the fast paths (no silent fall back to lark)."""
    text = "\n".join(generate_fact_lines(300, seed=1))
    facts = _readable_lines().parse(text, "document")
    assert facts is not None
    sexpr = "\n".join(map(to_sexpr, facts))
    assert _sexpr_facts().parse(sexpr) == facts
    with lark_only():
        assert parse_readable_document(text) == facts == parse_sexpr_document(sexpr)


def test_values_refused_by_the_formulas_fall_back_to_lark_errors():
    for text in ["a IN b @ 2", "a IN b @ 1e400", "not(a)", "x BELIEVE NOT(a)", "(prob 1.5 (in a b))", "(IN a b)",
                 "(not (not (in a b)))", "(unsure a (unsure b (in x y)))", "(define (domain d))", "(in a b) ; c",
                 "(in a\u00a0b)", "a IN b\u2028c IN d", "a\vIN b", "NOT x UNSURE a IN b", "x UNSURE ?p(a)",
                 "?p(a)", "<t> (1)(a)", "a BELIEVE <t> (2)(a)", "x UNSURE NOT NOT a IN b"]:
        assert_same_as_lark(text)


# --- one regex over the whole document, and values shared across its lines ---------------------------------------

def test_the_document_regex_tiles_the_text_line_by_line():
    """Line ends, blank and comment lines, a missing last newline and a bad line anywhere: the same facts or the
    same errors as lark; the valid ones all take the fast path."""
    valid = ["", "\n", "\n\n", " \t\n", "a IN b", "a IN b\n", "a IN b\r\nc IN d\r\n", "\n\n a IN b", "a IN b\n\n",
             "a IN b\n  \t\nb IN c", "a IN b #c\n#d\n", "#only\n# comments", "x BELIEVE a IN b\n\nx BELIEVE a IN b",
             "p()\nq( )\r\n"]
    invalid = ["a IN b\nbad line here\nc IN d", "a IN b\n)\n", "a IN b\nc IN", "\n\nBELIEVE a IN b",
               "a IN b\n\ra IN b c", "a IN b\fc IN d", "a IN b\n<x\ny> IN c", "a IN b @ 0.5 @ 0.5"]
    for text in valid:
        assert _readable_lines().parse(text, "document") is not None, text
    for text in valid + invalid:
        assert_same_as_lark(text, [parse_readable_document, parse_document, parse_fact])


@settings(max_examples=200, deadline=None)
@given(st.lists(bst.facts(allow_variables=True, max_depth=3), min_size=1, max_size=4), st.data())
def test_values_shared_across_lines_change_no_equality_hash_printing_or_error(pool, data):
    """Lines repeat whole, or their literal under other chains, or their chain over other literals: each line's
    fact equals lark's, with the same hash and printing, and an error after them has lark's line and column."""
    lines = [to_readable(f) for f in data.draw(st.lists(st.sampled_from(pool), min_size=2, max_size=12))]
    text = "\n".join(lines)
    fast = _readable_lines().parse(text, "document")
    with lark_only():
        reference = parse_readable_document(text)
    assert fast == reference
    assert [hash(f) for f in fast] == [hash(f) for f in reference]
    assert [str(f) for f in fast] == [str(f) for f in reference] == lines
    assert [parse_fact(str(f)) for f in fast] == reference
    assert_same_as_lark(text + "\n" + data.draw(st.sampled_from(lines)) + " )")


def test_repeated_parts_of_lines_are_made_once_per_document():
    facts = _readable_lines().parse("a BELIEVE x IN y\nb BELIEVE x IN y\na BELIEVE NOT x IN y\n"
                                    "b BELIEVE NOT x IN y\nc BELIEVE a UNSURE x IN y\nd BELIEVE a UNSURE x IN y", "document")
    assert facts[0].atom is facts[1].atom is facts[2].atom is facts[4].atom
    assert facts[2].formula.body is facts[3].formula.body  # the Not
    assert facts[4].formula.body is facts[5].formula.body  # the Unsure
    assert facts[0].formula.agent is facts[2].formula.agent


def test_the_line_regex_makes_only_character_classes_possessive():
    from belief.grammar.fastpath import _possessive
    assert _possessive(r"[a-z]*x[0-9]+") == r"[a-z]*+x[0-9]++"
    assert _possessive(r"[\]a]*[^\n]+") == r"[\]a]*+[^\n]++"
    assert _possessive(r"\[a]*(?:ab)*a*[a]*?[a]++[a]?") == r"\[a]*(?:ab)*a*[a]*?[a]++[a]?"
