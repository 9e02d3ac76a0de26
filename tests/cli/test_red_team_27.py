"""Red-team edges of issue 27: each case failed (a traceback, an exit 0 on bad input, work done before a bad
--out was noticed, files left behind) before its fix. Bad input is one `error:` line and a non-zero exit, and
loses nothing."""
import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from belief.app.cli import app
from belief.files.atomic import TEMP_SUFFIX

runner = CliRunner()


def _one_error(r, code: int, *phrases: str):
    errors = [line for line in r.stderr.splitlines() if line.startswith("error:")]
    assert r.exit_code == code, r.output[-800:]
    assert len(errors) == 1, r.stderr[-800:]
    assert all(p in errors[0] for p in phrases), errors[0]
    assert "Traceback" not in r.output


def _tree(d: Path) -> dict:
    return {p.relative_to(d).as_posix(): p.read_bytes() for p in sorted(d.rglob("*")) if p.is_file()}


# --- a tampered manifest ------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def finished_run(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("runs") / "run"
    r = runner.invoke(app, ["run", "bomb", "--episodes", "2", "--max-rounds", "4", "--out", str(d), "--no-progress",
                            "--executor", "serial"])
    assert r.exit_code == 0, r.output
    return d


def _pending(seed: int) -> dict:
    return {"name": f"bomb_{seed}", "seed": seed, "status": "pending", "files": {}, "result": None}


TAMPERING = {
    "result-null": (lambda m: m["episodes"][0].update(result=None), "episodes[0].result"),
    "result-text": (lambda m: m["episodes"][0].update(result="x"), "episodes[0].result"),
    "result-column-dropped": (lambda m: m["episodes"][0]["result"].pop("score"), "episodes[0].result"),
    "score-edited": (lambda m: m["episodes"][0]["result"].update(score=999), "episodes[0].result"),
    "entry-duplicated": (lambda m: m["episodes"].append(dict(m["episodes"][0])), "episodes[2]"),
    "entry-added": (lambda m: m["episodes"].append(_pending(7)), "episodes lists 3 entries"),
    "100k-entries": (lambda m: m["episodes"].extend(_pending(s) for s in range(100, 100_100)),
                     "episodes lists 100,002 entries"),
    "entries-emptied": (lambda m: m.update(episodes=[]), "episodes lists 0 entries"),
    "renamed": (lambda m: m["episodes"][0].update(name="bomb_77"), "episodes[0].name"),
    "seed-changed": (lambda m: m["episodes"][1].update(seed=-5), "episodes[1].seed"),
    "status-unknown": (lambda m: m["episodes"][0].update(status="weird"), "episodes[0].status"),
    "options-edited": (lambda m: m["options"].update(max_rounds="4"), "options"),
    "option-dropped": (lambda m: m["options"].pop("random_maps"), "options"),
    "options-not-an-object": (lambda m: m.update(options="x"), "options must be a JSON object"),
}


@pytest.mark.parametrize("case", sorted(TAMPERING))
def test_resume_refuses_a_tampered_manifest_naming_the_field(finished_run, tmp_path, case):
    edit, phrase = TAMPERING[case]
    d = tmp_path / "run"
    shutil.copytree(finished_run, d)
    m = json.loads((d / "manifest.json").read_text())
    edit(m)
    (d / "manifest.json").write_text(json.dumps(m))
    before = _tree(d)
    r = runner.invoke(app, ["run", "bomb", "--resume", str(d), "--no-progress", "--executor", "serial", "--json"])
    _one_error(r, 1, phrase)
    assert r.stdout == ""  # nothing played, nothing counted
    assert _tree(d) == before


