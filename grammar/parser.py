"""Parsers for both surfaces of the belief language, built once (LALR) and transforming inline.

The readable form is one fact per line; the s-expression form holds facts, domain and scenario
declarations.  Both produce the same values (:mod:`belief.logic.formula`); a declaration is returned as a
:class:`Declaration` (its sections as parsed), which :mod:`belief.logic.domain` and :mod:`belief.logic.scenario` turn
into typed values.  :mod:`belief.grammar` registers the parsers behind ``Formula.parse`` and
``Fact.parse`` (:func:`belief.logic.formula.register_syntax`).  lark's exceptions never escape:
every failure becomes a :class:`~belief.errors.BeliefSyntaxError` with line, column, a caret line and
what was expected in words.
"""

from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass
from typing import Any

import lark
from lark import Lark, Transformer, v_args

from belief.errors import BeliefError, BeliefSyntaxError, BeliefTypeError
from belief.logic.formula import INFIX_KEYWORDS, Atom, Believes, Fact, FormulaDepthError, Formula, Not, Unsure, Var
from belief.grammar.diagnostics import depth_error, to_syntax_error
from belief.grammar.fastpath import FastLALR, RegexTokenizer

GRAMMAR_DIR = os.path.dirname(os.path.abspath(__file__))
_TAG_RE = re.compile(r"<([^<>]+)>(?:[ \t]*\([ \t]*([0-9]+)[ \t]*\))?")


def normalize_tag(tag: str) -> str:
    """``<apple> (12)`` -> ``apple_12``; ``<wine glass>`` -> ``wine_glass``."""
    m = _TAG_RE.fullmatch(tag.strip())
    if not m:
        raise BeliefTypeError(f"malformed entity tag {tag!r}")
    name = "_".join(m.group(1).split())
    return f"{name}_{m.group(2)}" if m.group(2) else name


@dataclass(frozen=True)
class Declaration:
    """A ``(define (domain NAME) ...)`` or ``(define (problem NAME) ...)`` as parsed: ``kind`` is "domain" or
    "problem", ``sections`` the ``(section, payload)`` pairs in order (see :class:`SexprTransformer`)."""

    kind: str
    name: str
    sections: tuple


def _term(tok: str) -> Any:
    """A term token (lark Token or plain str from the fast path): NAME, ?VAR or <TAG>."""
    c = tok[0]
    if c == "?":
        return Var(tok[1:])
    if c == "<":
        return normalize_tag(tok)
    return str(tok)


class ReadableTransformer(Transformer):
    """Callbacks take the children list directly (no inline wrapper): this is the hot path of parsing."""

    def document(self, facts):
        return facts

    def fact(self, children):
        last = children[-1]
        prob = None
        if last.__class__ is not Atom and last.__class__ is not Not and last.__class__ is not Unsure:
            prob = float(last)
            children = children[:-1]
        return Fact(_chain(children), prob)

    def query(self, children):
        return _chain(children)

    def unsure(self, children):
        return Unsure(_term(children[0]), children[1])

    def negation(self, children):
        return Not(children[0])

    def infix(self, children):
        a, rel, b = children
        return Atom._trusted(INFIX_KEYWORDS[rel], (_term(a), _term(b)))

    def call(self, children):
        name = str(children[0])
        if name[0] in "?<":
            raise BeliefTypeError(f"a predicate name must be a plain name, not {name!r}")
        return Atom._trusted(name, tuple(_term(a) for a in children[1:]))


def _chain(children):
    """[agent tokens..., literal] -> nested Believes (normalised by the constructor)."""
    f = children[-1]
    for i in range(len(children) - 2, -1, -1):
        f = Believes._trusted(_term(children[i]), f)
    return f


@v_args(inline=True)
class SexprTransformer(Transformer):
    """Facts become :class:`Fact`; declarations become :class:`Declaration` (sections as plain tuples) that
    :mod:`belief.logic.domain` and :mod:`belief.logic.scenario` assemble."""

    def __init__(self, string_parser=None):
        super().__init__()

    def document(self, *items):
        return list(items)

    def prob_fact(self, number, formula):
        return Fact(formula, float(number.value))

    def plain_fact(self, formula):
        return Fact(formula)

    def believes(self, agent, body):
        return Believes(_term(agent), body)

    def unsure(self, agent, body):
        return Unsure(_term(agent), body)

    def negation(self, atom):
        return Not(atom)

    def atom(self, name, *args):
        return Atom(name.value, tuple(_term(a) for a in args))

    # declarations ---------------------------------------------------------------------------
    def names(self, *toks):
        return [t.value for t in toks]

    def vars(self, *toks):
        return [t.value[1:] for t in toks]

    def typed_names(self, *parts):
        return _typed_list(parts)

    def typed_vars(self, *parts):
        return _typed_list(parts)

    def types_section(self, typed):
        return ("types", typed)

    def constants_section(self, typed):
        return ("constants", typed)

    def predicates_section(self, *decls):
        return ("predicates", list(decls))

    def predicate_decl(self, name, typed):
        return (name.value, typed)

    def functional_section(self, *names):
        return ("functional", [n.value for n in names])

    def rules_section(self, *rules):
        return ("rules", [_maybe_string(r, "formula") for r in rules])

    def domain_def(self, name, *sections):
        return Declaration("domain", name.value, sections)

    def domain_ref(self, name):
        return ("domain", name.value)

    def agents_section(self, *names):
        return ("agents", [n.value for n in names])

    def objects_section(self, typed):
        return ("objects", typed)

    def init_section(self, *items):
        return ("init", [_maybe_string(i, "fact") for i in items])

    def query_section(self, *items):
        return ("query", [_maybe_string(i, "query") for i in items])

    def problem_def(self, name, *sections):
        return Declaration("problem", name.value, sections)


