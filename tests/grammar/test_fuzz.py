"""Fuzzing the parsers: grammar-generated text (hypothesis.extra.lark) and random text.

Only BeliefError subclasses may escape; on grammar-generated text the fast path and lark agree.
"""

import string

from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark
from lark import Lark

from belief import BeliefError
from belief.grammar import parse_document, parse_fact, parse_readable_document, parse_sexpr_document
from belief.grammar.parser import GRAMMAR_DIR, _readable_fast, readable_parser

_NAMES = st.sampled_from(["alice", "Bob", "apple", "box_1", "k-2", "7", "?x", "?room", "<apple> (12)", "<wine glass>"])
_EXPLICIT = {
    "TERM": _NAMES.map(lambda s: f" {s} "),
    "NUMBER": st.sampled_from(["0", "1", "0.5", ".25", "1e-3", "0.999"]).map(lambda s: f" {s} "),
    "INFIX_REL": st.sampled_from(["IN", "AT", "HOLD", "CONTAIN", "EXPLORED"]).map(lambda s: f" {s} "),
    "_BELIEVE": st.sampled_from([" BELIEVE ", " BELIEVES "]),
    "_UNSURE": st.just(" UNSURE "),
    "_NOT": st.just(" NOT "),
    "_NL": st.sampled_from(["\n", "\n\n", "\n  # note\n"]),
    "HASH_COMMENT": st.just(" "),  # a comment drawn mid-line would swallow the rest of it
}
_GRAMMAR = Lark.open(f"{GRAMMAR_DIR}/readable.lark", parser="lalr", start="document", import_paths=[GRAMMAR_DIR])


@settings(max_examples=400)
@given(from_lark(_GRAMMAR, start="document", explicit=_EXPLICIT))
def test_grammar_generated_documents_parse_identically_on_both_paths(text):
    try:
        reference = readable_parser().parse(text, start="document")
    except BeliefError:  # e.g. a reserved word used as a predicate name, or '?x' as a predicate
        reference = None
    except Exception as e:  # pragma: no cover - a lark exception escaping would be a bug
        raise AssertionError(f"raw {type(e).__name__} from lark on {text!r}") from e
    try:
        fast = _readable_fast().parse(text, "document")
    except BeliefError:
        fast = None
        assert reference is None
    if reference is not None:
        assert fast is None or fast == reference
    try:
        facts = parse_readable_document(text)
    except BeliefError:
        return
    assert facts == reference


@settings(max_examples=300)
@given(st.text(alphabet=string.printable + "<>?@()αβ\u2028", max_size=60))
def test_random_text_raises_only_belief_errors(text):
    for parse in (parse_fact, parse_readable_document, parse_sexpr_document, parse_document):
        try:
            parse(text)
        except BeliefError:
            pass


_TOKENS = st.sampled_from(["(", ")", "believes", "not", "unsure", "prob", "0.5", "in", "a", "?x", "define",
                           "domain", "problem", ":types", ":init", "-", '"a IN b"', ":functional", ":rules", "x"])


@settings(max_examples=300)
@given(st.lists(_TOKENS, max_size=25).map(" ".join))
def test_random_sexpr_token_soup_raises_only_belief_errors(text):
    try:
        parse_sexpr_document(text)
    except BeliefError:
        pass
