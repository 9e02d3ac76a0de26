"""The response cache: the answers of identical requests, keyed by a SHA-256 of the request.

In memory by default. With a path (the config's ``cache_path``) it is a SQLite file: one row per key, written
with one ``INSERT OR REPLACE`` in WAL mode, so a write costs the same at 100 entries as at 100 000 (the file
is never rewritten), several processes (a process pool, two runs at once) can read and write the same file
without losing each other's entries, and a crash loses at most the write in progress.

Files from earlier versions: ``cache_path`` used to name a JSON file (``{"schema": "belief.llm-cache/1",
"entries": {...}}``, rewritten whole on every write). Such a file is migrated once, in place: its entries
move into a SQLite file at the same path and the JSON is kept beside it as ``<cache_path>.v1.json``
(concurrent openers take turns through an advisory lock, ``<cache_path>.lock``, removed afterwards; on a
system without ``fcntl`` there is no lock). A file that is neither, or a damaged SQLite file, is an
:class:`~belief.llm.errors.LLMCacheError` naming it: the cache never deletes or overwrites a file it does not
recognise (a ``cache_path`` pointing at the wrong file must not destroy it); delete the file or pick another
path. An empty file is taken as a new cache.

A connection is not carried across ``fork``: a child process opens its own (SQLite forbids sharing one).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import sys
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Mapping

from belief.llm.errors import LLMCacheError, one_line

if sys.platform != "win32":  # the migration lock; on Windows the migration simply runs unlocked
    import fcntl

#: the JSON cache file of earlier versions (migrated when found at the cache path)
CACHE_SCHEMA = "belief.llm-cache/1"
#: ``PRAGMA user_version`` of the SQLite store (belief.llm-cache/2)
STORE_VERSION = 2
SQLITE_HEADER = b"SQLite format 3\x00"
#: seconds a write waits for another process's write to finish before giving up
BUSY_TIMEOUT = 30.0
#: connections inherited through fork: kept referenced, never closed (closing one in the child could
#: checkpoint or delete the parent's write-ahead log)
_INHERITED: list[sqlite3.Connection] = []


class ResponseCache:
    """Answers of identical requests: in memory, or in a SQLite file at ``path`` shared by processes."""

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.path = Path(path) if path else None
        self._lock = threading.Lock()
        self._memory: dict[str, dict] = {}
        self._conn: sqlite3.Connection | None = None
        self._pid = 0
        if self.path is not None:
            self._connection()  # a bad file is an error now, before any request is paid for

    @staticmethod
    def key(payload: Mapping) -> str:
        """The SHA-256 of ``payload`` as canonical JSON (sorted keys)."""
        blob = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
        return hashlib.sha256(blob.encode("utf-8")).hexdigest()

    def get(self, key: str) -> dict | None:
        if self.path is None:
            with self._lock:
                return self._memory.get(key)
        with self._lock:
            row = self._run("read", "SELECT value FROM responses WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        try:
            value = json.loads(row[0])
        except (TypeError, ValueError, RecursionError):
            return None  # an unreadable row is a miss; the next put replaces it
        return value if isinstance(value, dict) else None

    def put(self, key: str, value: dict) -> None:
        if self.path is None:
            with self._lock:
                self._memory[key] = value
            return
        blob = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
        with self._lock:
            self._run("write", "INSERT OR REPLACE INTO responses (key, value) VALUES (?, ?)", (key, blob))

    def __len__(self) -> int:
        if self.path is None:
            return len(self._memory)
        with self._lock:
            return self._run("read", "SELECT COUNT(*) FROM responses").fetchone()[0]

    def close(self) -> None:
        with self._lock:
            if self._conn is not None and self._pid == os.getpid():
                self._conn.close()
            self._conn = None

    def __enter__(self) -> "ResponseCache":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # --- the SQLite file ---------------------------------------------------------------------------
    def _run(self, what: str, sql: str, args: tuple = ()) -> sqlite3.Cursor:
        try:
            return self._connection().execute(sql, args)
        except sqlite3.Error as e:
            raise LLMCacheError(f"cannot {what} the LLM response cache {self.path}: {one_line(e, 160)}") from None

    def _connection(self) -> sqlite3.Connection:
        if self._conn is not None and self._pid == os.getpid():
            return self._conn
        if self._conn is not None:  # inherited through fork
            _INHERITED.append(self._conn)
        assert self.path is not None  # only a cache kept in a file has a connection
        self._conn, self._pid = open_store(self.path), os.getpid()
        return self._conn


def open_store(path: Path) -> sqlite3.Connection:
    """A connection to the SQLite cache at ``path``, created if missing, migrated from the JSON cache of
    earlier versions if that is what is there; LLMCacheError for any other file."""
    kind = file_kind(path)
    if kind == "json":
        _migrate_json(path)
    elif kind == "other":
        raise _not_a_cache(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT, isolation_level=None, check_same_thread=False)
    except (OSError, sqlite3.Error) as e:
        raise LLMCacheError(f"cannot open the LLM response cache {path}: {one_line(e, 160)}") from None
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        _ensure_schema(conn, path)
    except sqlite3.DatabaseError as e:
        conn.close()
        raise LLMCacheError(f"{path} is not a usable LLM response cache ({one_line(e, 120)}): delete it or "
                            f"choose another cache_path") from None
    except BaseException:
        conn.close()
        raise
    return conn


def file_kind(path: Path) -> str:
    """``missing`` (or empty), ``sqlite``, ``json`` (a JSON object: perhaps the old cache) or ``other``."""
    try:
        with open(path, "rb") as f:
            head = f.read(len(SQLITE_HEADER))
    except FileNotFoundError:
        return "missing"
    except OSError as e:
        raise LLMCacheError(f"cannot read the LLM response cache {path}: {e.strerror or e}") from None
    if not head:
        return "missing"
    if head == SQLITE_HEADER:
        return "sqlite"
    return "json" if head.lstrip()[:1] == b"{" else "other"


def _ensure_schema(conn: sqlite3.Connection, path: Path) -> None:
    """Create the table in a new file (one process at a time); refuse a SQLite file that is something else."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if not tables:
            conn.execute("CREATE TABLE responses (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID")
            conn.execute(f"PRAGMA user_version = {STORE_VERSION}")
        elif "responses" not in tables or version != STORE_VERSION:
            raise LLMCacheError(f"{path} is a SQLite file but not an LLM response cache (version {version}, "
                                f"tables {sorted(tables)}): choose another cache_path")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def _not_a_cache(path: Path) -> LLMCacheError:
    return LLMCacheError(f"{path} is not an LLM response cache (neither SQLite nor a {CACHE_SCHEMA} JSON file): "
                         f"delete it or choose another cache_path")


