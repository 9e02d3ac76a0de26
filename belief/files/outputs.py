"""Output files that survive crashes and never clobber what they should not.

* :func:`atomic_write_text` / :func:`atomic_write_bytes` (from :mod:`belief.files.atomic`): a temporary file
  in the target's folder, flushed and fsynced, then renamed over the target, so a reader (or a run killed with
  ``kill -9``) sees the old file or the new one, never half of one.
* :func:`refuse_existing`: no command overwrites an existing output without ``force``.
* :func:`write_jsonl` / :func:`write_csv`: flat result tables (one row per question or episode), atomically.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
from pathlib import Path
from typing import Iterable, Sequence

from belief.files.atomic import TEMP_SUFFIX, atomic_write_bytes, atomic_write_text, remove_stale_temps
from belief.errors import BeliefError


class OutputExistsError(BeliefError):
    """An output file or folder exists and the caller did not ask to overwrite it."""


def refuse_existing(paths: Iterable, force: bool, *, hint: str = "--force") -> None:
    """OutputExistsError naming the first existing path, unless `force`."""
    if force:
        return
    for p in paths:
        if p is not None and Path(p).exists():
            raise OutputExistsError(f"{p} exists; pass {hint} to overwrite it")


class OutputConflictError(BeliefError):
    """An output that names one of the command's inputs or another of its outputs."""


class OutputPathError(BeliefError):
    """An output that cannot be written where it is asked for (no such folder, a folder in its place)."""


def check_outputs(outputs: dict, inputs: Iterable = (), force: bool = False, tables: Iterable[str] = ()) -> None:
    """Before a command does any work: no output (``{option: path or None}``) may name an input or another
    output (OutputConflictError, even with `force`), nor exist unless `force` (OutputExistsError); the
    options in `tables` must name a results table format (:data:`TABLE_FORMATS`, OutputPathError)."""
    given = [(flag, p) for flag, p in outputs.items() if p is not None]
    for flag, path in given:
        if flag in tables:
            check_table_path(path, flag)
    sources = [p for p in inputs if p is not None]
    for i, (flag, path) in enumerate(given):
        for other_flag, other in given[:i]:
            if same_file(path, other):
                raise OutputConflictError(f"{other_flag} and {flag} name the same file {path}")
        for source in sources:
            if same_file(path, source):
                raise OutputConflictError(f"{flag} {path} is an input of this command; choose another file")
        if Path(path).is_dir():
            raise OutputPathError(f"{flag} {path} is a directory")
        if not Path(path).parent.is_dir():
            raise OutputPathError(f"{flag} {path}: no directory {Path(path).parent}")
        refuse_existing([path], force)


def same_file(a, b) -> bool:
    """Do two paths name one existing file (so writing one would destroy the other)?"""
    try:
        return Path(a).resolve() == Path(b).resolve() or os.path.samefile(a, b)
    except OSError:
        return False


def sha256_file(path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def jsonl_text(rows: Iterable[dict]) -> str:
    return "".join(json.dumps(r) + "\n" for r in rows)


def _csv_cell(value) -> str:
    """CSV cells: booleans as true/false, None as an empty cell, lists and dicts as JSON."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple, dict)):
        return json.dumps(value)
    return str(value)


def csv_text(rows: Sequence[dict], columns: Sequence[str]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(columns)
    for r in rows:
        w.writerow([_csv_cell(r.get(c)) for c in columns])
    return buf.getvalue()


def write_jsonl(path, rows: Iterable[dict]) -> Path:
    return atomic_write_text(path, jsonl_text(rows))


def write_csv(path, rows: Sequence[dict], columns: Sequence[str]) -> Path:
    return atomic_write_text(path, csv_text(rows, columns))


#: formats of a results table, by the file's suffix: a JSON array, JSON Lines, CSV (one row per line)
TABLE_FORMATS = (".json", ".jsonl", ".csv")


def flat_row(row: dict, prefix: str = "") -> dict:
    """Nested objects as dotted keys (``{"planner": {"calls": 3}}`` -> ``{"planner.calls": 3}``)."""
    out: dict = {}
    for k, v in row.items():
        if isinstance(v, dict) and v:
            out.update(flat_row(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = v
    return out


def check_table_path(path, flag: str = "--results") -> None:
    if Path(path).suffix.lower() not in TABLE_FORMATS:
        raise OutputPathError(f"{flag} {path}: write results as {', '.join(TABLE_FORMATS)} (by the file's suffix)")


def write_table(path, rows: Sequence[dict]) -> Path:
    """`rows` as a JSON array, JSON Lines or CSV by `path`'s suffix; JSONL and CSV rows are flat (dotted keys),
    CSV columns in first-seen order."""
    check_table_path(path)
    suffix = Path(path).suffix.lower()
    if suffix == ".json":
        return atomic_write_text(path, json.dumps(list(rows), indent=1) + "\n")
    flat = [flat_row(r) for r in rows]
    if suffix == ".jsonl":
        return write_jsonl(path, flat)
    columns = list(dict.fromkeys(k for r in flat for k in r))
    return write_csv(path, flat, columns)


__all__ = ["TEMP_SUFFIX", "OutputExistsError", "OutputConflictError", "OutputPathError", "check_outputs",
           "atomic_write_bytes", "atomic_write_text", "remove_stale_temps", "refuse_existing", "same_file",
           "sha256_file", "sha256_text", "jsonl_text", "csv_text", "write_jsonl", "write_csv", "TABLE_FORMATS",
           "flat_row", "check_table_path", "write_table"]
