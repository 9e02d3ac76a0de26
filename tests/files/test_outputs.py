"""belief.files.outputs: atomic writes, overwrite refusal, flat tables, and the end marker of written traces."""

import csv
import io
import os
import stat

import pytest

from belief.errors import TraceError
from belief.files.outputs import (TEMP_SUFFIX, OutputConflictError, OutputExistsError, OutputPathError, atomic_write_text,
                            check_outputs, csv_text, jsonl_text, refuse_existing, remove_stale_temps, same_file)
from belief.truth.completeness import trace_completeness, trace_is_complete
from belief.truth.trace import Enter, Move, Trace


def _trace() -> Trace:
    return Trace([Enter(agents=("Sally", "Anne"), room="kitchen"),
                  Move(agent="Sally", object="marble", to="basket")], meta={"story": "t"})


def test_atomic_write_replaces_whole_files_and_leaves_no_temporary(tmp_path):
    p = tmp_path / "out.txt"
    atomic_write_text(p, "first\n")
    atomic_write_text(p, "second\n")
    assert p.read_text() == "second\n"
    assert sorted(x.name for x in p.parent.iterdir()) == ["out.txt"]
    with pytest.raises(FileNotFoundError):  # the folder must exist: commands check outputs before working
        atomic_write_text(tmp_path / "no" / "such.txt", "x")


def test_a_failed_write_keeps_the_old_file(tmp_path, monkeypatch):
    p = tmp_path / "out.txt"
    atomic_write_text(p, "old\n")

    def broken_replace(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError, match="disk full"):
        atomic_write_text(p, "new\n")
    assert p.read_text() == "old\n"
    assert [x.name for x in tmp_path.iterdir()] == ["out.txt"]


def test_stale_temporaries_of_killed_writes_are_removed_and_nothing_else(tmp_path):
    (tmp_path / f".out.txt.abc{TEMP_SUFFIX}").write_text("half")
    (tmp_path / "notes.tmp").write_text("mine")
    (tmp_path / ".hidden").write_text("mine")
    remove_stale_temps(tmp_path)
    assert sorted(x.name for x in tmp_path.iterdir()) == [".hidden", "notes.tmp"]


def test_refuse_existing(tmp_path):
    p = tmp_path / "a.jsonl"
    refuse_existing([p, None], force=False)  # nothing there: fine
    p.write_text("x")
    with pytest.raises(OutputExistsError, match="a.jsonl exists; pass --force"):
        refuse_existing([p], force=False)
    refuse_existing([p], force=True)
    assert same_file(p, tmp_path / "." / "a.jsonl") and not same_file(p, tmp_path / "b.jsonl")


def test_flat_tables():
    rows = [{"id": "q1", "gold": True, "answer": "No, it is not.", "correct": False, "x": None, "seq": [1, 2]},
            {"id": "q2", "gold": False, "answer": 'He said "no", twice', "correct": True}]
    text = csv_text(rows, ["id", "gold", "answer", "correct", "x", "seq"])
    back = list(csv.DictReader(io.StringIO(text)))
    assert back[0] == {"id": "q1", "gold": "true", "answer": "No, it is not.", "correct": "false", "x": "",
                       "seq": "[1, 2]"}
    assert back[1]["answer"] == 'He said "no", twice' and back[1]["x"] == ""
    assert jsonl_text(rows).count("\n") == 2 and jsonl_text([]) == ""


def test_written_traces_end_with_their_marker(tmp_path):
    p = tmp_path / "t.jsonl"
    _trace().write(p)
    lines = p.read_text().splitlines()
    assert lines[-1] == '{"end": {"events": 2}}'
    assert trace_is_complete(p) and trace_completeness(p) is None
    back = Trace.read(p)
    assert back.ended and len(back) == 2 and back.dumps() == p.read_text()


@pytest.mark.parametrize("cut, reason", [
    (lambda lines: "\n".join(lines[:-1]) + "\n", "no end marker after its 2 event"),  # cut at a line boundary
    (lambda lines: "\n".join(lines[:2]) + "\n", "no end marker after its 1 event"),
    (lambda lines: "\n".join(lines)[:-9], "cut in the middle of line"),  # cut inside the end marker
    (lambda lines: "\n".join(lines[:2]) + "\n" + lines[2][:15], "cut in the middle of line 3"),
    (lambda lines: "", "empty"),
])
def test_cut_traces_are_reported_incomplete(tmp_path, cut, reason):
    p = tmp_path / "t.jsonl"
    _trace().write(p)
    p.write_text(cut(p.read_text().splitlines()))
    assert not trace_is_complete(p)
    assert reason in trace_completeness(p)


