"""Bad input of issue 18: each case ends with one `error:` line on stderr and a non-zero exit, no traceback.

The table runs in-process (typer's CliRunner, the console script's root command); files are written to a
temporary directory first (``@name`` in argv stands for a file's path). Run directories are tested in
tests/cli/test_run_manifest_input.py, killed pools in tests/cli/test_pool_dies_with_main.py.
"""

import json

import pytest

from tests.cli.test_bad_input import ENTER, PLACE, Q, _run, _trace, assert_one_error_line

GOOD_TRACE = _trace(ENTER, PLACE)
QUESTION = json.dumps({"id": "q1", "kind": "value", "chain": ["Alice"], "fluent": "in(apple)"}) + "\n"


def _answer(answer_json: str, episode: str = "E") -> str:
    return '{"id": "q1", "episode": "' + episode + '", "answer": ' + answer_json + "}\n"


def _named_trace(*events) -> str:
    return _trace(*events, header='{"schema_version": 1, "meta": {"episode": "E"}}')


NAMED = _named_trace(ENTER, PLACE)
GRADE = ["grade", "@t.jsonl", "@a.jsonl", "--questions", "@q.jsonl"]
#: a benchmark comparison in the one bench shape (docs/benchmarks.md); _bench puts another value for its 0.5
BENCH = {"world": "transport_v0", "headline": "cobel", "episodes": 2, "seed": 0,
         "metrics": {"transport_rate": {"higher_is_better": True, "unit": "fraction"}},
         "by_agent": {"cobel": {"transport_rate": 0.5, "ci95": {"transport_rate": None}, "n": {"transport_rate": 2},
                                "episodes": 2}},
         "diff_vs": {}, "extra": {}}


def _bench(rate: str) -> str:
    return json.dumps(BENCH).replace("0.5", rate) + "\n"


def _flat_run(status: str) -> dict:
    """A run directory's files (flat layout) with its manifest's status."""
    episode = {"episode": "bomb_0", "seed": 0, "agents": "belief,belief,belief", "rounds": 4}
    question = {"episode": "bomb_0", "order": 0, "template": "contents", "agent": "alpha", "correct": True}
    return {"run/episodes.jsonl": json.dumps(episode) + "\n", "run/questions.jsonl": json.dumps(question) + "\n",
            "run/manifest.json": json.dumps({"format": "belief-run", "version": 1, "status": status})}


