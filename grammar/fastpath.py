"""A lean driver for lark's own LALR tables: the fast path of the readable form.

lark's per-token and per-rule machinery (Token objects, line counting, child filters) costs more than the
parse itself on fact-sized inputs.  This driver walks the *same* parse table lark built from
``readable.lark`` with a single-regex tokenizer and the transformer's callbacks, and gives up (returns
``None``) on anything unusual; the caller then runs lark itself, which produces the result or the
diagnostic.  So the grammar stays the single source of truth, and tests assert that both paths agree.
"""

from __future__ import annotations

import re

from lark import Lark
from lark.parsers.lalr_analysis import Shift


class _Splice(list):
    """Children of an inlined rule (``_rule``, lark's ``__x_star_n``): spliced into the parent."""

    __slots__ = ()


class FastLALR:
    def __init__(self, lark_parser: Lark, transformer, token_spec: list[tuple[str, str]],
                 keywords: dict[str, str], skip: set[str], retype: dict[str, tuple[str, str]]):
        """``token_spec``: (terminal, regex) in match order; ``keywords``: NAME values that are keywords;
        ``retype``: terminal -> (terminal, regex) to try when the parser cannot take a token as lexed and
        the token fully matches the regex (e.g. TERM '1' where a NUMBER is expected, as lark's contextual
        lexer would decide)."""
        # inline whitespace (the `skip` terminal named "WS_INLINE") is absorbed before each token
        ws = dict(token_spec).get("WS_INLINE")
        alts = "|".join(f"(?P<{name}>{rx})" for name, rx in token_spec if name != "WS_INLINE")
        self.ws = re.compile(f"(?:{ws})?\\Z") if ws else re.compile("\\Z")
        self.regex = re.compile(f"(?:{ws})?(?:{alts})" if ws else alts)
        self.keywords = keywords
        self.skip = skip
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
    def _make_reducer(rule, transformer):
        n = len(rule.expansion)
        plan = []  # per child: 0 drop, 1 keep, 2 splice
        for sym in rule.expansion:
            if sym.is_term:
                plan.append(0 if sym.name.startswith("_") and not rule.options.keep_all_tokens else 1)
            else:
                plan.append(2 if sym.name.startswith("_") else 1)
        plan = tuple(plan)
        name = rule.origin.name
        splice_result = name.startswith("_")
        expand1 = rule.options.expand1
        cb = None if splice_result else getattr(transformer, rule.alias or name, None)
        simple = all(p == 1 for p in plan)

        grow_first = bool(plan) and plan[0] == 2  # left recursion (x_star: x_star item): extend in place

        def reduce(values):
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

    def tokens(self, text: str):
        """(kinds, values): two parallel lists; values are plain strings."""
        keywords = self.keywords
        skip = self.skip
        kinds: list = []
        values: list = []
        add_kind = kinds.append
        add_value = values.append
        pos = 0
        for m in self.regex.finditer(text):
            if m.start() != pos:
                raise _GiveUp  # a character no terminal matches: let lark report it
            pos = m.end()
            kind = m.lastgroup
            if kind in skip:
                continue
            value = m.group(kind)
            if kind == "TERM":
                kind = keywords.get(value, "TERM")
            add_kind(kind)
            add_value(value)
        if pos != len(text) and not self.ws.match(text, pos):
            raise _GiveUp
        return kinds, values

    def parse(self, text: str, start: str):
        """The parse result, or None when the fast path cannot decide (the caller falls back to lark)."""
        try:
            kinds, values = self.tokens(text)
            return self._drive(kinds, values, start)
        except _GiveUp:
            return None

    def _drive(self, kinds, values, start):
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
