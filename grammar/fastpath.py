"""A lean driver for lark's own LALR tables: the fast path of the readable form.

lark's per-token and per-rule machinery (Token objects, line counting, child filters) costs more than the
parse itself on fact-sized inputs.  This driver walks the *same* parse table lark built from
``readable.lark`` with a single-regex tokenizer and the transformer's callbacks, and gives up (returns
``None``) on anything unusual; the caller then runs lark itself, which produces the result or the
diagnostic.  So the grammar stays the single source of truth, and tests assert that both paths agree.
"""

from __future__ import annotations

import re

from typing import Any, Callable

from lark import Lark, Transformer
from lark.grammar import Rule
from lark.parsers.lalr_analysis import Shift


class _Splice(list):
    """Children of an inlined rule (``_rule``, lark's ``__x_star_n``): spliced into the parent."""

    __slots__ = ()


def _non_capturing(rx: str) -> str:
    """Turn capturing groups into non-capturing ones, so ``findall`` returns whole tokens."""
    return re.sub(r"(?<!\\)\((?!\?)", "(?:", rx)


class RegexTokenizer:
    """Split text into (kinds, values) with one C-level ``findall`` and cheap dictionary classification.

    ``alternatives``: the token regexes in match order (non-capturing); a final catch-all takes any other
    single character, which classifies as invalid, so nothing is skipped silently.  ``exact`` maps whole
    token strings to kinds (keywords, punctuation; ``None`` for invalid single characters), ``by_first``
    maps a token's first character to its kind otherwise; ``skip`` kinds (comments) are dropped and
    ``dotted`` is the kind of a name-like token containing '.' (a number).
    """

    def __init__(self, ws: str, alternatives: list[str], exact: dict[str, str | None], by_first: dict[str, str],
                 skip: set[str], dotted: str) -> None:
        alts = "|".join(f"(?:{_non_capturing(rx)})" for rx in alternatives)
        self.regex = re.compile(f"(?:{ws})*({alts}|[\\s\\S])")
        self.exact = exact
        self.by_first = by_first
        self.skip = skip
        self.dotted = dotted

    def __call__(self, text: str) -> tuple[list[str], list[str]]:
        exact = self.exact
        by_first = self.by_first
        skip = self.skip
        kinds: list[str] = []
        values: list[str] = []
        add_kind = kinds.append
        add_value = values.append
        for tok in self.regex.findall(text):
            kind = exact.get(tok, "")  # "": not an exact token (None: an invalid one)
            if kind == "":
                kind = by_first.get(tok[0])
                if kind is None:
                    raise _GiveUp  # a character no terminal matches: let lark report it
                if kind in skip:
                    continue
                if "." in tok:
                    kind = self.dotted
            elif kind is None:
                raise _GiveUp
            add_kind(kind)
            add_value(tok)
        return kinds, values


class FastLALR:
    def __init__(self, lark_parser: Lark, transformer: Transformer, tokenizer: RegexTokenizer,
                 retype: dict[str, tuple[str, str]]) -> None:
        """``tokenizer``: text -> (kinds, values) (see :class:`RegexTokenizer`); ``retype``: terminal ->
        (terminal, regex) to try when the parser cannot take a token as lexed and the token fully matches
        the regex (e.g. TERM '1' where a NUMBER is expected, as lark's contextual lexer would decide)."""
        self.tokens = tokenizer
        self.retype = {k: (v, re.compile(rx)) for k, (v, rx) in retype.items()}
        table = lark_parser.parser.parser.parser.parse_table
        self.start_states = dict(table.start_states)
        self.end_states = dict(table.end_states)
        reducers = {rule: self._make_reducer(rule, transformer) for rule in lark_parser.rules}
        # plain-str keys; a shift is the next state (int), a reduce is (n, origin, reducer)
        self.table = {
            state: {str(sym): (arg if action is Shift else reducers[arg]) for sym, (action, arg) in row.items()}
            for state, row in table.states.items()
        }

    @staticmethod
    def _make_reducer(rule: Rule, transformer: Transformer) -> tuple[int, str, Callable[[list[Any]], Any]]:
        n = len(rule.expansion)
        plan = tuple(  # per child: 0 drop, 1 keep, 2 splice
            (0 if sym.name.startswith("_") and not rule.options.keep_all_tokens else 1) if sym.is_term
            else (2 if sym.name.startswith("_") else 1)
            for sym in rule.expansion)
        name = rule.origin.name
        splice_result = name.startswith("_")
        expand1 = rule.options.expand1
        cb = None if splice_result else getattr(transformer, rule.alias or name, None)
        simple = all(p == 1 for p in plan)

        grow_first = bool(plan) and plan[0] == 2  # left recursion (x_star: x_star item): extend in place

        def reduce(values: list[Any]) -> Any:
            if simple:
                children = values
            elif grow_first:
                children = values[0]
                for p, v in zip(plan[1:], values[1:]):
                    if p == 1:
                        children.append(v)
                    elif p == 2:
                        children.extend(v)
            else:
                children = []
                for p, v in zip(plan, values):
                    if p == 1:
                        children.append(v)
                    elif p == 2:
                        children.extend(v)
            if splice_result:
                return children if children.__class__ is _Splice else _Splice(children)
            if expand1 and len(children) == 1:
                return children[0]
            if cb is None:
                raise _GiveUp
            return cb(children)

        return n, str(rule.origin.name), reduce

    def parse(self, text: str, start: str) -> Any:
        """The parse result, or None when the fast path cannot decide (the caller falls back to lark)."""
        try:
            kinds, values = self.tokens(text)
            return self._drive(kinds, values, start)
        except _GiveUp:
            return None

    def _drive(self, kinds: list[str], values: list[str], start: str) -> Any:
        states = self.table
        retype = self.retype
        state_stack = [self.start_states[start]]
        value_stack: list = []
        end_state = self.end_states[start]
        kinds.append("$END")
        values.append("")
        for kind, value in zip(kinds, values):
            while True:
                row = states[state_stack[-1]]
                action = row.get(kind)
                if action is None:
                    alt = retype.get(kind)
                    if alt is None or not alt[1].fullmatch(value):
                        raise _GiveUp
                    kind = alt[0]
                    action = row.get(kind)
                    if action is None:
                        raise _GiveUp
                if action.__class__ is int:  # shift
                    state_stack.append(action)
                    value_stack.append(value)
                    break
                n, origin, reduce = action
                if n:
                    args = value_stack[-n:]
                    del value_stack[-n:]
                    del state_stack[-n:]
                else:
                    args = []
                value_stack.append(reduce(args))
                state_stack.append(states[state_stack[-1]][origin])
                if kind == "$END" and state_stack[-1] == end_state:
                    return value_stack[-1]
        raise _GiveUp  # pragma: no cover - $END always ends the loop above


class _GiveUp(Exception):
    pass
