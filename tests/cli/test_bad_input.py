"""Bad input to any command: a non-zero exit, exactly one `error:` line on stderr, no traceback, bounded output.

Each case reproduces a report of issue 11 (a traceback, a boxed usage panel, a silent exit 0, or megabytes
echoed back). The table runs in-process through typer's CliRunner (the same root command the console script
runs); two cases run the installed console script in a subprocess.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from belief.app.cli import app
from belief.logic.formula import MAX_DEPTH

runner = CliRunner()
MAX_OUTPUT = 4000  # bytes: an error about a 10 MB line must not echo it


def _chain(n: int) -> str:
    return " BELIEVE ".join(f"a{i % 2}" for i in range(n)) + " BELIEVE x IN y"


def _trace(*events, header='{"schema_version": 1}', end=True) -> str:
    """A trace file's text: header, events and (unless `end` is False: a trace cut short) its end marker."""
    marker = [json.dumps({"end": {"events": len(events)}})] if end else []
    return "\n".join([header, *events, *marker]) + "\n"


ENTER = '{"kind": "enter", "agents": ["Alice", "Bob"], "room": "kitchen"}'
PLACE = '{"kind": "statement", "subject": "apple", "value": "box", "room": "kitchen"}'
GOOD_TRACE = _trace(ENTER, PLACE)
Q = "? Alice BELIEVE apple IN ?c"

# (id, files {name: text}, argv with @name for a file's path, exit code, a phrase the error line must contain)
CASES = [
    ("deep-readable", {"f.txt": _chain(3000) + "\n"}, ["parse", "@f.txt"], 1, f"deeper than {MAX_DEPTH}"),
    ("deep-sexpr", {"f.sexpr": "".join(f"(believes a{i % 2} " for i in range(3000)) + "(in x y)" + ")" * 3000 + "\n"},
     ["parse", "@f.sexpr", "--form", "sexpr"], 1, f"deeper than {MAX_DEPTH}"),
    ("deep-quoted-rule", {"d.pddl": '(define (domain d) (:predicates (in ?a ?b)) (:rules "' + _chain(300) + '"))'},
     ["parse", "@d.pddl"], 1, "d.pddl:1:"),
    ("10MB-line", {"f.txt": "a IN b " + "x" * 10_000_000 + "\n"}, ["parse", "@f.txt"], 1, "a fact is complete"),
    ("10MB-name", {"f.txt": "a" * 10_000_000 + " IN b c\n"}, ["parse", "@f.txt"], 1, "a fact is complete"),
    ("trace-deep-json", {"t.jsonl": _trace('{"kind": "noop", "agent": "A", "x": ' + "[" * 100_000 + "]" * 100_000 + "}")},
     ["explain", "@t.jsonl", Q], 1, "t.jsonl:2: invalid JSON: nested too deeply"),
    ("trace-deep-header", {"t.jsonl": '{"schema_version": 1, "meta": ' + "[" * 100_000 + "]" * 100_000 + "}\n"},
     ["explain", "@t.jsonl", Q], 1, "nested too deeply"),
    ("trace-huge-int", {"t.jsonl": _trace('{"kind": "noop", "agent": "A", "chapter": ' + "9" * 5000 + "}")},
     ["explain", "@t.jsonl", Q], 1, "an integer of 5000 digits"),
    ("trace-meta-list", {"t.jsonl": _trace(ENTER, header='{"schema_version": 1, "meta": [1, 2]}')},
     ["explain", "@t.jsonl", Q], 1, "meta must be a JSON object"),
    ("trace-name-space", {"t.jsonl": _trace('{"kind": "enter", "agents": ["Ali ce"], "room": "kitchen"}')},
     ["explain", "@t.jsonl", Q], 1, "invalid name 'Ali ce'"),
    ("trace-name-empty", {"t.jsonl": _trace('{"kind": "enter", "agents": ["Alice"], "room": ""}')},
     ["explain", "@t.jsonl", Q], 1, "invalid name ''"),
    ("trace-name-nul", {"t.jsonl": _trace('{"kind": "enter", "agents": ["Al\\u0000ice"], "room": "kitchen"}')},
     ["explain", "@t.jsonl", Q], 1, "invalid name"),
    ("trace-bad-kind", {"t.jsonl": _trace('{"kind": "' + "k" * 1_000_000 + '"}')},
     ["explain", "@t.jsonl", Q], 1, "unknown event kind"),
    ("explain-at-out-of-range", {"t.jsonl": GOOD_TRACE}, ["explain", "@t.jsonl", Q, "--at", "99"], 1,
     "at=99 is out of range"),
    ("explain-unknown-agent", {"t.jsonl": GOOD_TRACE}, ["explain", "@t.jsonl", "? Aliec BELIEVE apple IN ?c"], 1,
     "no such agent 'Aliec' (did you mean 'Alice'?)"),
    ("explain-unknown-entity", {"t.jsonl": GOOD_TRACE}, ["explain", "@t.jsonl", "? Alice BELIEVE aple IN ?c"], 1,
     "no such entity 'aple' (did you mean 'apple'?)"),
    ("explain-domain-mismatch",
     {"t.jsonl": _trace(ENTER, PLACE, '{"kind": "move", "agent": "Alice", "object": "apple", "to": "Bob"}'),
      "s.pddl": "(define (problem p) (:domain tomi) (:agents Alice Bob)\n"
                "  (:objects kitchen - room box - container apple - item))\n"},
     ["explain", "@t.jsonl", Q, "--domain", "@s.pddl"], 1, "must be a place, but 'Bob' is an agent"),
    ("query-unknown-agent", {"f.txt": "Alice BELIEVE apple IN box\n"}, ["query", "@f.txt", Q.replace("Alice", "Aliec")],
     1, "no such agent 'Aliec' (did you mean 'Alice'?)"),
    ("tomi-empty", {"s.txt": ""}, ["tomi", "@s.txt"], 1, "no ToMi stories"),
    ("hitom-empty", {"h.json": '{"data": []}'}, ["hitom", "@h.json"], 1, "no Hi-ToM questions"),
    ("hitom-question-order", {"h.json": json.dumps({"data": [{"story": ["A entered the r."], "question": "Where is the x "
                                                               "really?", "answer": "b", "question_order": "two"}]})},
     ["hitom", "@h.json"], 1, "question_order must be a non-negative integer, got 'two'"),
    ("bench-parse-facts-0", {}, ["bench", "parse", "--facts", "0"], 2, "'--facts'"),
    ("bench-checker-agents-0", {}, ["bench", "checker", "--agents", "0"], 2, "'--agents'"),
    ("bench-checker-not-a-number", {}, ["bench", "checker", "--agents", "x"], 2, "'--agents'"),
    ("run-transport-planner", {}, ["run", "transport", "--planner", "nope"], 2, "--planner must be one of"),
    ("unknown-option", {}, ["parse", "-", "--bogus"], 2, "No such option: --bogus"),
    ("unknown-command", {}, ["bench", "nope"], 2, "No such command 'nope'"),
    ("missing-argument", {}, ["explain"], 2, "Missing argument"),
]


