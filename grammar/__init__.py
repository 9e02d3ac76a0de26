"""The belief language: lark grammars (readable line form, PDDL-like s-expressions), parsers and printers."""

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

__all__ = [
    "Declaration", "is_sexpr", "backend", "normalize_tag", "parse_document", "parse_fact", "parse_formula", "parse_query",
    "parse_readable_document", "parse_sexpr_document", "format_fact", "to_pdkb", "to_readable", "to_sexpr",
]
