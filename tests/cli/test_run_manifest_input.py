"""A run directory's manifest is input (issue 18): --force and --resume touch only files inside the run
directory that the run itself writes, whatever an edited, corrupt or hostile manifest lists; answers
relabelled with another episode's name are refused by grade."""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from belief.app.cli import app
from belief.app.runs.manifest import ManifestError, RunManifest, name_problem
from belief.app.runners.bomb_run_dir import OWN_FILES

runner = CliRunner()


def _bomb(*args):
    return runner.invoke(app, ["run", "bomb", "--no-progress", "--executor", "serial", "--max-rounds", "4",
                               *map(str, args)])


def _one_error(r, code: int, phrase: str):
    errors = [line for line in r.stderr.splitlines() if line.startswith("error:")]
    assert r.exit_code == code, r.output[-800:]
    assert len(errors) == 1 and phrase in errors[0], r.stderr[-800:]
    assert "Traceback" not in r.output


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("runs") / "run"
    r = _bomb("--episodes", 2, "--seed", 0, "--out", d)
    assert r.exit_code == 0, r.output
    return d


@pytest.fixture
def run_dir(finished_run, tmp_path) -> Path:
    """A fresh copy of a finished two-episode run, with a user's file and folder beside the run's files."""
    d = tmp_path / "run"
    d.mkdir()
    for p in finished_run.iterdir():
        (d / p.name).write_bytes(p.read_bytes())
    (d / "notes.txt").write_text("mine")
    (d / "sub").mkdir()
    (d / "sub" / "bomb_9.trace.jsonl").write_text("mine too")
    return d


def _edit_manifest(d: Path, edit) -> None:
    m = json.loads((d / "manifest.json").read_text())
    edit(m)
    (d / "manifest.json").write_text(json.dumps(m))


def _victims(tmp_path: Path) -> list[Path]:
    outside = [tmp_path / "victim.txt", tmp_path / "elsewhere" / "victim.txt"]
    for p in outside:
        p.parent.mkdir(exist_ok=True)
        p.write_text("not the run's")
    return outside


def _hostile(m: dict, victims: list[Path]) -> None:
    m["outputs"]["../victim.txt"] = "0" * 64
    m["episodes"][0]["files"][str(victims[1])] = "0" * 64  # an absolute path
    m["episodes"][1]["files"]["sub/bomb_9.trace.jsonl"] = "0" * 64  # inside, but not a plain name
    m["outputs"]["notes.txt"] = "0" * 64  # a plain name the run never writes


def test_force_never_deletes_what_an_edited_manifest_names_outside_the_run(run_dir, tmp_path):
    victims = _victims(tmp_path)
    _edit_manifest(run_dir, lambda m: _hostile(m, victims))
    r = _bomb("--episodes", 1, "--seed", 5, "--out", run_dir, "--force")
    assert r.exit_code == 0, r.output
    assert all(p.read_text() == "not the run's" for p in victims)
    assert (run_dir / "notes.txt").read_text() == "mine"
    assert (run_dir / "sub" / "bomb_9.trace.jsonl").read_text() == "mine too"
    # the old run's own files went (its manifest could not be trusted: by the run's file patterns)
    assert sorted(p.name for p in run_dir.glob("bomb_*")) == [
        "bomb_5.answers.jsonl", "bomb_5.questions.jsonl", "bomb_5.rows.jsonl", "bomb_5.trace.jsonl"]


@pytest.mark.parametrize("name, phrase", [
    ("../victim.txt", "'../victim.txt', which is not a plain file name inside the run directory"),
    ("{abs}", "which is not a plain file name inside the run directory"),
    ("sub/bomb_9.trace.jsonl", "which is not a plain file name"),
    ("notes.txt", "'notes.txt', which is not a file this run writes"),
])
def test_resume_refuses_a_manifest_naming_files_that_are_not_the_runs(run_dir, tmp_path, name, phrase):
    victims = _victims(tmp_path)
    name = name.format(abs=victims[1])
    _edit_manifest(run_dir, lambda m: m["episodes"][0]["files"].update({name: "0" * 64}))
    before = {p: p.read_bytes() for p in run_dir.rglob("*") if p.is_file()}
    r = _bomb("--resume", run_dir)
    _one_error(r, 1, phrase)
    assert "nothing was read or deleted" in r.stderr
    assert {p: p.read_bytes() for p in run_dir.rglob("*") if p.is_file()} == before
    assert all(p.read_text() == "not the run's" for p in victims)


