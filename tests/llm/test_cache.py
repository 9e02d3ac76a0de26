"""The response cache: in memory, or a SQLite file shared by processes (one row per key, never rewritten)."""
import json
import multiprocessing
import os
import sqlite3
import subprocess
import sys
import time

import pytest

from belief.errors import BeliefError
from belief.llm.cache import CACHE_SCHEMA, ResponseCache, file_kind
from belief.llm.client import LLMClient
from belief.llm.config import LLMConfig
from belief.llm.errors import LLMCacheError

WRITER = """
import sys, time
from belief.llm.cache import ResponseCache
path, tag, n, start = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
cache = ResponseCache(path)
while time.time() < start:  # both processes begin writing at the same moment
    time.sleep(0.001)
for i in range(n):
    cache.put(f"{tag}-{i}", {"text": f"{tag} answer {i}", "usage": {"total_tokens": i}})
"""


def run_writers(path, tags, n):
    start = time.time() + 1.5  # time for both interpreters to start
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(path), tag, str(n), str(start)]) for tag in tags]
    for p in procs:
        assert p.wait(timeout=120) == 0


def test_memory_cache_by_default():
    cache = ResponseCache()
    k = ResponseCache.key({"b": 1, "a": [1, 2]})
    assert k == ResponseCache.key({"a": [1, 2], "b": 1}) and len(k) == 64
    assert cache.get(k) is None
    cache.put(k, {"text": "x"})
    assert cache.get(k) == {"text": "x"} and len(cache) == 1 and cache.path is None


def test_a_file_cache_persists_across_instances(tmp_path):
    path = tmp_path / "sub" / "cache.sqlite"
    with ResponseCache(path) as a:
        a.put("k1", {"text": "one", "usage": {"total_tokens": 3}})
        a.put("k1", {"text": "one again"})  # replaced, not duplicated
        a.put("k2", {"value": {"facts": ["a IN b"]}, "text": "t"})
    assert file_kind(path) == "sqlite"
    b = ResponseCache(path)
    assert len(b) == 2 and b.get("k1") == {"text": "one again"} and b.get("k2")["value"] == {"facts": ["a IN b"]}
    assert b.get("nope") is None


def test_two_processes_writing_distinct_keys_lose_nothing(tmp_path):
    path = tmp_path / "cache.sqlite"
    run_writers(path, ["a", "b"], 300)
    cache = ResponseCache(path)
    assert len(cache) == 600
    for tag in "ab":
        for i in range(300):
            assert cache.get(f"{tag}-{i}") == {"text": f"{tag} answer {i}", "usage": {"total_tokens": i}}


def test_a_forked_child_opens_its_own_connection(tmp_path):
    path = tmp_path / "cache.sqlite"
    cache = ResponseCache(path)
    cache.put("parent", {"text": "p"})

    def child():
        cache.put("child", {"text": "c"})  # the inherited connection is not used: a new one is opened

    p = multiprocessing.get_context("fork").Process(target=child)
    p.start()
    p.join(60)
    assert p.exitcode == 0
    assert cache.get("child") == {"text": "c"} and cache.get("parent") == {"text": "p"} and len(cache) == 2


def _wal(path):
    return path.with_name(path.name + "-wal")


@pytest.mark.parametrize("entries", [50, 3000])
def test_a_write_touches_a_few_pages_whatever_the_size(tmp_path, entries):
    """O(1) writes, checked on the files: one put leaves the database file byte for byte as it was and adds
    a few pages to the write-ahead log, the same at 50 entries as at 3000 (the old JSON cache rewrote the
    whole file each time)."""
    path = tmp_path / "cache.sqlite"
    cache = ResponseCache(path)
    for i in range(entries):
        cache.put(f"key-{i:06d}-{'x' * 40}", {"text": f"answer {i} " + "y" * 100, "usage": {"total_tokens": i}})
    other = sqlite3.connect(str(path))
    page = other.execute("PRAGMA page_size").fetchone()[0]
    other.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # everything into the database file, the log emptied
    other.close()
    before = path.read_bytes()
    inode = path.stat().st_ino
    assert _wal(path).stat().st_size == 0
    cache.put("one-more", {"text": "z" * 100})
    assert path.stat().st_ino == inode and path.read_bytes() == before  # the database file is not rewritten
    grown = _wal(path).stat().st_size
    assert 0 < grown <= 32 + 6 * (page + 24), grown  # a WAL header and a handful of frames
    if entries == 3000:
        assert len(before) > 50 * grown  # rewriting the store would cost far more than what was written
    assert cache.get("one-more") == {"text": "z" * 100} and len(cache) == entries + 1