# (id, files {name: text}, argv with @name for a file's path, exit code, a phrase the error line must contain)
CASES = [
    # explain answers only from a whole trace, as grade does
    ("explain-cut-short", {"t.jsonl": _trace(ENTER, PLACE, end=False)}, ["explain", "@t.jsonl", Q], 1,
     "incomplete trace: it has no end marker after its 2 event(s)"),
    ("explain-cut-mid-line", {"t.jsonl": GOOD_TRACE[:-5]}, ["explain", "@t.jsonl", Q], 1,
     "incomplete trace: it is cut in the middle of line 4"),
    # a trace naming more agents than the checker takes is refused, not checked for minutes
    ("explain-too-many-agents",
     {"t.jsonl": _trace(json.dumps({"kind": "enter", "agents": [f"a{i}" for i in range(100_000)], "room": "k"}),
                        PLACE)},
     ["explain", "@t.jsonl", "? a0 BELIEVE apple IN ?c"], 1, "the trace names more than 1000 agents"),
    # grade: strict JSON in answers and questions
    ("grade-deep-answers", {"t.jsonl": NAMED, "q.jsonl": QUESTION, "a.jsonl": _answer("[" * 100_000 + "]" * 100_000)},
     GRADE, 1, "a.jsonl:1: invalid JSON: nested too deeply"),
    ("grade-huge-int-answers", {"t.jsonl": NAMED, "q.jsonl": QUESTION, "a.jsonl": _answer("9" * 5000)},
     GRADE, 1, "an integer of 5000 digits"),
    ("grade-deep-questions", {"t.jsonl": NAMED, "a.jsonl": _answer('"box"'),
                              "q.jsonl": '{"id": ' + "[" * 100_000 + "]" * 100_000 + "}\n"},
     GRADE, 1, "q.jsonl:1: invalid JSON: nested too deeply"),
    ("grade-nan-answer", {"t.jsonl": NAMED, "q.jsonl": QUESTION, "a.jsonl": _answer("NaN")},
     GRADE, 1, "NaN is not valid here"),
    ("grade-1e999-answer", {"t.jsonl": NAMED, "q.jsonl": QUESTION, "a.jsonl": _answer("1e999")},
     GRADE, 1, "too large for a float"),
    ("grade-number-answer", {"t.jsonl": NAMED, "q.jsonl": QUESTION, "a.jsonl": _answer("3")},
     GRADE, 1, "\"answer\" must be a string"),
    ("grade-time-as-string", {"t.jsonl": NAMED, "a.jsonl": _answer('"box"'),
                              "q.jsonl": QUESTION.replace('"fluent"', '"time": "1", "fluent"')},
     GRADE, 1, "time"),
    ("grade-answers-of-another-trace",
     {"t.jsonl": NAMED, "q.jsonl": QUESTION, "a.jsonl": _answer('"box", "trace": "' + "0" * 64 + '"')},
     GRADE, 1, "made for the trace '0000"),
    ("grade-cut-short", {"t.jsonl": _named_trace(ENTER, PLACE)[:-1].rsplit("\n", 1)[0] + "\n", "q.jsonl": QUESTION,
                         "a.jsonl": _answer('"box"')}, GRADE, 1, "incomplete trace"),
    # counts and seeds are bounded
    ("run-bomb-episodes-2**70", {}, ["run", "bomb", "--episodes", str(2**70)], 2,
     "Invalid value for '--episodes': 1180591620717411303424 is out of range (at most 1,000,000 episodes"),
    ("run-bomb-seed-2**70", {}, ["run", "bomb", "--seed", str(2**70)], 2,
     "'--seed': 1180591620717411303424 is out of range (it must fit in a signed 64-bit integer)"),
    ("run-hanabi-games", {}, ["run", "hanabi", "--games", "10000000"], 2, "'--games': 10000000 is out of range"),
    ("bench-transport-worlds", {}, ["bench", "transport", "--worlds", str(2**64)], 2, "'--worlds'"),
    ("run-bomb-seed-5000-digits", {}, ["run", "bomb", "--seed", "9" * 5000], 2, "'--seed'"),
    # empty or malformed names and texts
    ("run-bomb-empty-agent-kind", {}, ["run", "bomb", "--agents", "belief,,belief,belief"], 2,
     "has an empty agent kind"),
    ("demo-empty-scenario", {}, ["demo", "--scenario", ""], 2, "--scenario is empty"),
    ("translate-empty-text", {}, ["translate", "", "--agent", "alpha"], 2, "the observation text is empty"),
    ("translate-blank-text", {}, ["translate", " \t ", "--agent", "alpha"], 2, "the observation text is empty"),
    ("problem-without-domain", {"p.pddl": "(define (problem p) (:agents Alice Bob)\n"
                                          "  (:objects kitchen - room box - container apple - item))\n"},
     ["parse", "@p.pddl"], 1, "(define (problem p) ...) names no domain: add (:domain NAME)"),
    ("query-problem-without-domain", {"p.pddl": "(define (problem p) (:agents Alice))\n"},
     ["query", "@p.pddl", Q], 1, "names no domain"),
    ("tomi-line-of-tabs", {"s.txt": "1 Sally entered the kitchen.\n2 The marble is in the box.\n\t\t\n"
                                    "3 Where is the marble really?\tbox\t1\n"},
     ["tomi", "@s.txt"], 1, "s.txt:3: a line of only tabs"),
    ("tomi-numbered-tabs", {"s.txt": "1 Sally entered the kitchen.\n2\t\t\n3 Where is the marble really?\tbox\t1\n"},
     ["tomi", "@s.txt"], 1, "s.txt:2: expected 'N sentence'"),
    ("tomi-huge-line-number", {"s.txt": "9" * 5000 + " Sally entered the kitchen.\n"}, ["tomi", "@s.txt"], 1,
     "s.txt:1: expected 'N sentence' (N a line number of at most 9 digits)"),
    ("tomi-long-sentence", {"s.txt": "1 Sally entered the " + "(" * 100_000 + "\n2 Where is the marble really?\tbox\t1\n"},
     ["tomi", "@s.txt"], 1, "s.txt:1: unknown ToMi sentence 'Sally entered the (((("),
    # keywords are not names
    ("keywords-as-names", {"f.txt": "BELIEVE IN NOT\n"}, ["parse", "@f.txt"], 1, "f.txt:1:1: "),
    ("keyword-after-not", {"f.txt": "NOT IN box\n"}, ["parse", "@f.txt"], 1, "f.txt:1:5: "),
    ("keyword-as-believer", {"f.txt": "Alice BELIEVE UNSURE IN box\n"}, ["parse", "@f.txt"], 1, "f.txt:1:15: "),
    ("keyword-in-query", {"f.txt": "Alice BELIEVE apple IN box\n"}, ["query", "@f.txt", "? NOT BELIEVE apple IN ?c"],
     1, "1:7: missing an entity or agent name after 'NOT', got 'BELIEVE'"),
    # plot draws only finished results with finite numbers
    ("plot-trace-file", {"run/bomb_0.trace.jsonl": GOOD_TRACE, **_flat_run("complete")},
     ["plot", "@run/bomb_0.trace.jsonl", "--out", "@f.png"], 1, "is an episode trace, not results to plot"),
    ("plot-trace-file-any-name", {"t.jsonl": GOOD_TRACE}, ["plot", "@t.jsonl", "--out", "@f.png"], 1,
     "is an episode trace"),
    ("plot-nan", {"b.json": _bench("NaN")}, ["plot", "@b.json", "--out", "@f.png"], 1,
     "invalid JSON: NaN is not valid here"),
    ("plot-string", {"b.json": _bench('"0.5"')}, ["plot", "@b.json", "--out", "@f.png"], 1,
     "transport_rate must be a finite number, got \"0.5\""),
    ("plot-1e999", {"b.json": _bench("1e999")}, ["plot", "@b.json", "--out", "@f.png"], 1,
     "invalid JSON: the number 1e999 is too large for a float"),
    ("plot-rounds-1e999", {**_flat_run("complete"),
                           "run/episodes.jsonl": '{"episode": "bomb_0", "agents": "belief", "rounds": 1e999}\n'},
     ["plot", "@run", "--out", "@f.png"], 1, "episodes.jsonl:1: invalid JSON: the number 1e999 is too large"),
    ("plot-running-run", _flat_run("running"), ["plot", "@run", "--out", "@f.png"], 1,
     "the run is not finished (its manifest says 'running'"),
    # coordqa --out names a directory
    ("coordqa-out-is-a-file", {"x.txt": "mine"}, ["coordqa", "capture", "--out", "@x.txt"], 2,
     "is a file"),
]


