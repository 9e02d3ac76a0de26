"""A lean driver for lark's own LALR tables: the fast path of the readable form.

lark's per-token and per-rule machinery (Token objects, line counting, child filters) costs more than the
parse itself on fact-sized inputs.  This driver walks the *same* parse table lark built from
``readable.lark`` with a single-regex tokenizer and the transformer's callbacks, and gives up (returns
``None``) on anything unusual; the caller then runs lark itself, which produces the result or the
diagnostic.  So the grammar stays the single source of truth, and tests assert that both paths agree.
"""

from __future__ import annotations

import contextlib
import gc
import re

from typing import Any, Callable, Iterator

from lark import Lark, Transformer
from lark.grammar import Rule
from lark.parsers.lalr_analysis import Shift

from belief.errors import BeliefError
from belief.logic.formula import Atom, Fact, Formula, Not, Unsure, Var


class _Splice(list):
    """Children of an inlined rule (``_rule``, lark's ``__x_star_n``): spliced into the parent."""

    __slots__ = ()


def _non_capturing(rx: str) -> str:
    """Turn capturing groups into non-capturing ones, so ``findall`` returns whole tokens."""
    return re.sub(r"(?<!\\)\((?!\?)", "(?:", rx)


def _possessive(rx: str) -> str:
    """Make each repeated character class (``[...]*``, ``[...]+``) possessive (``[...]*+``, ``[...]++``)."""
    return re.sub(r"(?<!\\)(\[(?:\\.|[^\]\\])+\])([*+])(?![*+?])", r"\1\2+", rx)


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


# --- hand-written fast paths for the common shapes of facts -------------------------------------------------
# Both only ever *accept*: on anything they do not recognise (or a value the formulas refuse) they return None
# and the caller parses with the LALR driver above and lark, which give the result or the diagnostic. Their
# regexes are built from the grammar's own terminals (lark's patterns), and tests check them against lark.

_Term = Callable[[str], Any]