def test_an_untouched_manifest_still_resumes_and_an_unfinished_episode_is_played(finished_run, tmp_path):
    d = tmp_path / "run"
    shutil.copytree(finished_run, d)
    m = json.loads((d / "manifest.json").read_text())
    m["episodes"][1]["status"] = "pending"  # a run killed before it recorded episode 1
    (d / "manifest.json").write_text(json.dumps(m))
    r = runner.invoke(app, ["run", "bomb", "--resume", str(d), "--no-progress", "--executor", "serial", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout.strip().splitlines()[-1])["episodes"] == 2
    assert _tree(d) == _tree(finished_run)


# --- exit 0 on bad input ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("args, flag", [(["--timeout", "-1"], "--timeout"), (["--timeout", "nan"], "--timeout"),
                                        (["--max-retries", "-1"], "--max-retries")])
def test_llm_options_out_of_range_are_refused_without_an_llm_agent(tmp_path, args, flag):
    r = runner.invoke(app, ["run", "bomb", "--episodes", "1", "--out", str(tmp_path / "run"), *args])
    _one_error(r, 2, flag)
    assert not (tmp_path / "run").exists()


def test_an_empty_episode_subset_is_refused():
    r = runner.invoke(app, ["bench", "transport", "--episodes-subset", "", "--no-progress"])
    _one_error(r, 2, "--episodes-subset is empty")
    assert r.stdout == ""


@pytest.mark.parametrize("text", ["", "  \n\n"])
def test_demo_refuses_an_empty_scenario_file(tmp_path, text):
    path = tmp_path / "empty.bel"
    path.write_text(text)
    r = runner.invoke(app, ["demo", "--scenario", str(path)])
    _one_error(r, 1, str(path), "empty")
    assert r.stdout == ""


def test_tomi_refuses_a_question_line_with_an_empty_answer(tmp_path):
    path = tmp_path / "stories.txt"
    path.write_text("1 Sally entered the kitchen.\n2 The marble is in the basket.\n"
                    "3 Where is the marble really?\t\t1\n")
    r = runner.invoke(app, ["tomi", str(path), "--no-progress"])
    _one_error(r, 1, f"{path}:3", "empty answer")


# --- belief plot and a 5,000-digit number --------------------------------------------------------------------
def _bench_line() -> str:
    from belief.app.results.comparison import compare, share

    rows = {"a": [{"seed": 0, "x": 1.0}, {"seed": 1, "x": 0.0}], "b": [{"seed": 0, "x": 0.0}, {"seed": 1, "x": 1.0}]}
    return json.dumps(compare("escape_v0", rows, [share("x")], "a", seed=0))


@pytest.mark.parametrize("field", ['"episodes": 2', '"seed": 0', '"n": 2'])
def test_plot_refuses_a_bench_line_with_a_5000_digit_number(tmp_path, field):
    line = _bench_line()
    assert field in line
    path = tmp_path / "bench.json"
    path.write_text(line.replace(field, field.split(":")[0] + ": " + "9" * 5000, 1) + "\n")
    r = runner.invoke(app, ["plot", str(path), "--out", str(tmp_path / "f.png")])
    _one_error(r, 1, str(path), "5000 digits")
    assert not (tmp_path / "f.png").exists()


def test_the_bench_shape_refuses_a_huge_integer_as_a_library_call():
    from belief.app.results.schema import BenchShapeError, validate_bench_json

    data = json.loads(_bench_line())
    data["by_agent"]["a"]["x"] = 10 ** 5000
    with pytest.raises(BenchShapeError, match="finite number"):
        validate_bench_json(data)
    data = json.loads(_bench_line())
    data["episodes"] = 10 ** 5000
    with pytest.raises(BenchShapeError, match="64-bit"):
        validate_bench_json(data)