@pytest.mark.parametrize("files,argv,code,phrase", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_input_is_one_error_line(tmp_path, files, argv, code, phrase):
    (tmp_path / "run").mkdir()
    r = _run(tmp_path, files, argv)
    assert_one_error_line(r.exit_code, r.stdout, r.stderr, code, phrase)
    assert not (tmp_path / "f.png").exists()


BOM = "\ufeff"


@pytest.mark.parametrize("files,argv,expected", [
    ({"f.txt": BOM + "Alice BELIEVE apple IN box\n"}, ["parse", "@f.txt"], "Alice BELIEVE apple IN box"),
    ({"f.txt": BOM + "Alice BELIEVE apple IN box\n"}, ["query", "@f.txt", Q, "--json"], '"box"'),
    ({"s.pddl": BOM + "; a comment\n(define (problem p) (:domain tomi) (:agents Alice)\n"
                      "  (:objects kitchen - room box - container apple - item)\n"
                      '  (:init "Alice BELIEVE apple IN box"))\n'}, ["query", "@s.pddl", Q, "--json"], '"box"'),
    ({"t.jsonl": NAMED, "q.jsonl": BOM + QUESTION, "a.jsonl": BOM + _answer('"in the box"')},
     GRADE + ["--json"], '"correct": 1'),
    ({"b.json": BOM + _bench("0.5")}, ["plot", "@b.json", "--out", "@f.png"], "wrote"),
], ids=["parse", "query", "scenario", "grade", "plot"])
def test_a_file_starting_with_a_utf8_bom_is_read(tmp_path, files, argv, expected):
    r = _run(tmp_path, files, argv)
    assert r.exit_code == 0, r.stderr[-500:]
    assert expected in r.stdout


def test_names_that_merely_start_with_a_keyword_are_names(tmp_path):
    r = _run(tmp_path, {"f.txt": "NOTE BELIEVE IN_box IN BELIEVER\nAlice BELIEVE NOT NOT-x AT IN-1\n"},
             ["parse", "@f.txt"])
    assert r.exit_code == 0, r.stderr
    assert r.stdout.splitlines() == ["NOTE BELIEVE IN_box IN BELIEVER", "Alice BELIEVE NOT NOT-x AT IN-1"]


@pytest.mark.parametrize("argv, phrase", [
    (["run", "bomb", "--episodes", str(2**70)], "at most 1,000,000 episodes"),
    (["run", "hanabi", "--seed", str(2**70)], "signed 64-bit integer"),
    (["bench", "transport", "--worlds", str(2**64)], "at most 1,000,000 worlds"),
], ids=["run-bomb-episodes", "run-hanabi-seed", "bench-transport-worlds"])
def test_a_fresh_process_bounds_the_command_it_loads(argv, phrase):
    """In a fresh process each command module is imported only when its command is resolved, after the root
    command started: its integer options must be bounded then too (a run of 2**70 episodes never starts)."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "belief", *argv], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert phrase in done.stderr and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