@pytest.mark.parametrize("manifest, phrase", [
    ("[" * 100_000, "unreadable manifest: invalid JSON: nested too deeply"),
    ('{"format": "belief-run", "version": 2, "episodes": [{"seed": ' + "9" * 5000 + "}]}",
     "an integer of 5000 digits"),
    ("{half", "unreadable manifest: invalid JSON"),
    ('{"format": "belief-run", "version": 2, "command": "run bomb", "options": {}, "episodes": [{"name": "x", '
     '"seed": "3", "status": "done"}]}', "malformed manifest"),
])
def test_a_corrupt_manifest_is_one_error_on_resume_and_cleared_by_force(run_dir, manifest, phrase):
    (run_dir / "manifest.json").write_text(manifest)
    r = _bomb("--resume", run_dir)
    _one_error(r, 1, phrase)
    r = _bomb("--episodes", 1, "--seed", 3, "--out", run_dir, "--force")
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in run_dir.iterdir()) == [
        "bomb_3.answers.jsonl", "bomb_3.questions.jsonl", "bomb_3.rows.jsonl", "bomb_3.trace.jsonl", "episodes.csv",
        "episodes.jsonl",
        "manifest.json", "notes.txt", "questions.csv", "questions.jsonl", "sub", "summary.json"]
    assert json.loads((run_dir / "manifest.json").read_text())["status"] == "complete"


def test_force_removes_a_link_not_what_it_points_to(run_dir, tmp_path):
    target = tmp_path / "target.txt"
    target.write_text("outside")
    (run_dir / "bomb_0.trace.jsonl").unlink()
    (run_dir / "bomb_0.trace.jsonl").symlink_to(target)
    r = _bomb("--resume", run_dir)  # the link is not the file the run wrote: the episode is played again
    assert r.exit_code == 0, r.output
    assert not (run_dir / "bomb_0.trace.jsonl").is_symlink() and target.read_text() == "outside"
    (run_dir / "bomb_1.trace.jsonl").unlink()
    (run_dir / "bomb_1.trace.jsonl").symlink_to(target)
    assert _bomb("--episodes", 1, "--seed", 7, "--out", run_dir, "--force").exit_code == 0
    assert target.read_text() == "outside" and not (run_dir / "bomb_1.trace.jsonl").exists()


@pytest.mark.parametrize("name", ["", ".", "..", "../x", "/etc/passwd", "a/b", "a\0b", "sub/../x"])
def test_name_problem_refuses_anything_but_a_plain_name(name):
    assert name_problem(name) is not None
    assert name_problem("bomb_0.trace.jsonl", OWN_FILES) is None
    assert name_problem("bomb_0.trace.jsonl.bak", OWN_FILES) is not None


def test_read_refuses_a_hostile_manifest_as_a_library_call(run_dir, tmp_path):
    _edit_manifest(run_dir, lambda m: _hostile(m, _victims(tmp_path)))
    with pytest.raises(ManifestError, match="not a plain file name"):
        RunManifest.read(run_dir, OWN_FILES)


def test_grade_refuses_answers_relabelled_with_another_episodes_name(finished_run, tmp_path):
    ok = runner.invoke(app, ["grade", str(finished_run / "bomb_0.trace.jsonl"),
                             str(finished_run / "bomb_0.answers.jsonl"), "--json"])
    assert ok.exit_code == 0, ok.output
    relabelled = tmp_path / "relabelled.jsonl"
    relabelled.write_text("".join(json.dumps({**json.loads(line), "episode": "bomb_0"}) + "\n"
                                  for line in (finished_run / "bomb_1.answers.jsonl").read_text().splitlines()))
    r = runner.invoke(app, ["grade", str(finished_run / "bomb_0.trace.jsonl"), str(relabelled)])
    _one_error(r, 1, "these answers belong to another episode, whatever their \"episode\" says")