@pytest.mark.parametrize("content", [b"\xff\xfe\x00binary", b"just some text\n", b'{"not": "a cache"}',
                                     b"{truncated", b"SQLite format 3\x00" + b"\x07" * 200])
def test_a_file_that_is_not_a_cache_is_a_clear_error_and_left_alone(tmp_path, content):
    path = tmp_path / "cache.json"
    path.write_bytes(content)
    with pytest.raises(LLMCacheError, match="cache") as ei:
        ResponseCache(path)
    assert isinstance(ei.value, BeliefError) and str(path) in str(ei.value) and "\n" not in str(ei.value)
    assert path.read_bytes() == content  # never deleted nor overwritten
    with pytest.raises(LLMCacheError):  # the client fails before any request is paid for
        LLMClient(LLMConfig(base_url="http://127.0.0.1:9/v1", model="m", cache_path=str(path)))


def test_another_sqlite_database_is_refused(tmp_path):
    path = tmp_path / "notes.db"
    conn = sqlite3.connect(str(path))
    conn.execute("CREATE TABLE notes (body TEXT)")
    conn.execute("INSERT INTO notes VALUES ('keep me')")
    conn.commit()
    conn.close()
    with pytest.raises(LLMCacheError, match="not an LLM response cache"):
        ResponseCache(path)
    conn = sqlite3.connect(str(path))
    assert conn.execute("SELECT body FROM notes").fetchall() == [("keep me",)]
    assert [r[0] for r in conn.execute("SELECT name FROM sqlite_master")] == ["notes"]
    conn.close()


def test_an_empty_file_is_a_new_cache(tmp_path):
    path = tmp_path / "cache.sqlite"
    path.touch()
    cache = ResponseCache(path)
    cache.put("k", {"text": "v"})
    assert ResponseCache(path).get("k") == {"text": "v"}


def old_json_cache(path, n):
    entries = {f"old-{i}": {"text": f"old answer {i}", "usage": {}} for i in range(n)}
    path.write_text(json.dumps({"schema": CACHE_SCHEMA, "entries": entries}, indent=0, sort_keys=True))
    return entries


def test_the_json_cache_of_earlier_versions_is_migrated_once(tmp_path):
    path = tmp_path / "cache.json"
    entries = old_json_cache(path, 3)
    original = path.read_bytes()
    cache = ResponseCache(path)
    assert file_kind(path) == "sqlite" and len(cache) == 3
    assert all(cache.get(k) == v for k, v in entries.items())
    assert (tmp_path / "cache.json.v1.json").read_bytes() == original  # kept beside it
    assert not (tmp_path / "cache.json.lock").exists()
    assert sorted(p.name for p in tmp_path.iterdir() if "migrating" in p.name) == []
    cache.put("new", {"text": "n"})
    assert len(ResponseCache(path)) == 4  # opened again: no second migration, nothing lost


def test_two_processes_opening_an_old_json_cache_at_once(tmp_path):
    path = tmp_path / "cache.json"
    old_json_cache(path, 50)
    run_writers(path, ["a", "b"], 100)
    cache = ResponseCache(path)
    assert len(cache) == 250
    assert cache.get("old-49") == {"text": "old answer 49", "usage": {}} and cache.get("b-99") is not None


def test_client_cache_hits_come_from_a_cache_another_process_wrote(tmp_path, fake):
    path = tmp_path / "cache.sqlite"
    fake.push("first answer")
    cfg = LLMConfig(base_url=fake.base_url, model="fake", api_key="k", max_retries=0, cache_path=str(path))
    code = ("import sys; from belief.llm.client import LLMClient; from belief.llm.config import LLMConfig; "
            "c = LLMClient(LLMConfig.model_validate_json(sys.argv[1])); print(c.chat([{'role': 'user', "
            "'content': 'hi'}]).text)")
    out = subprocess.run([sys.executable, "-c", code, cfg.model_dump_json()], capture_output=True, text=True,
                         timeout=120, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "first answer" and fake.count == 1
    llm = LLMClient(cfg)
    reply = llm.chat([{"role": "user", "content": "hi"}])
    assert reply.cached and reply.text == "first answer" and fake.count == 1 and llm.usage.cache_hits == 1
