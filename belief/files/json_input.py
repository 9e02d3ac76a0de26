"""JSON from untrusted files (traces, stores, benchmark data): errors are BeliefErrors, never tracebacks.

:func:`load_json` refuses what the json module would let through as a crash or a silent oddity: nesting
deeper than the parser's stack (RecursionError), integers over :data:`MAX_INT_DIGITS` digits (beyond 64
bits; Python would also refuse > 4300 digits with a ValueError), and NaN/Infinity.
"""

from __future__ import annotations

import json
from typing import Any

from belief.errors import BeliefError

#: the longest integer accepted, in digits (20 covers every 64-bit integer)
MAX_INT_DIGITS = 20


def _parse_int(digits: str) -> int:
    n = len(digits.lstrip("-"))
    if n > MAX_INT_DIGITS:
        raise ValueError(f"an integer of {n} digits (at most {MAX_INT_DIGITS})")
    return int(digits)


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not valid here")


def load_json(text: str, where: str = "", error: type[BeliefError] = BeliefError) -> Any:
    """``json.loads(text)``, raising ``error(f"{where}invalid JSON: ...")`` on any malformed input."""
    try:
        return json.loads(text, parse_int=_parse_int, parse_constant=_refuse_constant)
    except json.JSONDecodeError as e:
        at = f" (line {e.lineno}, column {e.colno})" if e.lineno > 1 else f" (column {e.colno})"
        raise error(f"{where}invalid JSON: {e.msg}{at}") from None
    except RecursionError:
        raise error(f"{where}invalid JSON: nested too deeply") from None
    except ValueError as e:
        raise error(f"{where}invalid JSON: {e}") from None


__all__ = ["MAX_INT_DIGITS", "load_json"]
