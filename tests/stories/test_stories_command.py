"""`belief stories`: the directory it writes, byte-identical for the same options, regraded by `belief grade`."""

import json

from typer.testing import CliRunner

from belief.app.cli import app
from belief.app.evaluation.stories_dir import read_stories_dir
from belief.grading.questions import gold_answer
from belief.truth.checker import check

runner = CliRunner()


def _files(d):
    return {p.relative_to(d).as_posix(): p.read_bytes() for p in sorted(d.rglob("*")) if p.is_file()}


def test_stories_then_grade(tmp_path):
    out = tmp_path / "set"
    r = runner.invoke(app, ["stories", "--n", "8", "--seed", "3", "--depth", "3", "--out", str(out), "--json",
                            "--no-progress"])
    assert r.exit_code == 0, r.output
    assert len(r.stdout.strip().splitlines()) == 1, r.stdout  # --json: one JSON line, nothing else on stdout
    summary = json.loads(r.stdout)
    manifest = json.loads((out / "manifest.json").read_text())
    assert summary["questions"] == manifest["questions"] > 0 and manifest["options"]["depth"] == 3
    assert sum(manifest["counts"]["phenomenon"].values()) == manifest["questions"]
    assert max(int(k) for k in manifest["counts"]["order"]) <= 3
    stories = read_stories_dir(out)
    assert len(stories) == 8 and all(len(s["text"].splitlines()) == len(s["trace"]) for s in stories)
    # a story's answers graded by `belief grade`: the gold answers score 1.0
    story = next(s for s in stories if s["questions"])
    sid = story["id"]
    gold = [json.loads(line) for line in (out / "questions" / f"{sid}.questions.jsonl").read_text().splitlines()]
    truth = check(story["trace"])
    answers = tmp_path / "answers.jsonl"
    answers.write_text("".join(json.dumps({"id": q.id, "answer": f"The answer is {gold_answer(truth, q)}.",
                                           "episode": sid}) + "\n" for q in story["questions"]))
    r = runner.invoke(app, ["grade", str(out / "traces" / f"{sid}.trace.jsonl"), str(answers), "--questions",
                            str(out / "questions" / f"{sid}.questions.jsonl"), "--json", "--no-progress"])
    assert r.exit_code == 0, r.output
    graded = json.loads(r.output.strip().splitlines()[-1])
    assert graded["questions"] == len(gold) and graded["accuracy"] == 1.0
    # the same options again: the same bytes; an existing directory needs --force
    again = tmp_path / "again"
    assert runner.invoke(app, ["stories", "--n", "8", "--seed", "3", "--depth", "3", "--out", str(again),
                               "--no-progress"]).exit_code == 0
    assert _files(out) == _files(again)
    r = runner.invoke(app, ["stories", "--n", "2", "--out", str(out), "--no-progress"])
    assert r.exit_code == 1 and "--force" in r.output


def test_bad_options_are_one_line(tmp_path):
    r = runner.invoke(app, ["stories", "--n", "2", "--phenomena", "peek,telepathy", "--out", str(tmp_path / "x")])
    assert r.exit_code == 1 and "unknown phenomenon 'telepathy'" in r.output and "Traceback" not in r.output
    r = runner.invoke(app, ["stories", "--n", "2", "--people", "1-9", "--out", str(tmp_path / "y")])
    assert r.exit_code == 1 and "people" in r.output
