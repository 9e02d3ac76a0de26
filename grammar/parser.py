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
from typing import Any, Iterable

import lark
from lark import Lark, Token, Transformer, v_args

from belief.errors import BeliefError, BeliefSyntaxError, BeliefTypeError
from belief.logic.formula import (INFIX_KEYWORDS, Atom, Believes, Fact, FormulaDepthError, Formula, Not, Term, Unsure,
                                  Var)
from belief.grammar.diagnostics import DocumentSyntaxError, depth_error, to_syntax_error
from belief.grammar.fastpath import FastLALR, ReadableLines, RegexTokenizer, SexprFacts

GRAMMAR_DIR = os.path.dirname(os.path.abspath(__file__))
#: a typed list of a declaration: (name, type or None)
Typed = list[tuple[str, str | None]]
#: a section of a declaration as parsed: (its name, its payload)
Section = tuple[str, Any]
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
    sections: tuple[Section, ...]


def _term(tok: str) -> Term:
    """A term token (lark Token or plain str from the fast path): NAME, ?VAR or <TAG>."""
    c = tok[0]
    if c == "?":
        return Var(tok[1:])
    if c == "<":
        return normalize_tag(tok)
    return str(tok)


class ReadableTransformer(Transformer):
    """Callbacks take the children list directly (no inline wrapper): this is the hot path of parsing."""

    def document(self, facts: list[Fact]) -> list[Fact]:
        return facts

    def fact(self, children: list[Any]) -> Fact:
        last = children[-1]
        prob = None
        if last.__class__ is not Atom and last.__class__ is not Not and last.__class__ is not Unsure:
            prob = float(last)
            children = children[:-1]
        return Fact(_chain(children), prob)

    def query(self, children: list[Any]) -> Formula:
        return _chain(children)

    def unsure(self, children: list[Any]) -> Unsure:
        return Unsure(_term(children[0]), children[1])

    def negation(self, children: list[Atom]) -> Not:
        return Not(children[0])

    def infix(self, children: list[str]) -> Atom:
        a, rel, b = children
        return Atom._trusted(INFIX_KEYWORDS[rel], (_term(a), _term(b)))

    def call(self, children: list[str]) -> Atom:
        name = str(children[0])
        if name[0] in "?<":
            raise BeliefTypeError(f"a predicate name must be a plain name, not {name!r}")
        return Atom._trusted(name, tuple(_term(a) for a in children[1:]))


def _chain(children: list[Any]) -> Formula:
    """[agent tokens..., literal] -> nested Believes (normalised by the constructor)."""
    f: Formula = children[-1]
    for i in range(len(children) - 2, -1, -1):
        f = Believes._trusted(_term(children[i]), f)
    return f


@v_args(inline=True)
class SexprTransformer(Transformer):
    """Facts become :class:`Fact`; declarations become :class:`Declaration` (sections as plain tuples) that
    :mod:`belief.logic.domain` and :mod:`belief.logic.scenario` assemble."""

    def __init__(self, string_parser: object = None) -> None:
        super().__init__()

    def document(self, *items: Fact | Declaration) -> list[Fact | Declaration]:
        return list(items)

    def prob_fact(self, number: Token, formula: Formula) -> Fact:
        return Fact(formula, float(number.value))

    def plain_fact(self, formula: Formula) -> Fact:
        return Fact(formula)

    def believes(self, agent: Token, body: Formula) -> Formula:
        return Believes(_term(agent), body)

    def unsure(self, agent: Token, body: Formula) -> Unsure:
        return Unsure(_term(agent), body)

    def negation(self, atom: Atom) -> Not:
        return Not(atom)

    def atom(self, name: Token, *args: Token) -> Atom:
        return Atom(name.value, tuple(_term(a) for a in args))

    # declarations ---------------------------------------------------------------------------
    def names(self, *toks: Token) -> list[str]:
        return [t.value for t in toks]

    def vars(self, *toks: Token) -> list[str]:
        return [t.value[1:] for t in toks]

    def typed_names(self, *parts: list[str] | Token) -> Typed:
        return _typed_list(parts)

    def typed_vars(self, *parts: list[str] | Token) -> Typed:
        return _typed_list(parts)

    def types_section(self, typed: Typed) -> Section:
        return ("types", typed)

    def constants_section(self, typed: Typed) -> Section:
        return ("constants", typed)

    def predicates_section(self, *decls: tuple[str, Typed]) -> Section:
        return ("predicates", list(decls))

    def predicate_decl(self, name: Token, typed: Typed) -> tuple[str, Typed]:
        return (name.value, typed)

    def functional_section(self, *names: Token) -> Section:
        return ("functional", [n.value for n in names])

    def rules_section(self, *rules: Token | Formula) -> Section:
        return ("rules", [_maybe_string(r, "formula") for r in rules])

    def domain_def(self, name: Token, *sections: Section) -> Declaration:
        return Declaration("domain", name.value, sections)

    def domain_ref(self, name: Token) -> Section:
        return ("domain", name.value)

    def agents_section(self, *names: Token) -> Section:
        return ("agents", [n.value for n in names])

    def objects_section(self, typed: Typed) -> Section:
        return ("objects", typed)

    def init_section(self, *items: Token | Fact) -> Section:
        return ("init", [_maybe_string(i, "fact") for i in items])

    def query_section(self, *items: Token | Formula) -> Section:
        return ("query", [_maybe_string(i, "query") for i in items])

    def problem_def(self, name: Token, *sections: Section) -> Declaration:
        return Declaration("problem", name.value, sections)


