"""JSON from untrusted files (traces, stores, answers, run manifests, benchmark data): errors are BeliefErrors,
never tracebacks.

:func:`load_json` refuses what the json module would let through as a crash or a silent oddity: nesting
deeper than the parser's stack (RecursionError), integers over :data:`MAX_INT_DIGITS` digits (beyond 64
bits; Python would also refuse > 4300 digits with a ValueError), and NaN/Infinity, including numbers too
large for a float (``1e999`` reads as infinity). :func:`read_text` reads a UTF-8 file and drops a leading
byte order mark (as some editors write one); :func:`read_json_lines` reads a JSON Lines file with both.
"""

from __future__ import annotations

import json
import os
import math
from pathlib import Path
from typing import Any, NoReturn

from belief.errors import BeliefError

#: the longest integer accepted, in digits (20 covers every 64-bit integer)
MAX_INT_DIGITS = 20
#: a UTF-8 byte order mark, as decoded
BOM = "\ufeff"


def _parse_int(digits: str) -> int:
    n = len(digits.lstrip("-"))
    if n > MAX_INT_DIGITS:
        raise ValueError(f"an integer of {n} digits (at most {MAX_INT_DIGITS})")
    return int(digits)


def _parse_float(text: str) -> float:
    x = float(text)
    if math.isinf(x):
        raise ValueError(f"the number {text[:40]} is too large for a float")
    return x


def _refuse_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not valid here")


_DECODER = json.JSONDecoder(parse_int=_parse_int, parse_float=_parse_float, parse_constant=_refuse_constant)


def load_json(text: str, where: str = "", error: type[BeliefError] = BeliefError) -> Any:
    """``json.loads(text)``, raising ``error(f"{where}invalid JSON: ...")`` on any malformed input."""
    if text.startswith(BOM):
        text = text[1:]
    try:
        return _DECODER.decode(text)  # json.loads(text, parse_int=..., ...) without building a decoder per call
    except json.JSONDecodeError as e:
        at = f" (line {e.lineno}, column {e.colno})" if e.lineno > 1 else f" (column {e.colno})"
        raise error(f"{where}invalid JSON: {e.msg}{at}") from None
    except RecursionError:
        raise error(f"{where}invalid JSON: nested too deeply") from None
    except ValueError as e:
        raise error(f"{where}invalid JSON: {e}") from None


def fast_json_lines(lines: list[str]) -> list[Any] | None:
    """The JSON value of each of ``lines``, or None when any of them is not exactly one JSON value that
    :func:`load_json` accepts as it is (the caller then reads them one by one with :func:`load_json` for the
    error message). One decoder built once for all lines (``json.loads`` with hooks builds one per call), its
    scanner called directly (``raw_decode`` is a Python wrapper around it that turns StopIteration into an
    error)."""
    scan = _DECODER.scan_once  # type: ignore[attr-defined]  # set by JSONDecoder.__init__, not in the stubs
    out: list[Any] = []
    append = out.append
    try:
        for line in lines:
            value, end = scan(line, 0)
            if end != len(line) and not line[end:].isspace():
                return None
            append(value)
    except (StopIteration, ValueError, RecursionError):
        return None
    return out


def read_text(path: str | os.PathLike[str], error: type[BeliefError] = BeliefError) -> str:
    """The text of a UTF-8 file without a leading byte order mark; ``error`` naming the file if unreadable."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise error(f"{path}: no such file") from None
    except IsADirectoryError:
        raise error(f"{path}: is a directory, not a file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise error(f"{path}: cannot read: {e}") from None
    return text[1:] if text.startswith(BOM) else text


def read_json_lines(path: str | os.PathLike[str], error: type[BeliefError] = BeliefError) -> list[Any]:
    """The JSON values of a JSON Lines file (blank lines skipped), each read by :func:`load_json`;
    ``error`` naming the file and line on the first bad one."""
    out = []
    for n, line in enumerate(read_text(path, error).splitlines(), 1):
        if line.strip():
            out.append(load_json(line, f"{path}:{n}: ", error))
    return out


__all__ = ["BOM", "MAX_INT_DIGITS", "load_json", "read_json_lines", "read_text"]