def _typed_list(parts) -> list[tuple[str, str | None]]:
    """[names, type, names, type, ..., trailing names] -> [(name, type-or-None), ...]"""
    out: list[tuple[str, str | None]] = []
    parts = list(parts)
    i = 0
    while i < len(parts):
        names = parts[i]
        if i + 1 < len(parts) and not isinstance(parts[i + 1], list):
            typ = parts[i + 1].value
            out.extend((n, typ) for n in names)
            i += 2
        else:
            out.extend((n, None) for n in names)
            i += 1
    return out


def _maybe_string(item, kind):
    """A "quoted" readable fact inside an s-expression document; parsed with positions kept."""
    if hasattr(item, "type") and item.type == "STRING":
        text = item.value[1:-1]
        try:
            if kind == "fact":
                return parse_fact(text)
            if kind == "query":
                return parse_query(text)
            return parse_formula(text)
        except BeliefSyntaxError as e:
            raise BeliefSyntaxError(f"in quoted fact: {e.message}", line=item.line,
                                    column=item.column + e.column, text_line="", expected=e.expected) from None
    return item


# --- parser construction --------------------------------------------------------------------

READABLE_STARTS = ["document", "fact", "query"]


def _build(grammar_file: str, start, transformer) -> Lark:
    return Lark.open(os.path.join(GRAMMAR_DIR, grammar_file), parser="lalr", start=start,
                     import_paths=[GRAMMAR_DIR], propagate_positions=False, maybe_placeholders=False,
                     transformer=transformer)


@functools.lru_cache(maxsize=None)
def _readable_lark() -> Lark:
    return _build("readable.lark", READABLE_STARTS, ReadableTransformer())