def _typed_list(given: Iterable[list[str] | Token]) -> Typed:
    """[names, type, names, type, ..., trailing names] -> [(name, type-or-None), ...]"""
    out: Typed = []
    parts = list(given)
    i = 0
    while i < len(parts):
        names = parts[i]
        following = parts[i + 1] if i + 1 < len(parts) else None
        if isinstance(following, Token):
            out.extend((n, following.value) for n in names)
            i += 2
        else:
            out.extend((n, None) for n in names)
            i += 1
    return out


def _maybe_string(item: Token | Fact | Formula, kind: str) -> Fact | Formula:
    """A "quoted" readable fact inside an s-expression document; parsed with positions kept."""
    if isinstance(item, Token):  # the grammar's only token here: a STRING
        text = item.value[1:-1]
        try:
            if kind == "fact":
                return parse_fact(text)
            if kind == "query":
                return parse_query(text)
            return parse_formula(text)
        except BeliefSyntaxError as e:
            line, column = item.line or 1, item.column or 1  # the lexer sets both
            raise BeliefSyntaxError(f"in quoted fact: {e.message}", line=line, column=column + e.column,
                                    text_line="", expected=e.expected) from None
    return item


# --- parser construction --------------------------------------------------------------------

READABLE_STARTS = ["document", "fact", "query"]


def _build(grammar_file: str, start: str | list[str], transformer: Transformer) -> Lark:
    return Lark.open(os.path.join(GRAMMAR_DIR, grammar_file), parser="lalr", start=start,
                     import_paths=[GRAMMAR_DIR], propagate_positions=False, maybe_placeholders=False,
                     transformer=transformer)


@functools.lru_cache(maxsize=None)
def _readable_lark() -> Lark:
    return _build("readable.lark", READABLE_STARTS, ReadableTransformer())


@functools.lru_cache(maxsize=None)
def _readable_fast() -> FastLALR:
    lk = _readable_lark()
    pattern = {t.name: t.pattern.to_regexp() for t in lk.terminals}
    exact: dict[str, str | None] = {k: "INFIX_REL" for k in INFIX_KEYWORDS}
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


@functools.lru_cache(maxsize=None)
def _readable_lines() -> ReadableLines:
    return ReadableLines({t.name: t.pattern.to_regexp() for t in _readable_lark().terminals}, INFIX_KEYWORDS, _term)


@functools.lru_cache(maxsize=None)
def _sexpr_facts() -> SexprFacts:
    terminals = {t.name: t.pattern for t in sexpr_parser("document").terminals}
    return SexprFacts({k: terminals[k].to_regexp() for k in ("NAME", "VAR", "NUMBER", "WS")},
                      {k: terminals[k].value for k in ("_BELIEVES", "_UNSURE", "_NOT", "_PROB")})


#: the hand-written fast paths (:class:`ReadableLines`, :class:`SexprFacts`) and the LALR driver are tried first;
#: False runs lark alone (the reference the tests compare them with)
FAST_PATHS = True


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

def _run(parser: Lark, text: str, form: str, source: str | None, start: str | None = None) -> Any:
    """What the transformer makes of ``text`` from rule ``start``; every failure a BeliefError."""
    try:
        if form == "readable":
            if FAST_PATHS:
                result = _readable_lines().parse(text, start)
                if result is None:
                    result = _readable_fast().parse(text, start)
                if result is not None:
                    return result
            return parser.parse(text, start=start)
        if FAST_PATHS and start is None:
            facts = _sexpr_facts().parse(text)
            if facts is not None:
                return facts
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


def _check_single_line(text: str, source: str | None) -> None:
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
        raise DocumentSyntaxError(errors, source) from None


def _collect_line_errors(text: str, source: str | None) -> list[BeliefSyntaxError]:
    errors: list[BeliefSyntaxError] = []
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