@contextmanager
def _migration_lock(path: Path) -> Iterator[None]:
    lock_path = path.with_name(path.name + ".lock")
    if sys.platform == "win32":  # pragma: no cover
        yield
        return
    with open(lock_path, "a+b") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            try:  # openers waiting on this lock re-read the file and find it migrated
                lock_path.unlink()
            except OSError:
                pass
            fcntl.flock(f, fcntl.LOCK_UN)


def _migrate_json(path: Path) -> None:
    """Replace the JSON cache at ``path`` by a SQLite cache holding its entries (the JSON kept as .v1.json).

    The new file is built beside the old one and renamed over it, so ``path`` is at every moment either the
    JSON file or the complete SQLite file; migrators take turns and each re-reads the file under the lock."""
    with _migration_lock(path):
        if file_kind(path) != "json":
            return  # another process migrated it while this one waited
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError, RecursionError):
            data = None
        entries = data.get("entries") if isinstance(data, dict) and data.get("schema") == CACHE_SCHEMA else None
        if not isinstance(entries, dict):
            raise _not_a_cache(path)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.migrating")
        tmp.unlink(missing_ok=True)
        try:
            conn = sqlite3.connect(str(tmp), isolation_level=None)
            try:
                conn.execute("CREATE TABLE responses (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID")
                conn.execute(f"PRAGMA user_version = {STORE_VERSION}")
                with conn:
                    conn.execute("BEGIN")
                    conn.executemany("INSERT OR REPLACE INTO responses (key, value) VALUES (?, ?)",
                                     ((str(k), json.dumps(v, ensure_ascii=False, separators=(",", ":")))
                                      for k, v in entries.items() if isinstance(v, dict)))
            finally:
                conn.close()
            shutil.copy2(path, path.with_name(path.name + ".v1.json"))
            os.replace(tmp, path)
        except (OSError, sqlite3.Error) as e:
            tmp.unlink(missing_ok=True)
            raise LLMCacheError(f"cannot migrate the JSON LLM response cache {path}: {one_line(e, 160)}") from None


__all__ = ["ResponseCache", "CACHE_SCHEMA", "STORE_VERSION", "open_store", "file_kind"]