class ReadableLines:
    """The readable form, one regex over the whole document: each line is
    ``(TERM BELIEVE)* [NOT | TERM UNSURE [NOT]] atom [@ NUMBER]``, a blank or comment line, or anything else (which
    gives up).

    ``patterns``: lark's regex of each terminal of ``readable.lark`` (by name); ``infix``: relation keyword ->
    predicate; ``term``: token -> term (name, Var or normalised tag)."""

    def __init__(self, patterns: dict[str, str], infix: dict[str, str], term: _Term) -> None:
        # Possessive: no repeated character class in a line gives characters back, since what follows each one
        # (in its terminal, or the next token, ',', '(', ')', '@', '#' or the line's end) cannot start with a
        # character of the class; so this changes no match, and only cuts the backtracking (a quarter of the time)
        p = {k: _possessive(_non_capturing(v)) for k, v in patterns.items()}
        ws = p["WS_INLINE"]
        w1, w0 = f"(?:{ws})", (ws[:-2] + "*+" if ws.endswith("++") else f"(?:{ws})?")  # [..]*+ is the faster
        t = f"(?:{p['TERM']})"
        args = f"{t}(?:{w0}{p['_COMMA']}{w0}{t})*"
        call = f"{w0}{p['_LPAR']}{w0}({args})?{w0}{p['_RPAR']}"  # after the predicate (a TERM: checked below)
        # the literal's first TERM is matched once and its role read from what follows (backtracking over the
        # three readings costs more than the match): relation -> infix; '(' -> call; UNSURE -> unsure agent.
        # Every group that takes part is non-empty (a call's '(' is captured to say so), since ``findall`` gives
        # '' both for an empty group and for one that did not take part.
        line = (
            f"{w0}((?:{t}{w1}{p['_BELIEVE']}{w1})*)"  # the chain: agents and BELIEVE, split on whitespace
            f"(?:({p['_NOT']}){w1})?({t})"
            f"(?:{w1}({p['INFIX_REL']}){w1}({t})|{w0}({p['_LPAR']}){w0}({args})?{w0}{p['_RPAR']}"
            f"|{w1}{p['_UNSURE']}{w1}(?:{p['_NOT']}{w1})?(?:({t}){w1}({p['INFIX_REL']}){w1}({t})|({t}){call}))"
            f"(?:{w0}{p['_AT_SIGN']}{w0}({p['NUMBER']}))?{w0}(?:{p['HASH_COMMENT']})?")
        blank = f"{w0}(?:{p['HASH_COMMENT']})?"
        # no terminal of a line takes a "\n" (lark's _NL is the only one), so the matches tile the text line by
        # line as str.split("\n") would: a fact, a blank line, or any other line (the last group: gives up)
        self.lines = re.compile(f"(?:{line}|{blank}|([^\\n]+))(?:\\n|\\Z)")
        self.infix = infix
        self.term = term

    def parse(self, text: str, start: str) -> Any:
        """A list of facts (``start`` "document") or one fact ("fact"), or None: let the LALR path decide."""
        if start == "fact":
            if "\n" in text:
                return None
        elif start != "document":
            return None
        try:
            if start == "fact":
                facts = self._facts(text)
            else:
                with _collector_paused():
                    facts = self._facts(text)
        except (_GiveUp, BeliefError):
            return None
        if start == "fact":
            return facts[0] if facts else None
        return facts

    def _facts(self, text: str) -> list[Fact]:
        """The facts of ``text``. Within it, each term, atom, literal and chain of agents is made once and shared
        by every line that has it (they are immutable values: sharing changes no equality, hash or printing)."""
        term = self.term
        infix = self.infix
        atom_trusted, fact_chain = Atom._trusted, Fact._trusted_chain
        terms: dict[str, Any] = {}
        atoms: dict[tuple, Atom] = {}
        literals: dict[tuple, Formula] = {}  # (NOT or the UNSURE agent's token, id of the atom) -> Not or Unsure
        chains: dict[str, tuple] = {"": ()}  # the chain's text -> its agents' terms, innermost first
        facts: list[Fact] = []
        append = facts.append
        for (chain, neg, first, rel, b, call, args, u_a, u_rel, u_b, u_pred, u_args, prob,
             other) in self.lines.findall(text):
            if not first:  # a blank line, or one the regex does not take
                if other:
                    raise _GiveUp
                continue
            unsure = ""
            if not rel and not call:  # first UNSURE atom
                if neg:  # NOT x UNSURE ...: no literal of the grammar
                    raise _GiveUp
                unsure = first
                first, rel, b, args = (u_a, u_rel, u_b, "") if u_rel else (u_pred, "", "", u_args)
            if rel:
                key: tuple = (rel, first, b)
                atom = atoms.get(key)
                if atom is None:
                    ta = terms.get(first) or _add_term(terms, term, first)
                    tb = terms.get(b) or _add_term(terms, term, b)
                    atom = atoms[key] = atom_trusted(infix[rel], (ta, tb))
            else:
                key = (first, args)
                atom = atoms.get(key)
                if atom is None:
                    if first[0] in "?<":  # a variable or a tag as a predicate: lark's call() says why not
                        raise _GiveUp
                    values = tuple(terms.get(x) or _add_term(terms, term, x)
                                   for x in map(str.strip, args.split(","))) if args else ()
                    atom = atoms[key] = atom_trusted(first, values)
            f: Formula = atom
            if neg or unsure:
                key = (unsure or neg, id(atom))  # the atom lives in `atoms` as long as the key does
                lit = literals.get(key)
                if lit is None:
                    lit = literals[key] = Not(atom) if neg else Unsure(terms.get(unsure) or _add_term(
                        terms, term, unsure), atom)
                f = lit
            agents = chains.get(chain)  # the chain "" is the empty tuple
            if agents is None:
                if "<" in chain:  # a tag (which may hold spaces) as an agent: rare, left to the LALR path
                    raise _GiveUp
                words = chain.split()  # agent BELIEVE agent BELIEVE ...
                agents = chains[chain] = tuple(terms.get(w) or _add_term(terms, term, w) for w in words[-2::-2])
            if prob:
                p = float(prob)
                if p > 1.0:  # the NUMBER terminal has no sign: never below 0, never NaN
                    raise _GiveUp
                append(fact_chain(agents, f, p))
            else:
                append(fact_chain(agents, f, None))
        return facts


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while a document's facts are made (as ``Trace.loads`` does): they are
    acyclic values, and the collections their number would trigger, each over the whole heap, cost a 100,000-fact
    document a third of its parse. Only a pause begun here is ended here."""
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


def _add_term(terms: dict[str, Any], term: _Term, token: str) -> Any:
    """The term of ``token`` (never empty, so ``terms.get(token) or _add_term(...)`` is a cached lookup)."""
    t = terms[token] = term(token)
    return t


class SexprFacts:
    """S-expression documents of facts only: ``(prob P F)``, ``(believes A F)``, ``(unsure A L)``, ``(not ATOM)``,
    ``(NAME TERM*)``; anything else (declarations, comments, quoted facts) gives up.

    ``patterns``: lark's regex of NAME, VAR and NUMBER (``sexpr.lark``/``terms.lark``) and of WS, the only
    whitespace the grammar skips; ``keywords``: the strings of _BELIEVES, _UNSURE, _NOT and _PROB."""

    def __init__(self, patterns: dict[str, str], keywords: dict[str, str]) -> None:
        self.name = re.compile(patterns["NAME"]).fullmatch
        self.var = re.compile(patterns["VAR"]).fullmatch
        self.number = re.compile(patterns["NUMBER"]).fullmatch
        # str.split() splits on every Unicode space: any but these five gives up, and these must all be WS
        ws = re.compile(patterns["WS"]).fullmatch
        if not all(ws(c) for c in " \t\f\r\n"):  # pragma: no cover - the grammar changed: update this
            raise ValueError(f"SexprFacts assumes WS takes [ \\t\\f\\r\\n], not only {patterns['WS']!r}")
        self.other_space = re.compile(r"[^\S \t\f\r\n]").search
        self.believes, self.unsure = keywords["_BELIEVES"], keywords["_UNSURE"]
        self.not_, self.prob = keywords["_NOT"], keywords["_PROB"]

    def _term(self, token: str) -> Any:
        if self.name(token):
            return token
        if self.var(token):
            return Var(token[1:])
        raise _GiveUp

    def parse(self, text: str) -> list[Fact] | None:
        if self.other_space(text):
            return None
        toks = text.replace("(", " ( ").replace(")", " ) ").split()
        try:
            with _collector_paused():
                return self._facts(toks)
        except (_GiveUp, IndexError, ValueError, BeliefError):  # ValueError: no ")" left (list.index)
            return None

    def _facts(self, toks: list[str]) -> list[Fact]:
        believes, unsure_kw, not_kw, prob_kw = self.believes, self.unsure, self.not_, self.prob
        term = self._term
        terms: dict[str, Any] = {}
        preds: dict[str, str] = {}
        atoms: dict[tuple, Atom] = {}
        literals: dict[tuple, Formula] = {}  # (UNSURE agent's token or None, negated, id of the atom) -> literal
        fact_chain = Fact._trusted_chain
        facts: list[Fact] = []
        append = facts.append
        i, n = 0, len(toks)
        while i < n:
            if toks[i] != "(":
                raise _GiveUp
            head = toks[i + 1]
            prob = None
            closing = 0
            if head == prob_kw:
                number = toks[i + 2]
                if not self.number(number):
                    raise _GiveUp
                prob = float(number)
                if prob > 1.0:
                    raise _GiveUp
                i += 3
                if toks[i] != "(":
                    raise _GiveUp
                head = toks[i + 1]
                closing = 1
            agents = []
            while head == believes:
                agent = toks[i + 2]
                t = terms.get(agent)
                if t is None:
                    t = terms[agent] = term(agent)
                agents.append(t)
                i += 3
                if toks[i] != "(":
                    raise _GiveUp
                head = toks[i + 1]
            unsure = None
            if head == unsure_kw:
                unsure = toks[i + 2]
                i += 3
                if toks[i] != "(":
                    raise _GiveUp
                head = toks[i + 1]
                closing += 1
            negated = head == not_kw
            if negated:
                i += 2
                if toks[i] != "(":
                    raise _GiveUp
                head = toks[i + 1]
                closing += 1
            if head not in preds:  # a NAME (a keyword here is a NAME to lark too, then a reserved predicate)
                if not self.name(head):
                    raise _GiveUp
                preds[head] = head
            j = i + 2
            end = toks.index(")", j)
            key = tuple(toks[i + 1:end])
            atom = atoms.get(key)
            if atom is None:
                args = []
                for word in toks[j:end]:
                    t = terms.get(word)
                    if t is None:
                        t = terms[word] = term(word)  # "(" gives up: it is no term
                    args.append(t)
                atom = atoms[key] = Atom._trusted(head, tuple(args))
            i = end + 1
            f: Formula = atom
            if negated or unsure is not None:
                lit_key = (unsure, negated, id(atom))  # the atom lives in `atoms` as long as the key does
                lit = literals.get(lit_key)
                if lit is None:
                    lit = Not(atom) if negated else atom
                    if unsure is not None:
                        lit = Unsure(terms.get(unsure) or _add_term(terms, term, unsure), lit)
                    literals[lit_key] = lit
                f = lit
            closing += len(agents)
            for k in range(i, i + closing):
                if toks[k] != ")":
                    raise _GiveUp
            i += closing
            agents.reverse()
            append(fact_chain(agents, f, prob))
        return facts
