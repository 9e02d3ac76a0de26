"""Turn lark's parse failures into BeliefSyntaxError: line, column, caret line, expectation in words."""

from __future__ import annotations

import re
from typing import Iterable

import lark

from belief.errors import BeliefSyntaxError
from belief.logic.formula import MAX_DEPTH

_WORDS = {
    "TERM": "an entity or agent name", "NAME": "a name", "VAR": "a variable", "TAG": "an entity tag", "NUMBER": "a number", "STRING": "a quoted fact",
    "INFIX_REL": "a relation (IN, AT, HOLD, CONTAIN, EXPLORED)", "_BELIEVE": "BELIEVE", "_UNSURE": "UNSURE",
    "_NOT": "NOT", "_LPAR": "'('", "_RPAR": "')'", "_COMMA": "','", "_AT_SIGN": "'@'", "_QMARK": "'?'",
    "_NL": "end of line", "$END": "end of input", "_LP": "'('", "_RP": "')'", "_DASH": "'-'",
    "_BELIEVES": "believes", "_PROB": "prob", "_DEFINE": "define", "_DOMAIN": "domain", "_PROBLEM": "problem",
}
_TERMS = {"NAME", "VAR", "TAG", "TERM"}
_RELATION = {"INFIX_REL", "_BELIEVE", "_UNSURE", "_LPAR"}


def _words(expected: Iterable[str]) -> str:
    names = sorted({_WORDS.get(e, e.strip("_").lower() if e.startswith("_") and e[1:].isupper() else e)
                    for e in expected})
    if not names:
        return "nothing more"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def _short(word: str, limit: int = 40) -> str:
    """A token as quoted in a message: at most ``limit`` characters (a 10 MB token is not echoed)."""
    return word if len(word) <= limit else word[:limit] + "..."


def _prev_word(line: str, column: int) -> str:
    before = line[: max(column - 1, 0)].rstrip()
    if not before:
        return ""
    if before.endswith(")") or before.endswith("("):
        return before[-1]
    return _short(before[-200:].split()[-1]) if before.split() else ""


def to_syntax_error(err: lark.exceptions.LarkError, text: str, form: str, source: str | None) -> BeliefSyntaxError:
    lines = text.splitlines() or [""]
    if isinstance(err, lark.exceptions.UnexpectedCharacters):
        line, col = err.line, err.column
        text_line = lines[line - 1] if 0 < line <= len(lines) else ""
        ch = text_line[col - 1] if 0 < col <= len(text_line) else "?"
        allowed = _words(err.allowed or ())
        return BeliefSyntaxError(f"unexpected character {ch!r}; expected {allowed}", line=line, column=col,
                                 text_line=text_line, expected=allowed, source=source)
    if isinstance(err, lark.exceptions.UnexpectedToken):
        tok = err.token
        expected = set(err.expected or ())
        at_end = tok.type in ("$END", "_NL")
        if tok.type == "$END":
            line = len(lines)
            while line > 1 and not lines[line - 1].strip():
                line -= 1
            text_line = lines[line - 1]
            col = len(text_line.rstrip()) + 1
        else:
            line, col = tok.line, tok.column
            text_line = lines[line - 1] if 0 < line <= len(lines) else ""
            if tok.type == "_NL":
                col = len(text_line.rstrip()) + 1
        prev = _prev_word(text_line, col)
        got = "end of line" if at_end else repr(_short(str(tok.value)))
        after = f" after {prev!r}" if prev else ""
        if expected & _RELATION and expected & {"INFIX_REL"}:
            msg = f"missing relation{after} (expected IN, AT, HOLD, CONTAIN, EXPLORED, BELIEVE, UNSURE or '('), got {got}"
        elif expected and expected <= (_TERMS | {"_NOT", "_QMARK"}) or expected == _TERMS | {"_NOT"}:
            what = "an entity or agent name" if "_NOT" not in expected else "an entity or agent name, or NOT"
            msg = f"missing {what}{after}, got {got}"
        elif expected == {"NUMBER"}:
            msg = f"missing probability{after}: expected a number in [0, 1], got {got}"
        elif "_NL" in expected or "$END" in expected and not at_end:
            msg = f"unexpected {got}{after}: a fact is complete here (one fact per line)"
        else:
            msg = f"unexpected {got}{after}; expected {_words(expected)}"
        return BeliefSyntaxError(msg, line=line, column=col, text_line=text_line, expected=_words(expected),
                                 source=source)
    if isinstance(err, lark.exceptions.UnexpectedEOF):
        line = len(lines)
        text_line = lines[-1]
        exp = _words(err.expected or ())
        return BeliefSyntaxError(f"unexpected end of input; expected {exp}", line=line,
                                 column=len(text_line) + 1, text_line=text_line, expected=exp, source=source)
    return BeliefSyntaxError(f"cannot parse: {err}", line=1, column=1, text_line=lines[0], source=source)


_READABLE_MODAL = re.compile(r"(?<![A-Za-z0-9_\-])(?:BELIEVES?|UNSURE)(?![A-Za-z0-9_\-])")
_SEXPR_TOKEN = re.compile(r'\(\s*(?:believes|unsure)(?![A-Za-z0-9_\-])|\(|\)|;[^\n]*|"(?:[^"\\\n]|\\.)*"')


def depth_error(text: str, form: str, source: str | None) -> BeliefSyntaxError:
    """The position of the first belief operator nested deeper than MAX_DEPTH, as a BeliefSyntaxError.

    Readable: the (MAX_DEPTH+1)-th BELIEVE/UNSURE of a line; s-expressions: the first ``(believes``/``(unsure``
    open inside MAX_DEPTH others.
    """
    pos = None
    if form == "readable":
        offset = 0
        for text_line in text.splitlines(keepends=True):
            hits = list(_READABLE_MODAL.finditer(text_line.split("#", 1)[0]))
            if len(hits) > MAX_DEPTH:
                pos = offset + hits[MAX_DEPTH].start()
                break
            offset += len(text_line)
    else:
        stack: list[bool] = []
        modal = 0
        for m in _SEXPR_TOKEN.finditer(text):
            tok = m.group()
            if tok[0] == "(":
                is_modal = len(tok) > 1
                modal += is_modal
                stack.append(is_modal)
                if modal > MAX_DEPTH:
                    pos = m.start()
                    break
            elif tok == ")" and stack:
                modal -= stack.pop()
    pos = 0 if pos is None else pos
    line = text.count("\n", 0, pos) + 1
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    text_line = text[start:] if end < 0 else text[start:end]
    return BeliefSyntaxError(f"formula nested deeper than {MAX_DEPTH} beliefs (the limit)", line=line,
                             column=pos - start + 1, text_line=text_line, expected="", source=source)


class DocumentSyntaxError(BeliefSyntaxError):
    """Every bad line of a document: the first one's error (and how many more there are), all of them in
    ``all_errors``."""

    def __init__(self, errors: list[BeliefSyntaxError], source: str | None = None) -> None:
        first = errors[0]
        more = f" (and {len(errors) - 1} more error(s))" if len(errors) > 1 else ""
        super().__init__(first.message + more, line=first.line, column=first.column, text_line=first.text_line,
                         expected=first.expected, source=source)
        self.all_errors = errors
