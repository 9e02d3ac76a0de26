"""The formatter that writes the belief language back, in three forms: the readable line form (what ``str()``
gives: :mod:`belief.grammar` registers :func:`to_readable` behind ``Formula.__str__``), s-expressions, and
PDKB bracket form.

Every form writes a formula the same way, by :func:`write`: one piece per agent of its perspective chain,
then its literal (an atom, a negated atom, or an agent unsure of an atom); a :class:`Form` says what each
piece looks like.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from belief.logic.formula import INFIX_PREDICATES, Atom, Believes, Fact, Formula, Not, Term, Unsure


def _atom_readable(a: Atom) -> str:
    rel = INFIX_PREDICATES.get(a.pred)
    if rel is not None and len(a.args) == 2:
        return f"{a.args[0]} {rel} {a.args[1]}"
    return f"{a.pred}({', '.join(map(str, a.args))})"


def _atom_sexpr(a: Atom) -> str:
    return "(" + " ".join([a.pred, *map(str, a.args)]) + ")"


@dataclass(frozen=True)
class Form:
    """What each piece of a formula looks like in one written form."""

    atom: Callable[[Atom], str]
    #: written before the body of ``agent BELIEVE body`` (given the agent), and after it
    believes: Callable[[Term], str]
    believes_end: str
    #: a negated atom (given the atom as written)
    negation: Callable[[str], str]
    #: an agent unsure of an atom (given the agent and the atom as written)
    unsure: Callable[[Term, str], str]
    #: a fact with a probability (given the formula as written and the probability); None: the form drops
    #: probabilities
    probability: Callable[[str, float], str] | None


READABLE = Form(atom=_atom_readable, believes=lambda agent: f"{agent} BELIEVE ", believes_end="",
                negation=lambda atom: f"NOT {atom}", unsure=lambda agent, atom: f"{agent} UNSURE {atom}",
                probability=lambda formula, p: f"{formula} @ {p!r}")
SEXPR = Form(atom=_atom_sexpr, believes=lambda agent: f"(believes {agent} ", believes_end=")",
             negation=lambda atom: f"(not {atom})", unsure=lambda agent, atom: f"(unsure {agent} {atom})",
             probability=lambda formula, p: f"(prob {p!r} {formula})")
#: PDKB has no UNSURE (an unsure literal is written ``[a]?(p)``, which PDKB tools cannot read) and no
#: probabilities (they are dropped)
PDKB = Form(atom=_atom_sexpr, believes=lambda agent: f"[{agent}]", believes_end="",
            negation=lambda atom: f"!{atom}", unsure=lambda agent, atom: f"[{agent}]?{atom}", probability=None)


def write(f: Fact | Formula, form: Form) -> str:
    """``f`` in ``form``."""
    if isinstance(f, Fact):
        text = write(f.formula, form)
        if f.probability is None or form.probability is None:
            return text
        return form.probability(text, f.probability)
    parts = []
    while isinstance(f, Believes):
        parts.append(form.believes(f.agent))
        f = f.body
    depth = len(parts)
    if isinstance(f, Atom):
        parts.append(form.atom(f))
    elif isinstance(f, Not):
        parts.append(form.negation(form.atom(f.atom_)))
    elif isinstance(f, Unsure):
        parts.append(form.unsure(f.agent, form.atom(f.body)))
    else:
        raise TypeError(f"cannot print {f!r}")
    return "".join(parts) + form.believes_end * depth


def to_readable(f: Fact | Formula) -> str:
    """``Alice BELIEVE Bob BELIEVE apple IN kitchen @ 0.7`` (the form ``str()`` gives)."""
    return write(f, READABLE)


def to_sexpr(f: Fact | Formula) -> str:
    """``(prob 0.7 (believes alice (believes bob (in apple kitchen))))``"""
    return write(f, SEXPR)


def to_pdkb(f: Fact | Formula) -> str:
    """PDKB bracket form: ``[alice][bob](in apple kitchen)``, ``[alice]!(in apple box)``."""
    return write(f, PDKB)


FORMS = {"readable": to_readable, "sexpr": to_sexpr, "pdkb": to_pdkb}


def format_fact(f: Fact | Formula, form: str = "readable") -> str:
    try:
        writer = FORMS[form]
    except KeyError:
        raise ValueError(f"unknown form {form!r}; expected one of {', '.join(FORMS)}") from None
    return writer(f)