def _run(tmp_path: Path, files: dict, argv: list):
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    args = [str(tmp_path / a[1:]) if a.startswith("@") else a for a in argv]
    return runner.invoke(app, args, prog_name="belief")


def assert_one_error_line(code: int, stdout: str, stderr: str, expected_code: int, phrase: str):
    errors = [line for line in stderr.splitlines() if line.startswith("error:")]
    assert code == expected_code, (code, stdout[-500:], stderr[-500:])
    assert len(errors) == 1, stderr[-1000:]
    assert phrase in errors[0], errors[0]
    assert "Traceback" not in stdout + stderr
    assert "╭" not in stderr  # no boxed usage panel
    assert len(stdout) + len(stderr) < MAX_OUTPUT, (len(stdout), len(stderr))
    assert stdout == ""


@pytest.mark.parametrize("files,argv,code,phrase", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_input_is_one_error_line(tmp_path, files, argv, code, phrase):
    r = _run(tmp_path, files, argv)
    assert_one_error_line(r.exit_code, r.stdout, r.stderr, code, phrase)


def test_good_inputs_next_to_the_bad_ones_still_work(tmp_path):
    bom = _run(tmp_path, {"t.jsonl": "\ufeff" + GOOD_TRACE}, ["explain", "@t.jsonl", Q, "--json"])
    assert bom.exit_code == 0, bom.stderr
    assert json.loads(bom.stdout)[0]["value"] == "box"
    typed = _run(tmp_path, {"t.jsonl": GOOD_TRACE}, ["explain", "@t.jsonl", Q, "--domain", "tomi", "--at", "-1"])
    assert typed.exit_code == 0, typed.stderr
    deepest = _run(tmp_path, {"f.txt": _chain(MAX_DEPTH - 1) + "\n"}, ["parse", "@f.txt", "--form", "sexpr"])
    assert deepest.exit_code == 0 and deepest.stdout.count("(believes") == MAX_DEPTH - 1, deepest.stderr[-300:]
    one_agent = runner.invoke(app, ["bench", "checker", "--agents", "1", "--events", "500", "--queries", "50",
                                    "--no-progress", "--json"])
    assert one_agent.exit_code == 0, one_agent.output[-500:]
    assert json.loads(one_agent.stdout.splitlines()[-1])["agents"] == 1


@pytest.mark.parametrize("argv,code,phrase", [
    (["bench", "checker", "--agents", "0"], 2, "'--agents'"),
    (["explain", "{trace}", "? Aliec BELIEVE apple IN ?c"], 1, "no such agent 'Aliec'"),
], ids=["usage", "content"])
def test_the_console_script_prints_one_error_line(tmp_path, argv, code, phrase):
    trace = tmp_path / "t.jsonl"
    trace.write_text(GOOD_TRACE)
    script = Path(sys.executable).parent / "belief"
    cmd = [str(script)] if script.exists() else [sys.executable, "-m", "belief"]
    r = subprocess.run(cmd + [a.format(trace=trace) for a in argv], capture_output=True, text=True, timeout=120)
    assert_one_error_line(r.returncode, r.stdout, r.stderr, code, phrase)