# --- bench transport: identical runs, identical episodes.jsonl ----------------------------------------------
def test_bench_transport_episode_rows_hold_no_wall_clock_time(tmp_path):
    args = ["bench", "transport", "--episodes-subset", "0", "--agents", "silent,rhp", "--planner", "greedy",
            "--no-progress", "--executor", "serial"]
    for name in ("a", "b"):
        r = runner.invoke(app, args + ["--out", str(tmp_path / name)])
        assert r.exit_code == 0, r.output[-800:]
    rows = [json.loads(line) for line in (tmp_path / "a" / "episodes.jsonl").read_text().splitlines()]
    assert len(rows) == 2 and all("seconds" not in row["planner"] for row in rows)
    assert (tmp_path / "a" / "episodes.jsonl").read_bytes() == (tmp_path / "b" / "episodes.jsonl").read_bytes()
    timings = [json.loads(line) for line in (tmp_path / "a" / "timings.jsonl").read_text().splitlines()]
    assert [(t["world"], t["agent"]) for t in timings] == [(r["world"], r["agent"]) for r in rows]
    assert all(t["planner_seconds"] >= 0 for t in timings)


# --- every --out checked before any work -------------------------------------------------------------------
def _no_work(*args, **kwargs):
    raise AssertionError("episodes were played before --out was checked")


@pytest.fixture
def no_work(monkeypatch):
    import belief.app.bench.household as household
    import belief.app.bench.transport as transport
    import belief.app.cli.episode_report as report
    import belief.app.runs.executor as executor
    import belief.app.runs.manifest as manifest

    for module in (executor, report, household, transport, manifest):
        monkeypatch.setattr(module, "run_tasks", _no_work)


WITH_OUT = [["run", w, "--episodes", "1"] for w in ("bomb", "household", "capture", "escape", "transport", "blocks",
                                                   "overcooked", "hanabi", "guandan")] + \
           [["bench", w, "--episodes", "1"] for w in ("bomb", "household", "capture", "escape", "blocks", "overcooked",
                                                     "hanabi", "guandan", "coordqa")] + \
           [["bench", "transport", "--episodes-subset", "0"], ["coordqa", "capture"],
            ["bench", "parse", "--facts", "10"], ["bench", "guandan-moves", "--hands", "2"]]


@pytest.mark.parametrize("args", WITH_OUT, ids=[" ".join(a[:2]) for a in WITH_OUT])
def test_an_out_that_cannot_be_written_fails_before_any_work(tmp_path, no_work, args):
    blocker = tmp_path / "a-file"
    blocker.write_text("mine")
    out = blocker / "results"  # below a file: no directory can be made there
    r = runner.invoke(app, args + ["--out", str(out), "--no-progress"] if args[1] not in ("parse", "guandan-moves")
                      else args + ["--out", str(out)])
    _one_error(r, 1, str(out))
    assert r.stdout == "" and blocker.read_text() == "mine"


def test_bench_hanabi_out_in_proc_fails_before_the_bench(monkeypatch):
    import belief.app.bench.hanabi as hanabi

    monkeypatch.setattr(hanabi, "bench", _no_work)
    r = runner.invoke(app, ["bench", "hanabi", "--out", "/proc/nope", "--no-progress"])
    _one_error(r, 1, "/proc/nope")


def test_a_plot_file_that_cannot_be_written_fails_before_reading(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("mine")
    r = runner.invoke(app, ["plot", str(tmp_path / "missing-results"), "--out", str(blocker / "f.png")])
    assert r.exit_code == 1 and "Traceback" not in r.output and "missing-results" not in r.stderr


# --- --force clears what a killed run left -------------------------------------------------------------------
@pytest.mark.parametrize("args", [["coordqa", "capture"], ["bench", "escape", "--episodes", "1", "--ask-every", "5"]])
def test_force_removes_the_temporary_files_of_a_killed_run(tmp_path, args):
    d = tmp_path / "out"
    d.mkdir()
    stale = d / f".capture_0.trace.jsonl.x1y2{TEMP_SUFFIX}"
    stale.write_text('{"half')
    (d / "notes.txt").write_text("mine")
    r = runner.invoke(app, args + ["--out", str(d), "--force", "--executor", "serial", "--no-progress"])
    assert r.exit_code == 0, r.output[-800:]
    assert not stale.exists() and (d / "notes.txt").read_text() == "mine"
    assert not [p for p in d.iterdir() if p.name.endswith(TEMP_SUFFIX)]