def test_a_trace_without_end_marker_still_reads_but_is_not_ended(tmp_path):
    p = tmp_path / "t.jsonl"
    _trace().write(p)
    lines = p.read_text().splitlines()
    p.write_text("\n".join(lines[:-1]) + "\n")
    t = Trace.read(p)
    assert len(t) == 2 and not t.ended


def test_a_lying_or_misplaced_end_marker_is_a_trace_error(tmp_path):
    lines = _trace().dumps().splitlines()
    with pytest.raises(TraceError, match="does not match the 1 event"):
        Trace.loads("\n".join(lines[:2] + ['{"end": {"events": 2}}']) + "\n")
    with pytest.raises(TraceError, match="nothing may follow the end marker"):
        Trace.loads("\n".join(lines + [lines[1]]) + "\n")
    p = tmp_path / "t.jsonl"
    p.write_text("\n".join(lines[:2] + ['{"end": {"events": 7}}']) + "\n")
    assert "malformed" in trace_completeness(p)


def test_check_outputs_before_any_work(tmp_path):
    src, out = tmp_path / "in.txt", tmp_path / "out.jsonl"
    src.write_text("data")
    check_outputs({"--out": out, "--other": None}, [src])
    with pytest.raises(OutputConflictError, match="--out .* is an input"):
        check_outputs({"--out": tmp_path / "." / "in.txt"}, [src], force=True)
    with pytest.raises(OutputConflictError, match="--a and --b name the same file"):
        check_outputs({"--a": out, "--b": out})
    with pytest.raises(OutputPathError, match="no directory"):
        check_outputs({"--out": tmp_path / "missing" / "x.csv"})
    with pytest.raises(OutputPathError, match="is a directory"):
        check_outputs({"--out": tmp_path}, force=True)
    out.write_text("old")
    with pytest.raises(OutputExistsError):
        check_outputs({"--out": out})
    check_outputs({"--out": out}, force=True)


def test_results_tables_by_suffix(tmp_path):
    from belief.files.outputs import write_table

    rows = [{"agent": "cobel", "rate": 0.9, "planner": {"calls": 3, "seconds": 0.5}, "pair": [1, 2]},
            {"agent": "silent", "rate": 0.8, "planner": {"calls": 1}, "extra": True}]
    write_table(tmp_path / "r.json", rows)
    assert __import__("json").loads((tmp_path / "r.json").read_text()) == rows
    write_table(tmp_path / "r.jsonl", rows)
    first = __import__("json").loads((tmp_path / "r.jsonl").read_text().splitlines()[0])
    assert first == {"agent": "cobel", "rate": 0.9, "planner.calls": 3, "planner.seconds": 0.5, "pair": [1, 2]}
    write_table(tmp_path / "r.csv", rows)
    back = list(csv.DictReader(io.StringIO((tmp_path / "r.csv").read_text())))
    assert list(back[0]) == ["agent", "rate", "planner.calls", "planner.seconds", "pair", "extra"]
    assert back[1] == {"agent": "silent", "rate": "0.8", "planner.calls": "1", "planner.seconds": "", "pair": "",
                       "extra": "true"}
    with pytest.raises(OutputPathError, match="--results .*r.txt"):
        check_outputs({"--results": tmp_path / "r.txt"}, tables=("--results",))


def test_atomic_writes_get_ordinary_permissions(tmp_path):
    old = os.umask(0o022)
    try:
        out = atomic_write_text(tmp_path / "rows.jsonl", "{}\n")
        assert stat.S_IMODE(out.stat().st_mode) == 0o644  # not mkstemp's owner-only 0600
        plain = tmp_path / "plain.txt"
        plain.write_text("x")
        assert stat.S_IMODE(out.stat().st_mode) == stat.S_IMODE(plain.stat().st_mode)
    finally:
        os.umask(old)