@functools.lru_cache(maxsize=None)
def _readable_fast():
    lk = _readable_lark()
    pattern = {t.name: t.pattern.to_regexp() for t in lk.terminals}
    exact = {k: "INFIX_REL" for k in INFIX_KEYWORDS}
    exact.update({"BELIEVE": "_BELIEVE", "BELIEVES": "_BELIEVE", "UNSURE": "_UNSURE", "NOT": "_NOT",
                  "@": "_AT_SIGN", "?": "_QMARK", "(": "_LPAR", ")": "_RPAR", ",": "_COMMA", "\n": "_NL",
                  "<": None, ".": None})  # a lone '<' or '.' is the catch-all: invalid
    by_first = {c: "TERM" for c in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_?<"}
    by_first.update({"\n": "_NL", "#": "HASH_COMMENT", ".": "NUMBER"})
    tokenizer = RegexTokenizer(
        pattern["WS_INLINE"],
        [pattern["_NL"], pattern["HASH_COMMENT"],
         # a number with a dot or an exponent cannot be a TERM; a bare integer is lexed as TERM and retyped
         r"(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?(?![A-Za-z0-9_\-])",
         # a keyword as a whole word (classified by `exact`), then any other name-like token
         "(?:" + "|".join(sorted((k for k, v in exact.items() if v and k[0].isalpha()), key=len, reverse=True))
         + r")(?![A-Za-z0-9_\-])",
         pattern["TERM"], "@", r"\?", r"\(", r"\)", ","],
        exact, by_first, skip={"HASH_COMMENT"}, dotted="NUMBER")
    return FastLALR(lk, ReadableTransformer(), tokenizer, retype={"TERM": ("NUMBER", pattern["NUMBER"])})


def readable_parser(start: str = "document") -> Lark:
    """The lark parser of the readable form (used directly for diagnostics and as the reference)."""
    return _readable_lark()


@functools.lru_cache(maxsize=None)
def sexpr_parser(start: str = "document") -> Lark:
    return _build("sexpr.lark", start, SexprTransformer())


def backend() -> str:
    """Name of the parsing path: lark's LALR tables driven by the fast tokenizer, lark itself on errors."""
    return "lark-lalr+fastpath"


# --- public entry points ----------------------------------------------------------------------

def _run(parser: Lark, text: str, form: str, source: str | None, start: str | None = None):
    try:
        if form == "readable":
            result = _readable_fast().parse(text, start)
            if result is not None:
                return result
            return parser.parse(text, start=start)
        return parser.parse(text)
    except BeliefSyntaxError as e:
        if e.source is None and source is not None:  # e.g. from a quoted fact inside an s-expression
            raise BeliefSyntaxError(e.message, line=e.line, column=e.column, text_line=e.text_line,
                                    expected=e.expected, source=source) from None
        raise
    except FormulaDepthError:
        raise depth_error(text, form, source) from None
    except BeliefTypeError as e:  # a value the grammar admits but a formula forbids (reserved word, p > 1)
        if form != "readable":
            raise
        first = text.strip().splitlines()[0] if text.strip() else ""
        raise BeliefSyntaxError(str(e), line=1, column=1, text_line=first, source=source) from None
    except lark.exceptions.VisitError as e:  # errors raised inside the transformer
        orig = e.orig_exc
        if isinstance(orig, BeliefSyntaxError):
            raise orig from None
        if isinstance(orig, FormulaDepthError):
            raise depth_error(text, form, source) from None
        if isinstance(orig, BeliefError):
            if form != "readable":
                raise orig from None
            first = text.strip().splitlines()[0] if text.strip() else ""
            raise BeliefSyntaxError(str(orig), line=1, column=1, text_line=first, source=source) from None
        raise
    except lark.exceptions.LarkError as e:
        raise to_syntax_error(e, text, form, source) from None


def is_sexpr(text: str) -> bool:
    """Is this document in the s-expression form (its first non-comment character is '(')?"""
    for line in text.lstrip("\ufeff").splitlines():
        s = line.strip()
        if not s or s.startswith("#") or s.startswith(";"):
            continue
        return s.startswith("(")
    return False


def parse_fact(text: str, *, source: str | None = None) -> Fact:
    """One fact in either form: ``Alice BELIEVE apple IN kitchen @ 0.7`` or ``(believes alice (in apple kitchen))``."""
    if is_sexpr(text):
        items = _run(sexpr_parser("document"), text, "sexpr", source)
        facts = [i for i in items if isinstance(i, Fact)]
        if len(items) != 1 or len(facts) != 1:
            raise BeliefSyntaxError(f"expected exactly one fact, found {len(items)} item(s)", line=1, column=1,
                                    text_line=text.splitlines()[0] if text else "", source=source)
        return facts[0]
    _check_single_line(text, source)
    return _run(readable_parser(), text.strip(), "readable", source, "fact")


def parse_formula(text: str, *, source: str | None = None) -> Formula:
    """A formula without probability, either form."""
    fact = parse_fact(text, source=source)
    if fact.probability is not None:
        raise BeliefSyntaxError("a formula takes no probability here ('@ p' is for facts)", line=1,
                                column=text.find("@") + 1, text_line=text.strip(), source=source)
    return fact.formula


def parse_query(text: str, *, source: str | None = None) -> Formula:
    """A query: a formula, optionally prefixed by '?', with variables ``?x`` allowed anywhere a term is."""
    if is_sexpr(text.lstrip().lstrip("?")):
        return parse_formula(text.lstrip().lstrip("?").strip(), source=source)
    _check_single_line(text, source)
    return _run(readable_parser(), text.strip(), "readable", source, "query")


def _check_single_line(text: str, source):
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    if len(lines) > 1:
        raise BeliefSyntaxError("expected one fact on one line; use parse_facts() for several", line=2, column=1,
                                text_line=lines[1], source=source)


def parse_readable_document(text: str, *, source: str | None = None) -> list[Fact]:
    """Many readable facts, one per line.  On error every bad line is reported (``all_errors``)."""
    try:
        return _run(readable_parser(), text, "readable", source, "document")
    except BeliefError:
        errors = _collect_line_errors(text, source)
        if not errors:  # pragma: no cover - the document parser and the line parser agree
            raise
        err = errors[0]
        if len(errors) > 1:
            err = BeliefSyntaxError(f"{err.message} (and {len(errors) - 1} more error(s))", line=err.line,
                                    column=err.column, text_line=err.text_line, expected=err.expected,
                                    source=source)
        err.all_errors = errors
        raise err from None


def _collect_line_errors(text: str, source) -> list[BeliefSyntaxError]:
    errors = []
    fact_parser = readable_parser()
    for lineno, line in enumerate(text.splitlines(), start=1):
        stripped = line.split("#", 1)[0]
        if not stripped.strip():
            continue
        try:
            _run(fact_parser, stripped, "readable", source, "fact")
        except BeliefSyntaxError as e:
            errors.append(BeliefSyntaxError(e.message, line=lineno, column=e.column, text_line=line,
                                            expected=e.expected, source=source))
        except BeliefError as e:
            errors.append(BeliefSyntaxError(str(e), line=lineno, column=1, text_line=line, source=source))
    return errors


def parse_sexpr_document(text: str, *, source: str | None = None) -> list:
    """An s-expression document: facts (:class:`Fact`), domains and scenarios."""
    return _run(sexpr_parser("document"), text, "sexpr", source)


def parse_document(text: str, *, source: str | None = None) -> list:
    """Either form, detected from the first non-comment character ('(' means s-expressions). A leading UTF-8
    byte order mark (as some editors write) is dropped."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if is_sexpr(text):
        return parse_sexpr_document(text, source=source)
    return parse_readable_document(text, source=source)

