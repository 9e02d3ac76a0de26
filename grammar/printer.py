"""Write formulas back: readable line form (:func:`belief.logic.formula.to_readable`, what ``str()`` gives),
s-expressions, and PDKB bracket form."""

from __future__ import annotations

from belief.logic.formula import Atom, Believes, Fact, Formula, Not, Unsure, to_readable


def _atom_sexpr(a: Atom) -> str:
    return "(" + " ".join([a.pred, *map(str, a.args)]) + ")"


def to_sexpr(f) -> str:
    """``(prob 0.7 (believes alice (believes bob (in apple kitchen))))``"""
    if isinstance(f, Fact):
        s = to_sexpr(f.formula)
        return s if f.probability is None else f"(prob {f.probability!r} {s})"
    if isinstance(f, Atom):
        return _atom_sexpr(f)
    if isinstance(f, Not):
        return f"(not {_atom_sexpr(f.atom_)})"
    if isinstance(f, Unsure):
        return f"(unsure {f.agent} {_atom_sexpr(f.body)})"
    if isinstance(f, Believes):
        return f"(believes {f.agent} {to_sexpr(f.body)})"
    raise TypeError(f"cannot print {f!r}")


def to_pdkb(f) -> str:
    """PDKB bracket form: ``[alice][bob](in apple kitchen)``, ``[alice]!(in apple box)``.

    PDKB has no UNSURE; an unsure literal is written as ``[a]?(p)`` (not readable by PDKB tools).
    Probabilities are dropped (PDKB is not probabilistic).
    """
    if isinstance(f, Fact):
        f = f.formula
    out = []
    while isinstance(f, Believes):
        out.append(f"[{f.agent}]")
        f = f.body
    if isinstance(f, Atom):
        out.append(_atom_sexpr(f))
    elif isinstance(f, Not):
        out.append("!" + _atom_sexpr(f.atom_))
    elif isinstance(f, Unsure):
        out.append(f"[{f.agent}]?" + _atom_sexpr(f.body))
    else:
        raise TypeError(f"cannot print {f!r}")
    return "".join(out)


FORMS = {"readable": to_readable, "sexpr": to_sexpr, "pdkb": to_pdkb}


def format_fact(f: Fact | Formula, form: str = "readable") -> str:
    try:
        return FORMS[form](f)
    except KeyError:
        raise ValueError(f"unknown form {form!r}; expected one of {', '.join(FORMS)}") from None
