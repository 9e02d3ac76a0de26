"""One offline tokenizer for message cost in ``transport_v0`` (tiktoken downloads at run time: not used).

``count_tokens(text)`` approximates a GPT-style BPE count deterministically with no data files:

1. split the text into pieces with ``PIECE_RE``: runs of letters, runs of digits, or one other
   non-space character (punctuation, ``_``, symbols); whitespace is dropped (BPE folds a leading space
   into the next word);
2. a letter run costs ``ceil(len / 6)`` tokens for lower-case words (a common English word of up to six
   letters is one BPE token, longer words split roughly every 4-6 characters), and ``ceil(len / 4)`` when
   it contains upper-case letters (capitalised and upper-case runs split more in BPE vocabularies);
3. a digit run costs ``ceil(len / 3)`` tokens (cl100k groups digits by three);
4. every other character is one token.

So ``"apple_1 IN kitchen_1"`` is ``apple _ 1 IN kitchen(2) _ 1`` = 8 tokens. It is an approximation of
BPE counts (not validated against a real vocabulary, which would need a download); what matters for
the benchmark is that every agent's messages are counted by the same rule. The count is a pure
function of the string: same text, same count, on every machine.
"""

from __future__ import annotations

import math
import re

PIECE_RE = re.compile(r"[A-Za-z]+|[0-9]+|[^\sA-Za-z0-9]")


def tokenize(text: str) -> list[str]:
    """The pieces of ``text`` (each costs one or more tokens, see :func:`piece_tokens`)."""
    return PIECE_RE.findall(text or "")


def piece_tokens(piece: str) -> int:
    if piece.isalpha():
        return math.ceil(len(piece) / (6 if piece.islower() else 4))
    if piece.isdigit():
        return math.ceil(len(piece) / 3)
    return 1


def count_tokens(text: str) -> int:
    """Approximate BPE token count of ``text`` (deterministic, offline)."""
    return sum(piece_tokens(p) for p in tokenize(text))


__all__ = ["PIECE_RE", "count_tokens", "piece_tokens", "tokenize"]
