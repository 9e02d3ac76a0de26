"""The core commands as a user runs them: the installed `belief` script in a subprocess."""

import json
import subprocess
import sys

import pytest

from belief import examples


def belief(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "belief", *args], input=stdin, capture_output=True, text=True,
                          timeout=120)


def test_parse_pretty_prints_in_each_form(tmp_path):
    f = tmp_path / "facts.bel"
    f.write_text("Alice BELIEVE Bob BELIEVE <apple> (12) IN kitchen @ 0.7\n# comment\nAlice BELIEVE NOT apple IN box\n")
    r = belief("parse", str(f))
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["Alice BELIEVE Bob BELIEVE apple_12 IN kitchen @ 0.7",
                                     "Alice BELIEVE NOT apple IN box"]
    r = belief("parse", str(f), "--form", "pdkb")
    assert r.stdout.splitlines()[0] == "[Alice][Bob](in apple_12 kitchen)"
    r = belief("parse", "-", "--form", "sexpr", stdin="a BELIEVE b IN c\n")
    assert r.stdout.strip() == "(believes a (in b c))"


def test_parse_error_exits_non_zero_with_position_and_no_traceback(tmp_path):
    f = tmp_path / "bad.bel"
    f.write_text("a IN b\nAlice BELIEVE apple\n")
    r = belief("parse", str(f))
    assert r.returncode == 1
    assert f"{f}:2:20: missing relation after 'apple'" in r.stderr
    assert "Traceback" not in r.stderr
    r = belief("parse", str(tmp_path / "missing.bel"))
    assert r.returncode == 1 and "no such file" in r.stderr


def test_parse_checks_scenarios_against_their_domain(tmp_path):
    f = tmp_path / "s.pddl"
    f.write_text(examples.text("sally_anne.pddl").replace("(in marble box)", "(in marble Sally)"))
    r = belief("parse", str(f))
    assert r.returncode == 1 and "must be a place" in r.stderr and "Traceback" not in r.stderr


def test_query_answers_with_bindings():
    path = str(examples.path("sally_anne.pddl"))
    r = belief("query", path, "? Anne BELIEVE Sally BELIEVE marble IN ?c", "--json")
    assert r.returncode == 0, r.stderr
    ans = json.loads(r.stdout)["answers"]
    assert ans[0]["bindings"] == {"c": "basket"} and ans[0]["stance"] == "believes"
    r = belief("query", "sally-anne", "? Anne BELIEVE marble IN basket")
    assert r.stdout.startswith("believes-not")
    r = belief("query", "sally-anne", "? Anne BELIEVE marble")
    assert r.returncode == 1 and "missing relation after 'marble'" in r.stderr


def test_demo_shows_chains_and_answers():
    r = belief("demo")
    assert r.returncode == 0, r.stderr
    assert "Anne → Sally" in r.stdout and "ToM queries" in r.stdout and "?c=basket" in r.stdout


def test_demo_bad_scenario_file_is_one_error_line(tmp_path):
    """Regression: a missing file, a directory or a non-UTF-8 file gave a raw traceback."""
    binary = tmp_path / "bin.pddl"
    binary.write_bytes(b"\xff\xfe")
    for path in (tmp_path / "missing.pddl", tmp_path, binary):
        r = belief("demo", "--scenario", str(path))
        assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
        assert r.stderr.startswith(f"error: {path}: cannot read") and len(r.stderr.splitlines()) == 1, r.stderr


@pytest.mark.slow
def test_bench_parse_prints_one_json_line():
    r = belief("bench", "parse", "--facts", "2000", "--json")
    assert r.returncode == 0, r.stderr
    figures = json.loads(r.stdout.strip().splitlines()[-1])
    assert set(figures) == {"readable_facts_per_s", "sexpr_facts_per_s", "facts"} and figures["facts"] == 2000
