"""The belief language: lark grammars (readable line form, PDDL-like s-expressions), parsers and printers.

Importing it registers the parsers and the readable printer behind ``Formula.parse``, ``Fact.parse`` and
``str()`` (:func:`belief.logic.formula.register_syntax`)."""

from belief.logic.formula import register_syntax

from belief.grammar.parser import (
    Declaration,
    backend,
    is_sexpr,
    normalize_tag,
    parse_document,
    parse_fact,
    parse_formula,
    parse_query,
    parse_readable_document,
    parse_sexpr_document,
)
from belief.grammar.printer import format_fact, to_pdkb, to_readable, to_sexpr

register_syntax(parse_formula=parse_formula, parse_fact=parse_fact, write_readable=to_readable)

__all__ = [
    "Declaration", "is_sexpr", "backend", "normalize_tag", "parse_document", "parse_fact", "parse_formula", "parse_query",
    "parse_readable_document", "parse_sexpr_document", "format_fact", "to_pdkb", "to_readable", "to_sexpr",
]
